import { buildGitOpsView } from '../gitops';
import { objectsByNodeId } from '../graph/objectsByNodeId';
import { EnvironmentResourcesResponse } from '../types';
import { gitOpsMarks, objectFacts, treeNodeOf } from './treeNodes';
import type { EnvironmentTree } from './types';

/**
 * The tree of a read's answer, as the page draws it: each node with what
 * the engine computes from its object (status words, creation time,
 * suspension) and what GitOps says of it (drift, unmanaged, a Flux
 * object's sync state); the environment as the read counted its drifted
 * objects (its `driftedCount`, which the tree does not count again). The
 * objects themselves stay behind: the drawer asks for one when it opens.
 * A live stream's compact tree decodes to the same value (LiveTree,
 * TreeReader).
 *
 * @public
 */
export function environmentTree(
  response: EnvironmentResourcesResponse,
): EnvironmentTree {
  const objects = objectsByNodeId(response.resources);
  const namespace = response.scope.namespace;
  const view = buildGitOpsView(
    response.resources,
    response.graph,
    namespace ? [namespace] : [],
  );
  const marks = gitOpsMarks(view);
  return {
    entityRef: response.entityRef,
    environment: response.environment,
    scope: response.scope,
    graph: {
      nodes: response.graph.nodes.map(node =>
        treeNodeOf(node, objectFacts(objects.get(node.id)), marks),
      ),
      edges: response.graph.edges,
      roots: response.graph.roots,
    },
    health: response.health,
    errors: response.errors,
    fetchedAt: response.fetchedAt,
  };
}
