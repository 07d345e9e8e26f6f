import { UsagePoint } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { GitlabEnvFailure } from '../errors';
import type { KasClient } from '../transport/kasClient';
import { isDns1123Label } from '../validation';
import { isRecord } from '../validation/json';

/** A Prometheus found in the cluster, reached through the API server's service proxy. */
export interface PrometheusService {
  namespace: string;
  name: string;
  port: string;
}

export const prometheusLabel = (p: PrometheusService) =>
  `${p.namespace}/${p.name}:${p.port}`;

/**
 * Where the usual installations put Prometheus (reference: history,
 * actions and usage notes §4): kube-prometheus-stack's
 * `<release>-kube-prometheus-stack-prometheus`-style Service (default
 * `kube-prometheus-stack-prometheus`, port `http-web`), kube-prometheus's
 * `prometheus-k8s` (port `web`), both in `monitoring`; then the
 * prometheus-operator's governing Service `prometheus-operated` (label
 * `operated-prometheus=true`) in any namespace.
 */
const KNOWN_SERVICES = [
  { namespace: 'monitoring', name: 'kube-prometheus-stack-prometheus' },
  { namespace: 'monitoring', name: 'prometheus-k8s' },
];
const PORT_NAMES = ['http-web', 'web'];

/** The service's web port, by the names the charts use, else 9090, else its first. */
function webPort(service: Record<string, any>): string | undefined {
  const ports: any[] = Array.isArray(service.spec?.ports)
    ? service.spec.ports
    : [];
  const port =
    ports.find(p => PORT_NAMES.includes(p?.name)) ??
    ports.find(p => p?.port === 9090) ??
    ports[0];
  if (!port) return undefined;
  if (isDns1123Label(port.name)) return port.name;
  return Number.isInteger(port.port) && port.port > 0 && port.port < 65536
    ? String(port.port)
    : undefined;
}

function toService(value: unknown): PrometheusService | undefined {
  if (!isRecord(value)) return undefined;
  const metadata = isRecord(value.metadata) ? value.metadata : {};
  const { namespace, name } = metadata as Record<string, unknown>;
  const port = webPort(value);
  if (!isDns1123Label(namespace) || !isDns1123Label(name) || !port)
    return undefined;
  return { namespace, name, port };
}

function proxyPath(p: PrometheusService, apiPath: string): string {
  return `/api/v1/namespaces/${p.namespace}/services/${p.name}:${p.port}/proxy${apiPath}`;
}

/** Does a Prometheus answer behind the service (`/api/v1/status/buildinfo`)? */
async function answers(kas: KasClient, p: PrometheusService) {
  try {
    const body = await kas.get(
      proxyPath(p, '/api/v1/status/buildinfo'),
      `the ${prometheusLabel(p)} service proxy`,
    );
    return isRecord(body) && body.status === 'success';
  } catch {
    return false;
  }
}

/**
 * Looks for a Prometheus in the agent's cluster, never configured: the
 * known Services first (a GET each), then the operator's governing
 * Services across the cluster; the first that answers Prometheus's API
 * through the service proxy. Undefined when none does (or RBAC hides them).
 */
export async function findPrometheus(
  kas: KasClient,
): Promise<PrometheusService | undefined> {
  const candidates: PrometheusService[] = [];
  for (const known of KNOWN_SERVICES) {
    const found = await kas
      .get(
        `/api/v1/namespaces/${known.namespace}/services/${known.name}`,
        'services',
      )
      .catch(() => undefined);
    const service = toService(found);
    if (service) candidates.push(service);
  }
  const operated = await kas
    .get(
      `/api/v1/services?labelSelector=${encodeURIComponent(
        'operated-prometheus=true',
      )}&limit=20`,
      'services',
    )
    .catch(() => undefined);
  if (isRecord(operated) && Array.isArray(operated.items))
    candidates.push(
      ...operated.items
        .map(toService)
        .filter((s): s is PrometheusService => s !== undefined),
    );
  for (const candidate of candidates) {
    if (await answers(kas, candidate)) return candidate;
  }
  return undefined;
}

/** `"a"` for PromQL: label values in double quotes, escaped. */
const quoted = (value: string) => JSON.stringify(value);
/** Pod names in a regex alternation: `.` is the only metacharacter they can hold. */
const alternation = (names: string[]) =>
  names.map(n => n.replace(/\./g, '\\\\.')).join('|');

/** The PromQL of a pod's or a workload's CPU (cores) and memory (working-set bytes). */
export function usageQueries(namespace: string, pods: string[]) {
  const podMatcher =
    pods.length === 1
      ? `pod=${quoted(pods[0])}`
      : `pod=~"${alternation(pods)}"`;
  const selector = `namespace=${quoted(
    namespace,
  )},${podMatcher},container!="",container!="POD"`;
  return {
    cpu: `sum(rate(container_cpu_usage_seconds_total{${selector}}[5m]))`,
    memory: `sum(container_memory_working_set_bytes{${selector}})`,
  };
}

async function queryRange(
  kas: KasClient,
  p: PrometheusService,
  query: string,
  range: { start: number; end: number; stepSeconds: number },
): Promise<Array<[number, number]>> {
  const params = new URLSearchParams({
    query,
    start: String(range.start),
    end: String(range.end),
    step: String(range.stepSeconds),
  });
  const body = await kas.get(
    proxyPath(p, `/api/v1/query_range?${params}`),
    `PromQL through ${prometheusLabel(p)}`,
  );
  if (!isRecord(body) || body.status !== 'success' || !isRecord(body.data))
    throw new Error(`${prometheusLabel(p)} answered the query with an error`);
  const result = Array.isArray(body.data.result) ? body.data.result : [];
  const values: unknown[] =
    isRecord(result[0]) && Array.isArray(result[0].values)
      ? result[0].values
      : [];
  return values
    .filter((v): v is [number, string] => Array.isArray(v) && v.length === 2)
    .map(([t, v]) => [Number(t), Number(v)] as [number, number])
    .filter(([t, v]) => Number.isFinite(t) && Number.isFinite(v));
}

/**
 * A pod's or workload's usage over `range` from the cluster's Prometheus:
 * two range queries (CPU, memory), merged by time.
 */
export async function prometheusTrend(
  kas: KasClient,
  p: PrometheusService,
  queries: { cpu: string; memory: string },
  range: { start: number; end: number; stepSeconds: number },
): Promise<UsagePoint[]> {
  const [cpu, memory] = await Promise.all([
    queryRange(kas, p, queries.cpu, range),
    queryRange(kas, p, queries.memory, range),
  ]);
  const points = new Map<number, UsagePoint>();
  const at = (t: number) => {
    let point = points.get(t);
    if (!point) {
      point = { at: new Date(t * 1000).toISOString() };
      points.set(t, point);
    }
    return point;
  };
  cpu.forEach(([t, v]) => (at(t).cpu = v));
  memory.forEach(([t, v]) => (at(t).memory = v));
  return [...points.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([, point]) => point);
}

/** A Prometheus failure as a person reads it: the backend's message, or Prometheus's own. */
export function describePrometheusFailure(error: unknown): string {
  if (error instanceof GitlabEnvFailure) return error.detail.message;
  return error instanceof Error ? error.message : String(error);
}
