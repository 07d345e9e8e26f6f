import {
  buildGitOpsView,
  KubernetesObject,
  ResourceGraph,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';

/** How many objects a Flux applier manages drifted, for the environment's card. */
export function driftedCount(
  resources: readonly KubernetesObject[],
  graph: ResourceGraph,
): number {
  return Object.keys(buildGitOpsView(resources, graph, []).drift).length;
}
