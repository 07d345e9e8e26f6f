import { buildGitOpsView, driftedCount, NO_DRIFT } from '../gitops';
import { objectsByNodeId } from '../graph/objectsByNodeId';
import { fluxOwnerByLabels, isFluxObject } from '../k8s/flux';
import { isRecord } from '../k8s/objects';
import {
  groupOfApiVersion,
  resourceId,
  resourceKeyOf,
} from '../k8s/resourceId';
import {
  EnvironmentDrift,
  EnvironmentResourcesResponse,
  KubernetesObject,
  ResourceEdge,
  ResourceGraphPatch,
  ResourceNode,
} from '../types';
import {
  GitOpsMarks,
  gitOpsMarks,
  markedIds,
  NO_GITOPS_MARKS,
  ObjectFacts,
  objectFacts,
  sameMarksOf,
  treeNodeOf,
  withDriftedCount,
} from './treeNodes';
import {
  TREE_FORMAT_VERSION,
  TreeEdge,
  TreePatch,
  TreeSnapshot,
  TreeWireChange,
  TreeWireNode,
} from './types';
import { toWireEdge, toWireNode, TreeTables, wireChange } from './wire';

const edgeKey = (edge: ResourceEdge) =>
  `${edge.source}\n${edge.type}\n${edge.target}`;

/** The Flux applier an object's labels name, as a comparable string. */
const fluxLabelOwner = (object: KubernetesObject | undefined) =>
  object ? JSON.stringify(fluxOwnerByLabels(object) ?? null) : 'null';

/** An Event a Flux object's history or drift may read. */
function isFluxEvent(object: KubernetesObject | undefined): boolean {
  if (object?.kind !== 'Event') return false;
  const involved = (object as { involvedObject?: unknown }).involvedObject;
  if (!isRecord(involved) || typeof involved.kind !== 'string') return false;
  return (
    typeof involved.apiVersion !== 'string' ||
    isFluxObject(groupOfApiVersion(involved.apiVersion), involved.kind)
  );
}

/**
 * The compact tree of one live environment, shared by every viewer of it:
 * follows the engine's patches and answers, for each, the `TreePatch` of
 * what the page draws that changed (none when a patch changed nothing
 * drawn: a resourceVersion, a status field no node shows), and the
 * `TreeSnapshot` of the whole state. Nodes keep their ref for as long as
 * they exist, so every patch names them by it. The drift is the state's
 * as its owner computed it (the read's `drift`, then given with each
 * patch): the
 * tree marks those nodes drifted and counts them with driftedCount, and
 * derives neither. The other GitOps marks (unmanaged, sync states) are
 * computed with the engine's GitOps view again only after a change that
 * can move them.
 *
 * @public
 */
export class LiveTree {
  private readonly tables = new TreeTables();
  private readonly refs = new Map<string, number>();
  private nextRef = 1;
  private nodes = new Map<string, ResourceNode>();
  private objects = new Map<string, KubernetesObject>();
  private readonly facts = new Map<string, ObjectFacts>();
  private edges = new Map<string, ResourceEdge>();
  /** What each node was last sent as. */
  private wire = new Map<string, TreeWireNode>();
  private marks: GitOpsMarks = NO_GITOPS_MARKS;
  private drift: EnvironmentDrift = NO_DRIFT;
  private namespace?: string;
  /** What can carry GitOps marks; without any, the view is not computed. */
  private fluxNodes = 0;
  private readonly managedTargets = new Map<string, number>();
  private readonly fluxLabelled = new Set<string>();

  /** `response`: the state, with its drift as its owner computed it (`response.drift`). */
  constructor(response: EnvironmentResourcesResponse) {
    this.reset(response);
  }

