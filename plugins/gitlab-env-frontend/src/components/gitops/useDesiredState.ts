import { useMemo } from 'react';
import {
  DesiredObjectDiff,
  DesiredStateComparison,
  ResourceNode,
  TreeGraph,
  TreeNode,
  inventoryGroups,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { gitlabEnvErrorDetail } from '../../api';
import {
  NO_FLUX_RESOURCE_WORDS,
  differingCount,
  notRenderedWords,
  unavailableWords,
} from './comparisonWords';
import { useRepositoryComparison } from './useRepositoryComparison';

/** The repository's side of one drawer node: its diff, or why there is none. */
export interface DesiredForNode {
  diff?: DesiredObjectDiff;
  /** What the drawer says instead of (or beside) a diff, in plain words. */
  note?: string;
}

/** Whether the repository comparison concerns the node: a Flux object, or what a Flux inventory names. */
function concerns(node: TreeNode, graph: TreeGraph): boolean {
  return (
    node.flux !== undefined ||
    inventoryGroups(graph).some(
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
  const unavailable = unavailableWords(comparison);
  if (unavailable) return unavailable;
  const notRenderedList = notRenderedWords(comparison);
  const notRendered = notRenderedList ? ` ${notRenderedList}.` : '';
  const where = comparison.source
    ? `${comparison.source.project} at ${comparison.source.ref.slice(0, 8)}, ${
        comparison.source.path
      }`
    : 'the repository';
  if (isFluxObject) {
    return `Compared with ${where}: ${
      comparison.objects.length
    } manifest(s), ${differingCount(
      comparison,
    )} differ from the cluster.${notRendered}`;
  }
  if (diff) return notRendered ? notRendered.trim() : undefined;
  return `${node.kind} ${node.name} is not among the plain manifests of ${where}.${notRendered}`;
}

/**
 * Desired vs live for the node the drawer shows, asked of the backend when
 * the drawer opens on an object Flux manages, and again when that object's
 * drift or a Flux object's applied revision or sync state changes.
 */
export function useDesiredState(
  node: TreeNode,
  graph: TreeGraph,
): DesiredForNode {
  const concerned = useMemo(() => concerns(node, graph), [node, graph]);
  // What the comparison depends on: this object's drift and what the Flux objects applied.
  const version = useMemo(
    () =>
      [
        node.id,
        String(Boolean(node.drifted)),
        ...graph.nodes.flatMap(n =>
          n.flux ? [`${n.id}@${n.flux.appliedRevision}:${n.flux.sync}`] : [],
        ),
      ].join('|'),
    [node, graph],
  );
  const { comparison, answered, loading, error } = useRepositoryComparison({
    wanted: concerned,
    askAgainOn: version,
  });
  if (!concerned) return {};
  const isFluxObject = node.flux !== undefined;
  if (!comparison) {
    if (loading) return { note: "Reading the repository's manifests…" };
    if (error) return { note: failureNote(error) };
    return answered ? { note: NO_FLUX_RESOURCE_WORDS } : {};
  }
  const diff = comparison.objects.find(o => o.id === node.id);
  return { diff, note: noteFor(node, comparison, diff, isFluxObject) };
}

/** The failure in the backend's words, with what to do when it said so. */
function failureNote(error: Error): string {
  const hint = gitlabEnvErrorDetail(error)?.hint;
  return `The repository comparison failed: ${error.message}${
    hint ? ` ${hint}` : ''
  }`;
}
