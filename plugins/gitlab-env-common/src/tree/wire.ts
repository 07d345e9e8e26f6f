import { resourceId } from '../k8s/resourceId';
import {
  HEALTH_STATUSES,
  HealthOrigin,
  RESOURCE_EDGE_TYPES,
  ResourceEdge,
  ResourceEdgeType,
} from '../types';
import {
  TreeEdge,
  TreeKind,
  TreeNode,
  TreeWireChange,
  TreeWireNode,
} from './types';

/**
 * A malformed tree on the wire: the page keeps what it holds and asks for a snapshot.
 *
 * @public
 */
export class MalformedTreeError extends Error {
  constructor(what: string) {
    super(`The live tree is malformed: ${what}.`);
    this.name = 'MalformedTreeError';
  }
}

/** A tree stream's kinds and namespaces tables: append only, so an index never moves. */
export class TreeTables {
  readonly kinds: TreeKind[] = [];
  readonly namespaces: string[] = [];
  private readonly kindIndex = new Map<string, number>();
  private readonly namespaceIndex = new Map<string, number>();

  kind(group: string, version: string, kind: string): number {
    const key = `${group}\n${version}\n${kind}`;
    let index = this.kindIndex.get(key);
    if (index === undefined) {
      index = this.kinds.push([group, version, kind]) - 1;
      this.kindIndex.set(key, index);
    }
    return index;
  }

  namespace(namespace: string): number {
    let index = this.namespaceIndex.get(namespace);
    if (index === undefined) {
      index = this.namespaces.push(namespace) - 1;
      this.namespaceIndex.set(namespace, index);
    }
    return index;
  }

  /** Appends entries as received, each at the next index (a reader's side). */
  append(kinds: readonly TreeKind[], namespaces: readonly string[]) {
    for (const entry of kinds) {
      if (
        !Array.isArray(entry) ||
        entry.length !== 3 ||
        entry.some(part => typeof part !== 'string')
      )
        throw new MalformedTreeError(
          'a kinds entry is not [group, version, kind]',
        );
      const index = this.kinds.push(entry) - 1;
      const key = entry.join('\n');
      if (!this.kindIndex.has(key)) this.kindIndex.set(key, index);
    }
    for (const namespace of namespaces) {
      if (typeof namespace !== 'string')
        throw new MalformedTreeError('a namespace is not a string');
      const index = this.namespaces.push(namespace) - 1;
      if (!this.namespaceIndex.has(namespace))
        this.namespaceIndex.set(namespace, index);
    }
  }
}

/**
 * A node on the wire. `refOf` gives a node's ref (undefined for an id the
 * tree does not hold: a dangling parent is left out).
 */
export function toWireNode(
  node: TreeNode,
  ref: number,
  tables: TreeTables,
  refOf: (id: string) => number | undefined,
): TreeWireNode {
  const wire: TreeWireNode = {
    i: ref,
    k: tables.kind(node.group, node.version, node.kind),
    s: tables.namespace(node.namespace),
    n: node.name,
  };
  if (node.uid) wire.u = node.uid;
  if (node.missing) wire.x = 1;
  if (node.health) {
    wire.h = HEALTH_STATUSES.indexOf(node.health.status);
    if (node.health.message) wire.hm = node.health.message;
    if (node.health.origin) wire.ho = node.health.origin;
  }
  if (node.subtreeHealth) wire.t = HEALTH_STATUSES.indexOf(node.subtreeHealth);
  const parent = node.parentId === undefined ? undefined : refOf(node.parentId);
  if (parent !== undefined) wire.p = parent;
  if (node.status.length > 0) wire.w = node.status;
  if (node.createdAt) wire.c = Math.floor(Date.parse(node.createdAt) / 1000);
  if (node.readOnly) wire.r = node.readOnly;
  if (node.suspended) wire.su = 1;
  if (node.drifted) wire.d = 1;
  if (node.unmanaged) wire.um = 1;
  if (node.fromResourceSet) wire.rs = 1;
  if (node.flux) {
    const { sync, message, sourceDiffers, appliedRevision } = node.flux;
    wire.f = {
      s: sync,
      ...(message && { m: message }),
      ...(sourceDiffers && { sd: 1 as const }),
      ...(appliedRevision && { ar: appliedRevision }),
    };
  }
  return wire;
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || !a || !b) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every(key =>
    sameJson(
      (a as Record<string, unknown>)[key],
      (b as Record<string, unknown>)[key],
    ),
  );
}