  /** Starts again from a whole state (the stream sends its viewers a snapshot), its drift the read's. */
  reset(response: EnvironmentResourcesResponse): void {
    this.drift = response.drift ?? NO_DRIFT;
    this.namespace = response.scope.namespace;
    this.nodes = new Map(response.graph.nodes.map(node => [node.id, node]));
    this.objects = objectsByNodeId(response.resources);
    this.facts.clear();
    this.edges = new Map(response.graph.edges.map(e => [edgeKey(e), e]));
    this.fluxNodes = 0;
    for (const node of this.nodes.values())
      if (isFluxObject(node.group, node.kind)) this.fluxNodes++;
    this.managedTargets.clear();
    for (const edge of this.edges.values()) this.countEdge(edge, 1);
    this.fluxLabelled.clear();
    for (const [id, object] of this.objects)
      if (fluxOwnerByLabels(object)) this.fluxLabelled.add(id);
    for (const id of [...this.refs.keys()])
      if (!this.nodes.has(id)) this.refs.delete(id);
    this.computeMarks(true);
    this.wire = new Map();
    for (const node of this.nodes.values())
      this.wire.set(node.id, this.encode(node));
  }

  /**
   * The whole tree, with the environment, health and errors of `response`
   * (the same state), the environment counting the drift the tree holds.
   */
  snapshot(response: EnvironmentResourcesResponse): TreeSnapshot {
    return {
      v: TREE_FORMAT_VERSION,
      entityRef: response.entityRef,
      environment: withDriftedCount(
        response.environment,
        driftedCount(this.drift),
      ),
      scope: response.scope,
      health: response.health,
      errors: response.errors,
      fetchedAt: response.fetchedAt,
      kinds: this.tables.kinds.slice(),
      namespaces: this.tables.namespaces.slice(),
      nodes: [...this.wire.values()],
      edges: this.wireEdges(this.edges.values()),
    };
  }

  /**
   * Applies an engine patch and the drift of the state it leads to (as its
   * owner computed it); answers what the page must change, if anything.
   */
  apply(
    patch: ResourceGraphPatch,
    drift: EnvironmentDrift,
  ): TreePatch | undefined {
    const kindsFrom = this.tables.kinds.length;
    const namespacesFrom = this.tables.namespaces.length;
    // A tree parent comes from an edge: a change of one changes edges.
    let gitOps =
      patch.nodesAdded.length > 0 ||
      patch.nodesRemoved.length > 0 ||
      patch.edgesAdded.length > 0 ||
      patch.edgesRemoved.length > 0;
    const touched = new Set<string>();

    // Edges first: their refs die with their nodes.
    const edgesRemoved: ResourceEdge[] = [];
    for (const edge of patch.edgesRemoved) {
      if (!this.edges.delete(edgeKey(edge))) continue;
      this.countEdge(edge, -1);
      edgesRemoved.push(edge);
    }
    const wireEdgesRemoved = this.wireEdges(edgesRemoved);
    const removed: number[] = [];
    for (const id of patch.nodesRemoved) {
      const node = this.nodes.get(id);
      if (!node) continue;
      if (isFluxObject(node.group, node.kind)) this.fluxNodes--;
      this.nodes.delete(id);
      this.wire.delete(id);
      const ref = this.refs.get(id);
      if (ref !== undefined) removed.push(ref);
      this.refs.delete(id);
    }
    for (const id of patch.objectsRemoved) {
      const previous = this.objects.get(id);
      gitOps ||=
        isFluxEvent(previous) ||
        this.fluxLabelled.has(id) ||
        this.managedTargets.has(id);
      this.objects.delete(id);
      this.fluxLabelled.delete(id);
      this.facts.delete(id);
      touched.add(id);
    }
    for (const object of patch.objectsUpserted) {
      const key = resourceKeyOf(object);
      if (!key) continue;
      const id = resourceId(key);
      const previous = this.objects.get(id);
      const labelOwner = fluxLabelOwner(object);
      gitOps ||=
        isFluxObject(key.group, key.kind) ||
        isFluxEvent(object) ||
        this.managedTargets.has(id) ||
        labelOwner !== fluxLabelOwner(previous);
      if (labelOwner === 'null') this.fluxLabelled.delete(id);
      else this.fluxLabelled.add(id);
      this.objects.set(id, object);
      this.facts.delete(id);
      touched.add(id);
    }
    for (const node of [...patch.nodesAdded, ...patch.nodesChanged]) {
      const previous = this.nodes.get(node.id);
      if (!previous && isFluxObject(node.group, node.kind)) this.fluxNodes++;
      this.nodes.set(node.id, node);
      touched.add(node.id);
    }
    for (const edge of patch.edgesAdded) {
      const key = edgeKey(edge);
      if (this.edges.has(key)) continue;
      this.edges.set(key, edge);
      this.countEdge(edge, 1);
    }
    const driftBefore = this.drift;
    this.drift = drift;
    if (gitOps || drift !== driftBefore) {
      const before = this.marks;
      this.computeMarks(gitOps);
      for (const id of markedIds(before, this.marks))
        if (!sameMarksOf(before, this.marks, id)) touched.add(id);
    }

    const added: TreeWireNode[] = [];
    const changed: TreeWireChange[] = [];
    for (const id of touched) {
      const node = this.nodes.get(id);
      if (!node) continue;
      const next = this.encode(node);
      const previous = this.wire.get(id);
      this.wire.set(id, next);
      if (!previous) added.push(next);
      else {
        const change = wireChange(previous, next);
        if (change) changed.push(change);
      }
    }
    const edgesAdded = this.wireEdges(patch.edgesAdded);
    const out: TreePatch = { v: TREE_FORMAT_VERSION };
    if (this.tables.kinds.length > kindsFrom) {
      out.kindsFrom = kindsFrom;
      out.kinds = this.tables.kinds.slice(kindsFrom);
    }
    if (this.tables.namespaces.length > namespacesFrom) {
      out.namespacesFrom = namespacesFrom;
      out.namespaces = this.tables.namespaces.slice(namespacesFrom);
    }
    if (added.length > 0) out.added = added;
    if (changed.length > 0) out.changed = changed;
    if (removed.length > 0) out.removed = removed;
    if (edgesAdded.length > 0) out.edgesAdded = edgesAdded;
    if (wireEdgesRemoved.length > 0) out.edgesRemoved = wireEdgesRemoved;
    if (patch.health) out.health = patch.health;
    const drifted = driftedCount(drift);
    if (drifted !== driftedCount(driftBefore)) out.driftedCount = drifted;
    return Object.keys(out).length > 1 ? out : undefined;
  }

