import { KubeObject } from '../scenario/types';

/**
 * The deployment controller's rolling-update arithmetic
 * (`pkg/controller/deployment/rolling.go`, `pkg/controller/deployment/util/deployment_util.go`).
 */

/** JSON with sorted keys, so templates compare by content whatever the key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map(k => [k, v[k]]),
        )
      : v,
  );
}

/**
 * A value as Kubernetes' semantic equality sees it (`apiequality.Semantic.DeepEqual`
 * over typed structs): a null, an empty map or an empty list is the same as an
 * absent field (kubectl sends `creationTimestamp: null` and `resources: {}`).
 */
function semantic(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.length ? value.map(semantic) : undefined;
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
      .map(([key, v]) => [key, semantic(v)] as const)
      .filter(([, v]) => v !== undefined);
    return entries.length ? Object.fromEntries(entries) : undefined;
  }
  return value === null ? undefined : value;
}

/** Do two pod templates hold the same content, semantically and key order aside? */
export function sameTemplate(a: unknown, b: unknown): boolean {
  return canonicalJson(semantic(a) ?? {}) === canonicalJson(semantic(b) ?? {});
}

/** EqualIgnoreHash: a ReplicaSet's pod template equals the Deployment's, ignoring `pod-template-hash`. */
export function templatesEqualIgnoringHash(
  rsTemplate: any,
  deploymentTemplate: any,
): boolean {
  const withoutHash = (t: any) => {
    const copy = JSON.parse(JSON.stringify(t ?? {}));
    delete copy.metadata?.labels?.['pod-template-hash'];
    return copy;
  };
  return sameTemplate(withoutHash(rsTemplate), withoutHash(deploymentTemplate));
}

/** `intstr.GetScaledValueFromIntOrPercent`: an int, or a percentage of `total` rounded up or down. */
export function scaledValue(
  value: number | string | undefined,
  fallback: string,
  total: number,
  roundUp: boolean,
): number {
  const v = value ?? fallback;
  if (typeof v === 'number') return v;
  const match = /^(\d+)%$/.exec(v);
  if (!match) return Number(v) || 0;
  const exact = (Number(match[1]) * total) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}

/** ResolveFenceposts: maxSurge rounds up, maxUnavailable down, and both 0 means maxUnavailable 1. */
export function fenceposts(deployment: KubeObject): {
  maxSurge: number;
  maxUnavailable: number;
} {
  const desired = deployment.spec?.replicas ?? 1;
  const rolling = deployment.spec?.strategy?.rollingUpdate ?? {};
  const maxSurge = scaledValue(rolling.maxSurge, '25%', desired, true);
  let maxUnavailable = scaledValue(
    rolling.maxUnavailable,
    '25%',
    desired,
    false,
  );
  if (maxSurge === 0 && maxUnavailable === 0) maxUnavailable = 1;
  return { maxSurge, maxUnavailable };
}

/** NewRSNewReplicas for RollingUpdate: how far the new ReplicaSet may grow now. */
export function newReplicaSetReplicas(
  desired: number,
  maxSurge: number,
  newReplicas: number,
  allReplicas: number,
): number {
  const maxTotal = desired + maxSurge;
  if (allReplicas >= maxTotal) return newReplicas;
  return Math.min(newReplicas + (maxTotal - allReplicas), desired);
}
