import { resourceEvents } from '../events';
import { buildGitOpsView, NO_DRIFT } from '../gitops';
import { objectsByNodeId } from '../graph/objectsByNodeId';
import { fluxOwnerByLabels, isFluxObject } from '../k8s/flux';
import { EnvironmentResourcesResponse } from '../types';
import { EnvironmentObjectResponse, ObjectGitOps } from './types';

/**
 * What the drawer shows of one node of an environment's state beyond its
 * tree node: the object, the Events about it and what GitOps says of it
 * (its drift report is the one the state's `drift` holds, as the backend's
 * owner of the drift computed it, not derived again). Undefined when the
 * state holds no such node.
 *
 * @public
 */
export function environmentObject(
  state: EnvironmentResourcesResponse,
  id: string,
): EnvironmentObjectResponse | undefined {
  const node = state.graph.nodes.find(n => n.id === id);
  if (!node) return undefined;
  const object = objectsByNodeId(state.resources).get(id);
  // The GitOps view reads the whole environment: only where GitOps is.
  const gitOpsHere =
    state.graph.edges.some(e => e.type === 'manages') ||
    state.graph.nodes.some(n => isFluxObject(n.group, n.kind)) ||
    (object !== undefined && fluxOwnerByLabels(object) !== undefined);
  const drift = state.drift?.[id];
  let gitops: ObjectGitOps = drift ? { drift } : {};
  if (gitOpsHere) {
    const namespace = state.scope.namespace;
    const view = buildGitOpsView(
      state.resources,
      state.graph,
      namespace ? [namespace] : [],
      state.drift ?? NO_DRIFT,
    );
    const flux = view.fluxObjects.find(f => f.nodeId === id);
    gitops = {
      ...(flux && { flux }),
      ...(drift && { drift }),
      ...(view.unmanagedIds.includes(id) && { unmanaged: true }),
      ...(view.resourceSetManagedIds.includes(id) && {
        fromResourceSet: true,
      }),
    };
  }
  return {
    id,
    ...(object && { object }),
    events: resourceEvents(node, state.resources),
    gitops,
    fetchedAt: state.fetchedAt,
  };
}
