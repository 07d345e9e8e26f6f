import { KubernetesObject, ResourceKey } from '../types';

/** RBAC kinds whose names cli-utils transcodes, `:` written as `__`. */
const COLON_TRANSCODED_GROUP = 'rbac.authorization.k8s.io';

/**
 * Parses a Flux inventory entry id, `<namespace>_<name>_<group>_<kind>`.
 * Namespace is empty for cluster-scoped objects and group for the core
 * group, and RBAC names may hold `__` for `:`, so the id is read from both
 * ends: kind last, group before it, namespace first, the name in between.
 *
 * @public
 */
export function parseFluxInventoryId(id: string): ResourceKey | undefined {
  if (typeof id !== 'string') return undefined;
  const kindAt = id.lastIndexOf('_');
  if (kindAt <= 0) return undefined;
  const groupAt = id.lastIndexOf('_', kindAt - 1);
  const namespaceEnd = id.indexOf('_');
  if (groupAt < 0 || namespaceEnd >= groupAt) return undefined;
  const kind = id.slice(kindAt + 1);
  const group = id.slice(groupAt + 1, kindAt);
  const namespace = id.slice(0, namespaceEnd);
  let name = id.slice(namespaceEnd + 1, groupAt);
  if (!kind || !name) return undefined;
  if (group === COLON_TRANSCODED_GROUP) name = name.replace(/__/g, ':');
  return { group, kind, namespace, name };
}

/**
 * The objects a Flux applier's `status.inventory` names, as keys; entries
 * whose id does not parse are left out.
 *
 * @public
 */
export function fluxInventoryKeys(flux: KubernetesObject): ResourceKey[] {
  const entries: unknown = flux.status?.inventory?.entries;
  if (!Array.isArray(entries)) return [];
  return entries
    .map(entry =>
      parseFluxInventoryId((entry as { id?: unknown } | null)?.id as string),
    )
    .filter((key): key is ResourceKey => key !== undefined);
}

/** @public */
export interface FluxResourcePath {
  group: string;
  version: string;
  namespace: string;
  plural: string;
  name: string;
  kind: 'Kustomization' | 'HelmRelease' | string;
}

const KINDS: Record<string, string> = {
  kustomizations: 'Kustomization',
  helmreleases: 'HelmRelease',
};

/**
 * Parses GitLab's environment `fluxResourcePath`,
 * `<group>/<version>/namespaces/<namespace>/<plural>/<name>`.
 *
 * @public
 */
export function parseFluxResourcePath(
  path: string,
): FluxResourcePath | undefined {
  if (typeof path !== 'string') return undefined;
  const parts = path.replace(/^\/+|\/+$/g, '').split('/');
  if (parts.length !== 6 || parts[2] !== 'namespaces' || parts.some(p => !p))
    return undefined;
  const [group, version, , namespace, plural, name] = parts;
  return {
    group,
    version,
    namespace,
    plural,
    name,
    kind: KINDS[plural] ?? plural,
  };
}
