/**
 * The parts of a Kubernetes object the engine reads. Objects arrive as
 * untrusted JSON from clusters, so every field is optional and rules must
 * check shapes before they trust them.
 *
 * @public
 */
export interface KubernetesObject {
  apiVersion?: string;
  kind?: string;
  metadata?: KubernetesObjectMeta;
  spec?: any;
  status?: any;
  [key: string]: unknown;
}

/** @public */
export interface KubernetesOwnerReference {
  apiVersion?: string;
  kind?: string;
  name?: string;
  uid?: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

/** @public */
export interface KubernetesObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: KubernetesOwnerReference[];
  [key: string]: unknown;
}

/**
 * What identifies an object across a cluster: API group (empty for the core
 * group), kind, namespace (empty for cluster-scoped objects) and name.
 *
 * @public
 */
export interface ResourceKey {
  group: string;
  kind: string;
  namespace: string;
  name: string;
}
