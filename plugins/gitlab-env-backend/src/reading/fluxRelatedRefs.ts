import {
  fluxDependenciesOf,
  fluxSourceKeyOf,
  KubernetesObject,
  fluxInventoryKeys,
  resourceId,
  ResourceKey,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { isDns1123Label, isPathSegmentName } from '../validation';
import { ListableKind } from './discovery';
import { ObjectRef } from './objectSource';

/** Reads beyond the environment's namespace stop here; the rest is a warning. */
export const MAX_RELATED_READS = 500;

/**
 * The address of an object a Flux object names, when discovery knows its
 * kind and its names follow Kubernetes' grammars: cluster data never
 * reaches a path otherwise. A namespaced kind needs a namespace, a
 * cluster-scoped one has none.
 */
export function refOf(
  key: ResourceKey,
  kinds: readonly ListableKind[],
): ObjectRef | undefined {
  if (!isPathSegmentName(key.name)) return undefined;
  const kind = kinds.find(k => k.group === key.group && k.kind === key.kind);
  if (!kind) return undefined;
  if (kind.clusterScoped) {
    if (key.namespace !== '') return undefined;
    return { ...kind, namespace: '', name: key.name, clusterScoped: true };
  }
  if (!isDns1123Label(key.namespace)) return undefined;
  return { ...kind, namespace: key.namespace, name: key.name };
}

/**
 * What a Flux object names beyond the environment's namespace: inventory
 * entries in other namespaces and cluster-scoped ones, its source and the
 * Flux objects it depends on — each once, in that order.
 */
export function fluxRelatedRefs(
  flux: KubernetesObject,
  kinds: readonly ListableKind[],
  namespace: string,
): { refs: ObjectRef[]; unreadable: number } {
  const source = fluxSourceKeyOf(flux);
  const keys = [
    ...fluxInventoryKeys(flux).filter(key => key.namespace !== namespace),
    ...(source ? [source] : []),
    ...fluxDependenciesOf(flux),
  ];
  const seen = new Set<string>();
  const refs: ObjectRef[] = [];
  let unreadable = 0;
  for (const key of keys) {
    const id = resourceId(key);
    if (seen.has(id)) continue;
    seen.add(id);
    const ref = refOf(key, kinds);
    if (ref) refs.push(ref);
    else unreadable++;
  }
  return { refs, unreadable };
}
