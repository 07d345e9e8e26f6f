import {
  EnvironmentDrift,
  KubernetesObject,
  ResourceGraph,
  ResourceKey,
} from '../types';
import { objectsByNodeId } from '../graph/objectsByNodeId';
import { resourceId } from '../k8s/resourceId';
import {
  FLUX_OPERATOR_GROUP,
  fluxOwnerByLabels,
  isFluxApplier,
  isFluxObject,
  fluxSourceKeyOf,
} from '../k8s/flux';
import {
  appliedRevisionOf,
  revisionsDiffer,
  sourceRevisionOf,
} from './fluxSource';
import { FluxHistoryEntry, fluxHistory } from './history';
import { InventoryGroup, inventoryGroups } from './inventoryGroups';
import { FluxSyncState, fluxSyncState } from './syncState';
import { unmanagedNodes } from './unmanaged';

/** The source a Flux object reads, and whether it holds a newer revision. @public */
export interface FluxSourceLink {
  key: ResourceKey;
  /** The source's node id; the source may not be among the objects read. */
  nodeId: string;
  /** False when the environment's objects do not include the source. */
  found: boolean;
  /** `status.artifact.revision` of the source. */
  revision?: string;
  /** What the applier last applied. */
  appliedRevision?: string;
  /** The source holds a revision the applier has not applied. */
  differs: boolean;
}

/** One Flux object of an environment, as the GitOps view shows it. @public */
export interface FluxObjectView {
  nodeId: string;
  sync: FluxSyncState;
  source?: FluxSourceLink;
  /** Node ids of the Flux objects it waits for (`spec.dependsOn`). */
  dependsOnIds: string[];
  history: FluxHistoryEntry[];
}

/** @public */
export interface GitOpsView {
  fluxObjects: FluxObjectView[];
  /** Drift of the objects Flux manages, by node id; only those that drifted. */
  drift: EnvironmentDrift;
  /** Node ids of objects of the namespaces that no inventory names. */
  unmanagedIds: string[];
  /** Node ids of objects a Flux Operator ResourceSet applied. */
  resourceSetManagedIds: string[];
  inventories: InventoryGroup[];
}

function sourceLink(
  object: KubernetesObject,
  byId: ReadonlyMap<string, KubernetesObject>,
): FluxSourceLink | undefined {
  const key = fluxSourceKeyOf(object);
  if (!key) return undefined;
  const nodeId = resourceId(key);
  const source = byId.get(nodeId);
  const revision = source && sourceRevisionOf(source);
  const appliedRevision = appliedRevisionOf(object);
  return {
    key,
    nodeId,
    found: source !== undefined,
    ...(revision && { revision }),
    ...(appliedRevision && { appliedRevision }),
    differs: revisionsDiffer(object, revision, appliedRevision),
  };
}

/**
 * The GitOps view of an environment computed from its objects (Events
 * included) and their graph: each Flux object's sync state, source and
 * revisions, dependencies and history; the objects of `namespaces` no
 * inventory names; and `drift`, the state's drift as its owner computed it
 * (environmentDrift, once per state), which the view shows and never
 * computes.
 *
 * @public
 */
export function buildGitOpsView(
  objects: readonly KubernetesObject[],
  graph: ResourceGraph,
  namespaces: readonly string[],
  drift: EnvironmentDrift,
): GitOpsView {
  const byId = objectsByNodeId(objects);
  const nodes = new Map(graph.nodes.map(node => [node.id, node]));
  const fluxObjects: FluxObjectView[] = [];
  const resourceSetManagedIds = new Set<string>();

  for (const node of graph.nodes) {
    const object = byId.get(node.id);
    if (!object || !isFluxObject(node.group, node.kind)) continue;
    fluxObjects.push({
      nodeId: node.id,
      sync: fluxSyncState(object),
      source: sourceLink(object, byId),
      dependsOnIds: graph.edges
        .filter(e => e.type === 'dependsOn' && e.source === node.id)
        .map(e => e.target),
      history: fluxHistory(object, node, objects),
    });
  }
  for (const edge of graph.edges) {
    if (edge.type !== 'manages') continue;
    const applier = nodes.get(edge.source);
    if (applier?.group === FLUX_OPERATOR_GROUP && nodes.has(edge.target))
      resourceSetManagedIds.add(edge.target);
  }
  // Objects whose labels name a Flux applier are Flux's even when that
  // applier lives where the environment's read does not reach.
  const labelledByFlux = new Set<string>();
  for (const [id, object] of byId) {
    const owner = fluxOwnerByLabels(object);
    if (!owner) continue;
    labelledByFlux.add(id);
    if (owner.kind === 'ResourceSet') resourceSetManagedIds.add(id);
  }
  const inventories = inventoryGroups(graph);
  // "Unmanaged" means something only where GitOps manages the rest: an
  // environment deployed by CI alone has no inventory to be outside of.
  const gitOpsManaged =
    inventories.length > 0 ||
    fluxObjects.some(f => {
      const node = nodes.get(f.nodeId);
      return node !== undefined && isFluxApplier(node.group, node.kind);
    });
  return {
    fluxObjects,
    drift,
    unmanagedIds: gitOpsManaged
      ? unmanagedNodes(graph, new Set(namespaces))
          .map(n => n.id)
          .filter(id => !labelledByFlux.has(id))
      : [],
    resourceSetManagedIds: [...resourceSetManagedIds].sort(),
    inventories,
  };
}
