import { compareIds, forestOrder } from '../graph/forestOrder';
import { ResourceEdge } from '../types';
import { withDriftedCount } from './treeNodes';
import {
  EnvironmentTree,
  TREE_FORMAT_VERSION,
  TreeNode,
  TreePatch,
  TreeSnapshot,
  TreeWireNode,
} from './types';
import {
  fromWireEdge,
  fromWireNode,
  MalformedTreeError,
  toWireNode,
  TreeTables,
} from './wire';

const edgeKey = (edge: ResourceEdge) =>
  `${edge.source}\n${edge.type}\n${edge.target}`;

function list<T>(value: T[] | undefined, what: string): T[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new MalformedTreeError(`${what} is no list`);
  return value;
}

/**
 * The page's side of a compact tree stream: reads a `TreeSnapshot` into
 * the `EnvironmentTree` it describes, then applies each `TreePatch` of the
 * same stream, answering a new tree each time (what did not change keeps
 * its identity, so a view can tell). The graph keeps the engine's order:
 * parents first, children and roots by id. Anything malformed (an unknown
 * ref, a table out of step) throws MalformedTreeError and leaves what was
 * held as it was; the stream then owes a snapshot.
 *
 * @public
 */
export class TreeReader {
  private tables = new TreeTables();
  private ids = new Map<number, string>();
  private refs = new Map<string, number>();
  private byId = new Map<string, TreeNode>();
  private children = new Map<string, Set<string>>();
  private edges = new Map<string, ResourceEdge>();
  /** Index of each node in the current tree's list. */
  private order = new Map<string, number>();
  private current?: EnvironmentTree;

  read(snapshot: TreeSnapshot): EnvironmentTree {
    if (snapshot?.v !== TREE_FORMAT_VERSION)
      throw new MalformedTreeError(
        `version ${snapshot?.v} is not ${TREE_FORMAT_VERSION}`,
      );
    const tables = new TreeTables();
    tables.append(
      list(snapshot.kinds, 'kinds'),
      list(snapshot.namespaces, 'namespaces'),
    );
    const wires = list(snapshot.nodes, 'nodes');
    const ids = new Map<number, string>();
    // Parents may come after their children: every ref first.
    for (const wire of wires)
      ids.set(
        wire.i,
        fromWireNode({ ...wire, p: undefined }, tables, () => undefined).id,
      );
    const idOf = (ref: number) => ids.get(ref);
    const byId = new Map<string, TreeNode>();
    for (const wire of wires) {
      const node = fromWireNode(wire, tables, idOf);
      byId.set(node.id, node);
    }
    this.tables = tables;
    this.ids = ids;
    this.refs = new Map([...ids].map(([ref, id]) => [id, ref]));
    this.byId = byId;
    this.children = new Map();
    for (const node of byId.values())
      if (node.parentId !== undefined)
        this.childrenOf(node.parentId).add(node.id);
    for (const [parent, children] of this.children) {
      const node = byId.get(parent);
      if (node) node.childIds = [...children].sort(compareIds);
    }
    this.edges = new Map(
      list(snapshot.edges, 'edges').map(edge => {
        const decoded = fromWireEdge(edge, idOf);
        return [edgeKey(decoded), decoded];
      }),
    );
    const {
      v: _,
      kinds: _k,
      namespaces: _n,
      nodes: _nodes,
      edges: _e,
      ...rest
    } = snapshot;
    this.current = {
      ...rest,
      graph: { ...this.ordered(), edges: [...this.edges.values()] },
    };
    return this.current;
  }

