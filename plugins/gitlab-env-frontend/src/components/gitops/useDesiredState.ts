import { useApi } from '@backstage/core-plugin-api';
import {
  DesiredObjectDiff,
  DesiredStateComparison,
  GitOpsView,
  KubernetesObject,
  ResourceNode,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import useAsync from 'react-use/esm/useAsync';
import { gitlabEnvApiRef } from '../../api';
import { useEnvironmentScope } from '../actions/EnvironmentScope';

/** The repository's side of one drawer node: its diff, or why there is none. */
export interface DesiredForNode {
  diff?: DesiredObjectDiff;
  /** What the drawer says instead of (or beside) a diff, in plain words. */
  note?: string;
}

/** Whether the repository comparison concerns the node: a Flux object, or what a Flux inventory names. */
function concerns(node: ResourceNode, gitops: GitOpsView | undefined): boolean {
  if (!gitops) return false;
  return (
    gitops.fluxObjects.some(f => f.nodeId === node.id) ||
    gitops.inventories.some(
      group => group.source === 'flux' && group.memberIds.includes(node.id),
    )
  );
}

function noteFor(
  node: ResourceNode,
  comparison: DesiredStateComparison,
  diff: DesiredObjectDiff | undefined,
  isFluxObject: boolean,
): string | undefined {
  if (comparison.unavailable)
    return `No desired vs live from the repository: ${comparison.unavailable}`;
  const notRendered =
    comparison.notRendered.length > 0
      ? ` Not compared (needs kustomize or Helm): ${comparison.notRendered.join(
          '; ',
        )}.`
      : '';
  const where = comparison.source
    ? `${comparison.source.project} at ${comparison.source.ref.slice(0, 8)}, ${
        comparison.source.path
      }`
    : 'the repository';
  if (isFluxObject) {
    const differ = comparison.objects.filter(o => o.state !== 'same').length;
    return `Compared with ${where}: ${comparison.objects.length} manifest(s), ${differ} differ from the cluster.${notRendered}`;
  }
  if (diff) return notRendered ? notRendered.trim() : undefined;
  return `${node.kind} ${node.name} is not among the plain manifests of ${where}.${notRendered}`;
}

/**
 * Desired vs live for the node the drawer shows. A read carries the
 * comparison (`given`); on the live tab it is asked of the backend when the
 * drawer opens on an object Flux manages, and again when that object or a
 * Flux object changes (a new revision applied).
 */
export function useDesiredState(
  node: ResourceNode,
  gitops: GitOpsView | undefined,
  objects: ReadonlyMap<string, KubernetesObject>,
  given: DesiredStateComparison | undefined,
): DesiredForNode {
  const api = useApi(gitlabEnvApiRef);
  const scope = useEnvironmentScope();
  const concerned = concerns(node, gitops);
  const ask = concerned && !given && scope !== undefined;
  // What the comparison depends on: this object and the Flux objects' revisions.
  const version = [node.id, ...(gitops?.fluxObjects ?? []).map(f => f.nodeId)]
    .map(id => objects.get(id)?.metadata?.resourceVersion ?? '')
    .join('|');
  const asked = useAsync(async () => {
    if (!ask) return undefined;
    return (await api.getDesiredState(scope.entity, scope.environmentSlug))
      .desired;
  }, [ask, api, scope?.entity, scope?.environmentSlug, node.id, version]);
  if (!concerned) return {};
  const isFluxObject = gitops!.fluxObjects.some(f => f.nodeId === node.id);
  const comparison = given ?? asked.value;
  if (!comparison) {
    if (asked.loading) return { note: "Reading the repository's manifests…" };
    if (asked.error)
      return {
        note: `The repository comparison failed: ${asked.error.message}`,
      };
    return {};
  }
  const diff = comparison.objects.find(o => o.id === node.id);
  return { diff, note: noteFor(node, comparison, diff, isFluxObject) };
}