/** The fields of `next` that differ from `previous` (null: gone); undefined when none do. */
export function wireChange(
  previous: TreeWireNode,
  next: TreeWireNode,
): TreeWireChange | undefined {
  const change: Record<string, unknown> = { i: next.i };
  let changed = false;
  for (const key of Object.keys(next) as Array<keyof TreeWireNode>) {
    if (!sameJson(previous[key], next[key])) {
      change[key] = next[key];
      changed = true;
    }
  }
  for (const key of Object.keys(previous) as Array<keyof TreeWireNode>) {
    if (!(key in next)) {
      change[key] = null;
      changed = true;
    }
  }
  return changed ? (change as TreeWireChange) : undefined;
}

export function toWireEdge(
  edge: ResourceEdge,
  refOf: (id: string) => number | undefined,
): TreeEdge | undefined {
  const source = refOf(edge.source);
  const target = refOf(edge.target);
  if (source === undefined || target === undefined) return undefined;
  const type = RESOURCE_EDGE_TYPES.indexOf(edge.type);
  return [source, target, type === -1 ? edge.type : type];
}

function healthAt(index: unknown) {
  const status = typeof index === 'number' ? HEALTH_STATUSES[index] : undefined;
  if (!status) throw new MalformedTreeError(`no health status ${index}`);
  return status;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** A node from the wire, `childIds` left for the reader to fill. */
export function fromWireNode(
  wire: TreeWireNode,
  tables: TreeTables,
  idOf: (ref: number) => string | undefined,
): TreeNode {
  const entry = tables.kinds[wire.k];
  const namespace = tables.namespaces[wire.s];
  if (!entry || namespace === undefined || typeof wire.n !== 'string')
    throw new MalformedTreeError(`node ${wire.i} names no kind or namespace`);
  const [group, version, kind] = entry;
  const node: TreeNode = {
    group,
    kind,
    namespace,
    name: wire.n,
    id: resourceId({ group, kind, namespace, name: wire.n }),
    version,
    childIds: [],
    status: Array.isArray(wire.w) ? wire.w.map(text) : [],
  };
  if (wire.u) node.uid = text(wire.u);
  if (wire.x) node.missing = true;
  if (wire.h !== undefined)
    node.health = {
      status: healthAt(wire.h),
      ...(wire.hm && { message: text(wire.hm) }),
      ...(wire.ho && { origin: text(wire.ho) as HealthOrigin }),
    };
  if (wire.t !== undefined) node.subtreeHealth = healthAt(wire.t);
  if (wire.p !== undefined) {
    const parent = idOf(wire.p);
    if (parent === undefined)
      throw new MalformedTreeError(`node ${wire.i} has an unknown parent`);
    node.parentId = parent;
  }
  if (typeof wire.c === 'number')
    node.createdAt = new Date(wire.c * 1000).toISOString();
  if (wire.r) node.readOnly = text(wire.r);
  if (wire.su) node.suspended = true;
  if (wire.d) node.drifted = true;
  if (wire.um) node.unmanaged = true;
  if (wire.rs) node.fromResourceSet = true;
  if (wire.f)
    node.flux = {
      sync: wire.f.s,
      ...(wire.f.m && { message: text(wire.f.m) }),
      ...(wire.f.sd && { sourceDiffers: true }),
      ...(wire.f.ar && { appliedRevision: text(wire.f.ar) }),
    };
  return node;
}

export function fromWireEdge(
  edge: TreeEdge,
  idOf: (ref: number) => string | undefined,
): ResourceEdge {
  const source = Array.isArray(edge) ? idOf(edge[0]) : undefined;
  const target = Array.isArray(edge) ? idOf(edge[1]) : undefined;
  const type =
    typeof edge?.[2] === 'number' ? RESOURCE_EDGE_TYPES[edge[2]] : edge?.[2];
  if (source === undefined || target === undefined || typeof type !== 'string')
    throw new MalformedTreeError('an edge names an unknown node or type');
  return { source, target, type: type as ResourceEdgeType };
}
