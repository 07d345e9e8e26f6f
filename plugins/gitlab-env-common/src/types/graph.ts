import { HealthAssessment, HealthStatus, HealthSummary } from './health';
import { KubernetesObject, ResourceKey } from './kubernetes';

/**
 * How two resources relate. Edges point from the parent or referrer to the
 * child or referee: Deployment -owns-\> ReplicaSet, Service -selects-\> Pod,
 * Ingress -routes-\> Service, HorizontalPodAutoscaler -scales-\> Deployment,
 * Pod -mounts-\> PersistentVolumeClaim, Pod -uses-\> ConfigMap,
 * Kustomization -manages-\> Deployment.
 *
 * @public
 */
export type ResourceEdgeType =
  | 'owns'
  | 'selects'
  | 'routes'
  | 'scales'
  | 'mounts'
  | 'uses'
  | 'manages'
  | 'sources'
  | 'dependsOn';

/** @public */
export const RESOURCE_EDGE_TYPES: readonly ResourceEdgeType[] = [
  'owns',
  'selects',
  'routes',
  'scales',
  'mounts',
  'uses',
  'manages',
  'sources',
  'dependsOn',
];

/** Edge types that make the ownership forest (a node's tree parent). @public */
export const OWNERSHIP_EDGE_TYPES: readonly ResourceEdgeType[] = [
  'owns',
  'manages',
];

/** @public */
export interface ResourceEdge {
  source: string;
  target: string;
  type: ResourceEdgeType;
}

/** @public */
export interface ResourceNode extends ResourceKey {
  /** Stable id, see `resourceId`. */
  id: string;
  version: string;
  uid?: string;
  /** `metadata.resourceVersion` of the object the node shows; absent for `missing` nodes. */
  resourceVersion?: string;
  /** True for an object a Flux inventory names but the cluster does not hold. */
  missing?: boolean;
  /** The object's own health; undefined for kinds that carry none. */
  health?: HealthAssessment;
  /** Worst health of this node and everything below it in the ownership forest. */
  subtreeHealth?: HealthStatus;
  /** The tree parent in the ownership forest (first `owns`/`manages` edge in). */
  parentId?: string;
  /** Tree children in the ownership forest, in a stable order. */
  childIds: string[];
  /**
   * Why the environment never acts on this object (another team's, the
   * agent's, a Flux dependsOn upstream...), for the page to say so; absent
   * when actions may apply (see EnvironmentActionScope).
   */
  readOnly?: string;
}

/** @public */
export interface ResourceGraph {
  nodes: ResourceNode[];
  edges: ResourceEdge[];
  /** Ids of nodes with no tree parent, in a stable order. */
  roots: string[];
}

/**
 * One change to an environment's objects, as a Kubernetes watch reports it.
 *
 * @public
 */
export interface WatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  object: KubernetesObject;
}

/**
 * What applying watch events changed in a graph: whole nodes added or
 * changed (their health, subtree health, tree parent or children), ids of
 * nodes removed, edges added and removed, the objects added or modified
 * and the ids of those deleted, and the environment's health summary when
 * it changed.
 *
 * @public
 */
export interface ResourceGraphPatch {
  nodesAdded: ResourceNode[];
  nodesChanged: ResourceNode[];
  nodesRemoved: string[];
  edgesAdded: ResourceEdge[];
  edgesRemoved: ResourceEdge[];
  objectsUpserted: KubernetesObject[];
  /** Node ids of the objects deleted. */
  objectsRemoved: string[];
  health?: HealthSummary;
}
