import {
  KubernetesObject,
  ResourceEdgeType,
  ResourceKey,
  ResourceNode,
} from '../../types';

/**
 * How strongly an `owns` or `manages` edge claims to be its target's tree
 * parent; lower wins.
 *
 * @public
 */
export const PARENT_RANK = { controller: 0, owns: 1, manages: 2 } as const;

/**
 * What a relation source reads while inferring the edges of one object
 * (the origin), and where it adds them. Nodes are addressed by handles
 * (numbers) valid during this inference only. Every lookup is remembered
 * under the key it asked for, so that when an object holding that key
 * appears, changes its labels or goes, the origin's edges are inferred
 * again: a source must read other objects only through these lookups and
 * `labelsOf`, and the origin through `object`, and must not change what
 * it reads.
 *
 * @public
 */
export interface RelationContext {
  /** The origin's handle. */
  readonly origin: number;
  /** The origin's node (its key, id and own health). */
  readonly node: ResourceNode;
  /** The origin's object, as listed or watched. */
  readonly object: KubernetesObject;
  /**
   * Infers edges item by item through the context each call is given. The
   * engine infers an item again on its own when only what it read
   * changed, and keeps the inference of an item that did not change when
   * its object did, so a long list (an inventory) costs one item per
   * change. `infer` may read only the item and the context it is given.
   */
  forEach<T>(
    items: readonly T[],
    infer: (item: T, context: RelationContext) => void,
  ): void;
  /** The last node (in input order) with this uid. */
  byUid(uid: string): number | undefined;
  /** The first node of a kind and name (any API group) in the origin's namespace. */
  byKindName(kind: string, name: unknown): number | undefined;
  /** The node of exactly this key, a Missing inventory entry an earlier inventory lists included. */
  exact(key: ResourceKey): number | undefined;
  /** Pods of the origin's namespace matching every string pair of a selector. */
  selectPods(selector: Record<string, unknown>): readonly number[];
  /** PersistentVolumeClaims of the origin's namespace named `<stem>-<ordinal>`. */
  claimsByStem(stem: string): readonly number[];
  /** Nodes labelled `label=value`, in input order, for the labels in REFERENCE_LABELS. */
  byReferenceLabel(label: string, value: string): readonly number[];
  /** The labels of a node built from an object. */
  labelsOf(node: number): Readonly<Record<string, unknown>>;
  /** A node by handle (its key never changes, so reading it is no dependency). */
  nodeAt(node: number): ResourceNode;
  /** The node of an inventory entry, a Missing one when the cluster lacks it. */
  inventoryNode(key: ResourceKey, version: string): number;
  /**
   * Adds an edge unless an end is absent or both are the same node. An
   * `owns` or `manages` edge given a rank also bids to be the target's
   * tree parent (see PARENT_RANK; the lowest rank wins, then the earliest
   * origin in input order).
   */
  add(
    source: number | undefined,
    target: number | undefined,
    type: ResourceEdgeType,
    rank?: number,
  ): void;
}

/**
 * The kinds a relation source applies to: one kind of one API group (`''`
 * for the core group), or of any group when `group` is absent.
 *
 * @public
 */
export interface RelationSourceKind {
  /** The kind, e.g. `Deployment`. */
  kind: string;
  /** The API group, `''` for the core group; any group when absent. */
  group?: string;
}

/**
 * A source of graph edges, as built-in relations and adopters register
 * them: for each object of the kinds it names (every object when `kinds`
 * is absent), `infer` adds the edges the object implies, from or to it,
 * through the context. An adopter's source that throws ends its inference
 * of that object; the edges it added before stay.
 *
 * @public
 */
export interface RelationSource {
  /** Unique among all sources, e.g. `example.com/widget-secret`. */
  id: string;
  /** The kinds whose objects it infers edges for; every object when absent. */
  kinds?: readonly RelationSourceKind[];
  /** Adds the edges of the context's origin (see RelationContext). */
  infer(context: RelationContext): void;
}

/** A built-in relation of the graph: the sources of its edge type. */
export interface Relation {
  type: ResourceEdgeType;
  /** Applied in this order, after the sources of the relations before it. */
  sources: readonly RelationSource[];
  /**
   * The graph draws a node nothing owns right of the first node relating
   * to it this way (an Ingress left of its Service, an HPA of its
   * Deployment), so that the edge reads left to right.
   */
  placesUnowned?: boolean;
}

/**
 * Labels by which Flux and cli-utils name what manages an object, and the
 * recommended labels an app.k8s.io Application selects its components by.
 */
export const REFERENCE_LABELS: readonly string[] = [
  'helm.toolkit.fluxcd.io/name',
  'cli-utils.sigs.k8s.io/inventory-id',
  'app.kubernetes.io/name',
  'app.kubernetes.io/instance',
  'app.kubernetes.io/part-of',
];
