import {
  KubernetesObject,
  ResourceEdgeType,
  ResourceKey,
  ResourceNode,
} from '../../types';
import { NameList } from '../references';

/** How strongly an in-edge claims to be a node's tree parent; lower wins. */
export const PARENT_RANK = { controller: 0, owns: 1, manages: 2 } as const;

/**
 * What a relation reads while inferring the edges of one object (the
 * origin), and where it adds them. Nodes are addressed by number. The
 * whole-graph build and the incremental graph each implement it; the
 * incremental one also records what was looked up, so it knows whose edges
 * to infer again when an object changes.
 */
export interface RelationContext {
  /** The origin: its node number, node and object. */
  readonly index: number;
  readonly node: ResourceNode;
  readonly object: KubernetesObject;
  /** A list the relation at hand may fill and read; reused for every origin. */
  readonly names: NameList;
  /**
   * Infers edges item by item through the context each call is given. The
   * live graph infers an item again on its own when only what it read
   * changed, and keeps the inference of an item that did not change when
   * its object did, so a long list (an inventory) costs one item per
   * change. `infer` may read only the item and the context it is given.
   */
  forEach<T>(
    items: readonly T[],
    infer: (item: T, context: RelationContext) => void,
  ): void;
  /** The last node with this uid. */
  byUid(uid: string): number | undefined;
  /** The first node of a kind and name (any API group) in the origin's namespace. */
  byKindName(kind: string, name: unknown): number | undefined;
  /** The node of exactly this key, a Missing inventory entry included. */
  exact(key: ResourceKey): number | undefined;
  /** Pods of the origin's namespace matching every string pair of a selector. */
  selectPods(selector: Record<string, unknown>): readonly number[];
  /** Claims of the origin's namespace named `<stem>-<ordinal>`. */
  claimsByStem(stem: string): readonly number[];
  /** Nodes labelled `label=value`, for the labels in REFERENCE_LABELS. */
  byReferenceLabel(label: string, value: string): readonly number[];
  /** The labels of a node built from an object. */
  labelsOf(index: number): Readonly<Record<string, unknown>>;
  /** A node by number (its key never changes, so reading it is no dependency). */
  nodeAt(index: number): ResourceNode;
  /** The node of an inventory entry, a Missing one when the cluster lacks it. */
  inventoryNode(key: ResourceKey, version: string): number;
  /**
   * Adds an edge unless an end is absent or both are the same node; a ranked
   * edge also bids to be the target's tree parent.
   */
  add(
    source: number | undefined,
    target: number | undefined,
    type: ResourceEdgeType,
    rank?: number,
  ): void;
}

/**
 * One way a relation is inferred: for the objects of one kind (of one API
 * group, or any when `group` is absent), or for every object when `kind`
 * is absent.
 */
export interface RelationRule {
  kind?: string;
  group?: string;
  infer(context: RelationContext): void;
}

/** A relation of the graph, with the rules that infer its edges. */
export interface Relation {
  type: ResourceEdgeType;
  /** Applied in this order, after the rules of the relations before it. */
  rules: readonly RelationRule[];
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