  apply(patch: TreePatch): EnvironmentTree {
    const held = this.current;
    if (!held) throw new MalformedTreeError('a patch came before any snapshot');
    if (patch?.v !== TREE_FORMAT_VERSION)
      throw new MalformedTreeError(
        `version ${patch?.v} is not ${TREE_FORMAT_VERSION}`,
      );
    if (
      (patch.kinds && patch.kindsFrom !== this.tables.kinds.length) ||
      (patch.namespaces &&
        patch.namespacesFrom !== this.tables.namespaces.length)
    )
      throw new MalformedTreeError('its tables are out of step');
    // Checked whole before anything is changed: a bad patch leaves the tree held.
    const removed = list(patch.removed, 'removed');
    const added = list(patch.added, 'added');
    const changed = list(patch.changed, 'changed');
    const tables = this.tables;
    tables.append(patch.kinds ?? [], patch.namespaces ?? []);
    const ids = new Map(this.ids);
    for (const ref of removed)
      if (!ids.delete(ref))
        throw new MalformedTreeError(`node ${ref} is unknown`);
    for (const wire of added)
      ids.set(
        wire.i,
        fromWireNode({ ...wire, p: undefined }, tables, () => undefined).id,
      );
    const idOf = (ref: number) => ids.get(ref);
    const edgesRemoved = list(patch.edgesRemoved, 'edgesRemoved').map(e =>
      fromWireEdge(e, ref => this.ids.get(ref)),
    );
    const edgesAdded = list(patch.edgesAdded, 'edgesAdded').map(e =>
      fromWireEdge(e, idOf),
    );
    const decodedAdded = added.map(wire => ({
      ref: wire.i,
      node: fromWireNode(wire, tables, idOf),
    }));
    const decodedChanged = changed.map(change => {
      const id = this.ids.get(change?.i);
      const old = id === undefined ? undefined : this.byId.get(id);
      if (!old) throw new MalformedTreeError(`node ${change?.i} is unknown`);
      const wire: Record<string, unknown> = {
        ...toWireNode(old, change.i, tables, known => this.refs.get(known)),
        ...change,
      };
      for (const key of Object.keys(wire))
        if (wire[key] === null) delete wire[key];
      const node = fromWireNode(wire as unknown as TreeWireNode, tables, idOf);
      return { old, node };
    });

    // Whole: apply.
    let structural = removed.length > 0 || added.length > 0;
    const reparented = new Set<string>();
    const unlink = (node: TreeNode) => {
      if (node.parentId === undefined) return;
      this.children.get(node.parentId)?.delete(node.id);
      reparented.add(node.parentId);
    };
    const link = (node: TreeNode) => {
      if (node.parentId === undefined) return;
      this.childrenOf(node.parentId).add(node.id);
      reparented.add(node.parentId);
    };
    for (const ref of removed) {
      const id = this.ids.get(ref)!;
      const node = this.byId.get(id);
      if (node) unlink(node);
      this.byId.delete(id);
      this.refs.delete(id);
    }
    this.ids = ids;
    for (const { ref, node } of decodedAdded) {
      node.childIds = [...(this.children.get(node.id) ?? [])].sort(compareIds);
      this.byId.set(node.id, node);
      this.refs.set(node.id, ref);
      link(node);
    }
    for (const { old, node } of decodedChanged) {
      node.childIds = old.childIds;
      if (old.parentId !== node.parentId) {
        structural = true;
        unlink(old);
        link(node);
      }
      this.byId.set(node.id, node);
    }
    for (const parent of reparented) {
      const node = this.byId.get(parent);
      if (!node) continue;
      const childIds = [...(this.children.get(parent) ?? [])].sort(compareIds);
      this.byId.set(parent, { ...node, childIds });
    }
    for (const edge of edgesRemoved) this.edges.delete(edgeKey(edge));
    for (const edge of edgesAdded) this.edges.set(edgeKey(edge), edge);

    let graph = held.graph;
    if (structural) graph = { ...this.ordered(), edges: graph.edges };
    else if (decodedChanged.length > 0 || reparented.size > 0) {
      const nodes = graph.nodes.slice();
      for (const id of [...decodedChanged.map(c => c.node.id), ...reparented])
        nodes[this.order.get(id)!] = this.byId.get(id)!;
      graph = { ...graph, nodes };
    }
    if (edgesRemoved.length > 0 || edgesAdded.length > 0)
      graph = { ...graph, edges: [...this.edges.values()] };
    this.current = {
      ...held,
      graph,
      ...(patch.health && { health: patch.health }),
      ...(patch.driftedCount !== undefined && {
        environment: withDriftedCount(held.environment, patch.driftedCount),
      }),
    };
    return this.current;
  }

  private childrenOf(parent: string): Set<string> {
    let children = this.children.get(parent);
    if (!children) {
      children = new Set();
      this.children.set(parent, children);
    }
    return children;
  }

  /** The nodes in the engine's order, and the roots. */
  private ordered(): { nodes: TreeNode[]; roots: string[] } {
    const roots: string[] = [];
    for (const node of this.byId.values())
      if (node.parentId === undefined || !this.byId.has(node.parentId))
        roots.push(node.id);
    roots.sort(compareIds);
    const nodes = forestOrder(this.byId, roots);
    this.order = new Map(nodes.map((node, index) => [node.id, index]));
    return { nodes, roots };
  }
}
