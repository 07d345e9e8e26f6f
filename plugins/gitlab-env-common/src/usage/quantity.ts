/**
 * Kubernetes resource quantities (`250m`, `1.5`, `128Mi`, `12345678n`,
 * `1e3`) as numbers: CPU in cores, memory in bytes.
 *
 * Why not `@kubernetes/client-node`: this package runs in the browser too,
 * and client-node is a Node-only ES module that brings its HTTP client with
 * it; it does not export its `quantityToScalar` (only `topPods`, which
 * uses it), which answers a `bigint` for whole numbers and throws on what
 * it cannot read, where a page wants a number or nothing. `usage.test.ts`
 * checks the engine's figures against client-node's `topPods`.
 *
 * Grammar (k8s.io/apimachinery/pkg/api/resource/quantity.go):
 * `<signedNumber><suffix>` with suffix a binary SI (`Ki Mi Gi Ti Pi Ei`),
 * a decimal SI (`n u m '' k M G T P E`) or a decimal exponent (`e3`, `E-2`).
 */

const SUFFIX: Record<string, number> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

const QUANTITY =
  /^([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))(?:([eE][+-]?[0-9]+)|(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])?)$/;

/**
 * A quantity's value (`'250m'` → 0.25, `'128Mi'` → 134217728), or
 * undefined for anything that is not a Kubernetes quantity.
 *
 * @public
 */
export function parseQuantity(value: unknown): number | undefined {
  if (typeof value === 'number')
    return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string' || value.length > 64) return undefined;
  const match = QUANTITY.exec(value.trim());
  if (!match) return undefined;
  const number = Number(match[1]);
  const result = match[2]
    ? Number(`${match[1]}${match[2]}`)
    : number * SUFFIX[match[3] ?? ''];
  return Number.isFinite(result) ? result : undefined;
}
