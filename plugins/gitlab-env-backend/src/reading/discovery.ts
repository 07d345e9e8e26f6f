import { failure } from '../errors';
import { KasClient } from '../transport/kasClient';
import { isRecord } from '../validation/json';
import {
  basePathOf,
  isApiGroup,
  isDns1123Label,
  isKindName,
} from '../validation';

/**
 * A listable kind at its preferred version; cluster-scoped ones are flagged.
 *
 * @public
 */
export interface ListableKind {
  group: string;
  version: string;
  /** Plural resource name used in paths, e.g. `deployments`. */
  plural: string;
  kind: string;
  /** `apps/Deployment`, `Pod` (core): how errors name the kind. */
  label: string;
  /** API path prefix: `/api/v1` or `/apis/<group>/<version>`. */
  basePath: string;
  /**
   * True for cluster-scoped kinds (Namespace, ClusterRole, CRDs…): never
   * listed per namespace, only read when an inventory names an object.
   */
  clusterScoped?: boolean;
  /**
   * False when the API server does not offer `watch` on the kind (an
   * aggregated API may serve list alone): live updates list it again
   * periodically instead.
   */
  watchable?: false;
}

/** The kinds listed in a namespace: all but the cluster-scoped ones. */
export function namespacedKinds(
  kinds: readonly ListableKind[],
): ListableKind[] {
  return kinds.filter(kind => !kind.clusterScoped);
}

/**
 * Groups whose kinds duplicate others (events.k8s.io mirrors core Events) or
 * are not stored objects (metrics).
 */
const SKIPPED_GROUPS = new Set(['events.k8s.io', 'metrics.k8s.io']);

function kindsOf(
  list: unknown,
  group: string,
  version: string,
  basePath: string,
): ListableKind[] {
  if (!isRecord(list) || !Array.isArray(list.resources)) {
    throw failure(
      'UPSTREAM_MALFORMED',
      `The cluster's discovery of ${basePath} is not an APIResourceList.`,
    );
  }
  // A kind whose names break Kubernetes' grammars could not be a real
  // resource, and must never become part of a path.
  if (!isApiGroup(group) || !isDns1123Label(version)) return [];
  return list.resources
    .filter(
      (r: any) =>
        isRecord(r) &&
        isDns1123Label(r.name) &&
        isKindName(r.kind) &&
        typeof r.namespaced === 'boolean' &&
        Array.isArray(r.verbs) &&
        r.verbs.includes('list'),
    )
    .map((r: any) => ({
      group,
      version,
      plural: r.name,
      kind: String(r.kind),
      label: group ? `${group}/${r.kind}` : String(r.kind),
      basePath,
      ...(r.namespaced === false && { clusterScoped: true }),
      ...(!r.verbs.includes('watch') && { watchable: false as const }),
    }));
}

/**
 * Asks `/apis` for aggregated discovery (Kubernetes 1.26+), which lists every
 * group's resources in one answer; older API servers ignore the first media
 * types and send the plain APIGroupList.
 */
const AGGREGATED_DISCOVERY =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,' +
  'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,' +
  'application/json';

/** Kinds from an APIGroupDiscoveryList, at each group's preferred (first) version. */
function aggregatedKinds(list: Record<string, any>): ListableKind[] {
  const items: unknown[] = Array.isArray(list.items) ? list.items : [];
  return items.flatMap((item: any) => {
    const group = item?.metadata?.name;
    const preferred = item?.versions?.[0];
    if (typeof group !== 'string' || SKIPPED_GROUPS.has(group)) return [];
    if (!isRecord(preferred) || !Array.isArray(preferred.resources)) return [];
    const basePath = basePathOf(group, String(preferred.version));
    return kindsOf(
      {
        resources: preferred.resources.map((r: any) => ({
          name: r?.resource,
          kind: r?.responseKind?.kind,
          namespaced: r?.scope === 'Namespaced',
          verbs: r?.verbs,
        })),
      },
      group,
      String(preferred.version),
      basePath,
    );
  });
}

/**
 * The kinds an agent's cluster lets one list, cluster-scoped ones flagged: `/api/v1` and
 * `/apis` in one round; with aggregated discovery that is all, otherwise
 * every group's preferred version follows in a second round.
 */
export async function discoverListableKinds(
  kas: KasClient,
): Promise<ListableKind[]> {
  const [core, groups] = await Promise.all([
    kas.get('/api/v1'),
    kas.get('/apis', undefined, AGGREGATED_DISCOVERY),
  ]);
  if (core === undefined) {
    throw failure(
      'KAS_UNAVAILABLE',
      'KAS answered 404 for the Kubernetes API: it is disabled or misconfigured.',
      {
        upstreamStatus: 404,
        hint: 'Check that KAS is enabled on the instance.',
      },
    );
  }
  if (isRecord(groups) && groups.kind === 'APIGroupDiscoveryList') {
    return [
      kindsOf(core, '', 'v1', basePathOf('', 'v1')),
      aggregatedKinds(groups),
    ].flat();
  }
  if (!isRecord(groups) || !Array.isArray(groups.groups)) {
    throw failure(
      'UPSTREAM_MALFORMED',
      "The cluster's /apis discovery is not an APIGroupList.",
    );
  }
  const preferred = groups.groups
    .filter(
      (g: any) =>
        isRecord(g) &&
        typeof g.name === 'string' &&
        !SKIPPED_GROUPS.has(g.name),
    )
    .map((g: any) => ({
      group: g.name as string,
      version: String(g.preferredVersion?.version ?? g.versions?.[0]?.version),
    }));
  const lists = await Promise.all(
    preferred.map(
      async ({ group, version }: { group: string; version: string }) => {
        if (!isApiGroup(group) || !isDns1123Label(version)) return [];
        const basePath = basePathOf(group, version);
        const list = await kas.get(basePath);
        return list === undefined
          ? []
          : kindsOf(list, group, version, basePath);
      },
    ),
  );
  return [kindsOf(core, '', 'v1', basePathOf('', 'v1')), ...lists].flat();
}
