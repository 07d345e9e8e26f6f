import { buildGitOpsView, NO_DRIFT } from '../gitops';
import { objectsByNodeId } from '../graph/objectsByNodeId';
import { EnvironmentResourcesResponse } from '../types';
import { gitOpsMarks, objectFacts, treeNodeOf } from './treeNodes';
import type { EnvironmentTree } from './types';

/**
 * The tree of a read's answer, as the page draws it: each node with what
 * the engine computes from its object (status words, creation time,
 * suspension) and what GitOps says of it (drift, unmanaged, a Flux
 * object's sync state). The nodes marked drifted are those the read's
 * `drift` names and the environment's count is the read's `driftedCount`:
 * the backend's drift of the state, which the tree does not derive. The
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
    response.drift ?? NO_DRIFT,
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
