import {
  countDrifted,
  KubernetesObject,
  ResourceGraph,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';

/** Counts by the read's graph: a cached read is counted once, not per request. */
const counted = new WeakMap<ResourceGraph, number>();

/** How many objects of an environment drifted (the GitOps view's count), for its card. */
export function driftedCount(
  resources: readonly KubernetesObject[],
  graph: ResourceGraph,
): number {
  let count = counted.get(graph);
  if (count === undefined) {
    count = countDrifted(resources, graph);
    counted.set(graph, count);
  }
  return count;
}
