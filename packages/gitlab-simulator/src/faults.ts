/** Failure modes the simulator can inject, per request, into GitLab and KAS answers. */
export interface FaultKnobs {
  /** Added to every request (GitLab and KAS). */
  latencyMs: number;
  /** 0..1 chance a request fails with `errorKind`. */
  errorRate: number;
  errorKind: '5xx' | 'reset' | 'slow-body' | 'malformed-json' | 'invalid-utf8';
  /** The HTTP methods `errorRate` applies to, e.g. `['PATCH', 'DELETE']` for writes only; empty: every method. */
  faultMethods: string[];
  /** RBAC 403 for list/get of these resources: `plural` (any group) or `group/plural`. */
  forbiddenKinds: string[];
  /**
   * RBAC granted per namespace (RoleBindings, no ClusterRoleBinding): reads of
   * namespaced resources across all namespaces answer 403.
   */
  namespacedRbacOnly: boolean;
  /** Agent ids (names also accepted) answering as KAS does when agentk is not connected. */
  disconnectedAgents: string[];
  /** `metadata.kas.enabled`; when false the KAS proxy answers 404 like an instance without KAS. */
  kasEnabled: boolean;
  /**
   * The answers of a broken server or proxy, applied to every list (KAS) or
   * environments page (GraphQL). Each is what a client must survive, not
   * something Kubernetes or GitLab promise: see dataFaults.ts.
   */
  /** Kubernetes lists answer continue tokens that loop A→B→A… */
  loopingContinue: boolean;
  /** GraphQL environments pages answer `hasNextPage` with end cursors that loop A→B→A… */
  loopingCursor: boolean;
  /** 0 = off; else every non-empty list gains an object nested this deep. */
  deepObjectDepth: number;
  /** 0 = off; else every non-empty list of Pods gains this many copies of its first Pod (distinct names and uids). */
  oversizedListItems: number;
  /** Lists of Secrets answer `kind: List`, each item saying `v1 Secret`. */
  secretsInList: boolean;
  /** Every item of a list carries the first item's uid. */
  duplicateUids: boolean;
  /** The first item of a list has a number as `metadata.name` and a string as `metadata.labels`. */
  malformedMetadata: boolean;
}

export const DEFAULT_FAULTS: FaultKnobs = {
  latencyMs: 0,
  errorRate: 0,
  errorKind: '5xx',
  faultMethods: [],
  forbiddenKinds: [],
  namespacedRbacOnly: false,
  disconnectedAgents: [],
  kasEnabled: true,
  loopingContinue: false,
  loopingCursor: false,
  deepObjectDepth: 0,
  oversizedListItems: 0,
  secretsInList: false,
  duplicateUids: false,
  malformedMetadata: false,
};

/** Does a `forbiddenKinds` entry cover this resource? */
export function isForbiddenBy(
  entries: string[],
  group: string,
  plural: string,
  subresource?: string,
): boolean {
  return entries.some(entry => {
    const [first, second] = entry.split('/');
    if (second === undefined) return first === plural;
    // `pods/log` names a subresource; `apps/deployments` a group and resource.
    if (first === plural && second === subresource) return true;
    return first === group && second === plural;
  });
}
