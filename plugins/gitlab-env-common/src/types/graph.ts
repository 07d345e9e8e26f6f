import { HealthAssessment, HealthStatus } from './health';
import { ResourceKey } from './kubernetes';

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
  | 'manages';

/** @public */
export const RESOURCE_EDGE_TYPES: readonly ResourceEdgeType[] = [
  'owns',
  'selects',
  'routes',
  'scales',
  'mounts',
  'uses',
  'manages',
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
  /** Index of the object in the input array; absent for `missing` nodes. */
  objectIndex?: number;
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
}

/** @public */
export interface ResourceGraph {
  nodes: ResourceNode[];
  edges: ResourceEdge[];
  /** Ids of nodes with no tree parent, in a stable order. */
  roots: string[];
}
