// The compact tree the page draws an environment from ("tree first, details
// on demand"): what the graph shows of each object, computed by the engine,
// and its wire form. The whole object is fetched when a drawer opens
// (EnvironmentObjectResponse).
import type { ResourceEventSummary } from '../events';
import type { FluxObjectView, FluxSyncStatus } from '../gitops';
import type { DriftReport } from '../types';
import {
  EnvironmentResourcesResponse,
  HealthSummary,
  KubernetesObject,
  LiveEnvironmentKey,
  LiveMessage,
  ResourceEdge,
  ResourceNode,
} from '../types';

/** The version of the compact tree's wire form (`v` of every snapshot and patch). @public */
export const TREE_FORMAT_VERSION = 1;

/** A Flux object's sync state as the GitOps panel shows it. @public */
export interface TreeFluxState {
  sync: FluxSyncStatus;
  message?: string;
  /** Its source holds a revision it has not applied. */
  sourceDiffers?: boolean;
  /** What it last applied: the repository comparison is asked again when it moves. */
  appliedRevision?: string;
}

/**
 * A node as the page draws it: the engine's node (its `resourceVersion`
 * left out: a change the page does not draw is not sent) with what the
 * engine computed from the object for the graph, the list and the menus.
 *
 * @public
 */
export interface TreeNode extends ResourceNode {
  /** kubectl's words for the object's state (`statusWords`). */
  status: string[];
  /** `metadata.creationTimestamp`, as an ISO time. */
  createdAt?: string;
  /** `spec.suspend` is true (a Flux object, a CronJob). */
  suspended?: boolean;
  /** The live object differs from what Flux applied. */
  drifted?: boolean;
  /** No inventory names it, where GitOps manages the rest of the namespace. */
  unmanaged?: boolean;
  /** A Flux Operator ResourceSet applied it. */
  fromResourceSet?: boolean;
  /** Set on Flux objects. */
  flux?: TreeFluxState;
}

/** @public */
export interface TreeGraph {
  nodes: TreeNode[];
  edges: ResourceEdge[];
  roots: string[];
}

/**
 * An environment as the page holds it: the answer of a read without the
 * objects, its graph's nodes as the page draws them
 * (`environment.driftedCount` is the engine's count of drifted objects).
 *
 * @public
 */
export interface EnvironmentTree
  extends Pick<
    EnvironmentResourcesResponse,
    'entityRef' | 'environment' | 'scope' | 'health' | 'errors' | 'fetchedAt'
  > {
  graph: TreeGraph;
}

/** An entry of a tree's kinds table: API group, version and kind. @public */
export type TreeKind = [group: string, version: string, kind: string];

/**
 * An edge on the wire: source and target refs and the type, as its index
 * in RESOURCE_EDGE_TYPES (or its name, for a type that list lacks).
 *
 * @public
 */
export type TreeEdge = [source: number, target: number, type: number | string];

/**
 * One node on the wire. Field names are short because a big environment
 * sends thousands; absent fields are left out.
 *
 * - `i` the node's ref: a number the stream gives it for as long as it
 *   exists (edges and parents name nodes by ref)
 * - `k` its index in the kinds table, `s` in the namespaces table, `n` its name
 * - `u` uid; `x` 1 for an object the cluster lacks (`missing`)
 * - `h` health (index in HEALTH_STATUSES), `hm` its message, `ho` its origin
 * - `t` the subtree's health (index), `p` the tree parent's ref
 * - `w` status words, `c` creation time (seconds since the epoch)
 * - `r` why the environment never acts on it (`readOnly`)
 * - `su` suspended, `d` drifted, `um` unmanaged, `rs` from a ResourceSet (1 each)
 * - `f` a Flux object's sync state: `s` status, `m` message, `sd` 1 when
 *   its source differs, `ar` the applied revision
 *
 * @public
 */
export interface TreeWireNode {
  i: number;
  k: number;
  s: number;
  n: string;
  u?: string;
  x?: 1;
  h?: number;
  hm?: string;
  ho?: string;
  t?: number;
  p?: number;
  w?: string[];
  c?: number;
  r?: string;
  su?: 1;
  d?: 1;
  um?: 1;
  rs?: 1;
  f?: { s: FluxSyncStatus; m?: string; sd?: 1; ar?: string };
}

/**
 * What changed in a node: its ref and the fields that changed, `null` for
 * a field it no longer has.
 *
 * @public
 */
export type TreeWireChange = { i: number } & {
  [F in Exclude<keyof TreeWireNode, 'i'>]?: TreeWireNode[F] | null;
};

/**
 * The compact tree of an environment, sent whole (`snapshot` of the live
 * stream with `form=tree`). Nodes name their kind and namespace by index
 * in the `kinds` and `namespaces` tables, one another by ref.
 *
 * @public
 */
export interface TreeSnapshot
  extends Pick<
    EnvironmentResourcesResponse,
    'entityRef' | 'environment' | 'scope' | 'health' | 'errors' | 'fetchedAt'
  > {
  v: typeof TREE_FORMAT_VERSION;
  kinds: TreeKind[];
  namespaces: string[];
  nodes: TreeWireNode[];
  edges: TreeEdge[];
}

/**
 * What changed in a compact tree since the previous snapshot or patch of
 * the same stream: entries appended to the tables, nodes added (whole),
 * changed (the fields that changed) and removed (refs), edges added and
 * removed, the health summary and drift count when they changed. A change
 * the page does not draw (a resourceVersion, a status field no node
 * shows) sends nothing.
 *
 * @public
 */
export interface TreePatch {
  v: typeof TREE_FORMAT_VERSION;
  /** Entries appended to the kinds table, the first at index `kindsFrom`. */
  kinds?: TreeKind[];
  kindsFrom?: number;
  namespaces?: string[];
  namespacesFrom?: number;
  added?: TreeWireNode[];
  changed?: TreeWireChange[];
  removed?: number[];
  edgesAdded?: TreeEdge[];
  edgesRemoved?: TreeEdge[];
  health?: HealthSummary;
  driftedCount?: number;
}

/** What GitOps says of one object, for its drawer. @public */
export interface ObjectGitOps {
  flux?: FluxObjectView;
  drift?: DriftReport;
  unmanaged?: boolean;
  fromResourceSet?: boolean;
}

/**
 * `GET /entity/:namespace/:kind/:name/environments/:slug/object?id=<node id>`:
 * one object of the environment as the live store holds it (Secrets
 * redacted), its Events and what GitOps says of it, for the drawer.
 *
 * @public
 */
export interface EnvironmentObjectResponse {
  id: string;
  /** The object; absent for an inventory entry the cluster lacks. */
  object?: KubernetesObject;
  events: ResourceEventSummary[];
  gitops: ObjectGitOps;
  /** ISO time of the newest upstream data the answer reflects. */
  fetchedAt: string;
}

/**
 * The messages of the live stream asked with `form=tree` (what the page
 * asks): `snapshot` carries the compact tree, `patch` what the page draws
 * that changed (a change it does not draw sends no patch); `status`,
 * `error` and `heartbeat` as in LiveMessage.
 *
 * @public
 */
export type LiveTreeMessage =
  | { type: 'snapshot'; key: LiveEnvironmentKey; tree: TreeSnapshot }
  | {
      type: 'patch';
      key: LiveEnvironmentKey;
      patch: TreePatch;
      /** ISO time of the newest upstream event the patch contains. */
      dataAt: string;
    }
  | Exclude<LiveMessage, { type: 'snapshot' | 'patch' }>;