  private countEdge(edge: ResourceEdge, delta: number) {
    if (edge.type !== 'manages') return;
    const count = (this.managedTargets.get(edge.target) ?? 0) + delta;
    if (count > 0) this.managedTargets.set(edge.target, count);
    else this.managedTargets.delete(edge.target);
  }

  /** The marks of the held state: the drift's, and the view's too when `viewChanged`. */
  private computeMarks(viewChanged: boolean) {
    const drifted =
      this.drift === NO_DRIFT
        ? NO_GITOPS_MARKS.drifted
        : new Set(Object.keys(this.drift));
    if (!viewChanged) {
      this.marks = { ...this.marks, drifted };
      return;
    }
    if (
      this.fluxNodes <= 0 &&
      this.managedTargets.size === 0 &&
      this.fluxLabelled.size === 0
    ) {
      this.marks = { ...NO_GITOPS_MARKS, drifted };
      return;
    }
    const view = buildGitOpsView(
      [...this.objects.values()],
      {
        nodes: [...this.nodes.values()],
        edges: [...this.edges.values()],
        roots: [],
      },
      this.namespace ? [this.namespace] : [],
      this.drift,
    );
    this.marks = { ...gitOpsMarks(view), drifted };
  }

  private refOf = (id: string): number => {
    let ref = this.refs.get(id);
    if (ref === undefined) {
      ref = this.nextRef++;
      this.refs.set(id, ref);
    }
    return ref;
  };

  /** A held node's ref (given now if it has none); undefined for an id the tree lacks. */
  private heldRef = (id: string): number | undefined =>
    this.nodes.has(id) ? this.refOf(id) : undefined;

  private encode(node: ResourceNode): TreeWireNode {
    let facts = this.facts.get(node.id);
    if (!facts) {
      facts = objectFacts(this.objects.get(node.id));
      this.facts.set(node.id, facts);
    }
    return toWireNode(
      treeNodeOf(node, facts, this.marks),
      this.refOf(node.id),
      this.tables,
      this.heldRef,
    );
  }

  private wireEdges(edges: Iterable<ResourceEdge>): TreeEdge[] {
    const out: TreeEdge[] = [];
    for (const edge of edges) {
      const wire = toWireEdge(edge, this.heldRef);
      if (wire) out.push(wire);
    }
    return out;
  }
}
