import { ComputeHealthOptions, computeHealth } from '../health';
import { isRecord } from '../health/conditions';
import { KubernetesObject, ResourceKey, ResourceNode } from '../types';
import { NO_PREFIX } from './idOrder';
import {
  groupOfApiVersion,
  hasResourceKey,
  namespaceOf,
  resourceId,
  versionOfApiVersion,
} from './resourceId';

/** Marks "no tree parent" in `parents`. */
export const NO_PARENT = -1;
/** Worse than every rank an edge can claim a tree parent with. */
export const NO_PARENT_RANK = 3;

/** The nodes of one kind in one namespace. */
export interface KindNodes {
  /** The first node per name, whatever its API group. */
  byName: Map<string, number>;
  /** Per API group, the number of the id prefix these nodes share (see NodeTable.prefixes). */
  idPrefixes: Map<string, number>;
}

/**
 * The nodes of a graph under construction, addressed by index: the graph
 * builder keeps integers in its arrays and sets rather than id strings.
 *
 * Nodes are found by namespace, kind and name in nested maps keyed by
 * strings the objects already hold, not by id: an id is a new string,
 * which a map would have to flatten and hash. An id is a key only where
 * two objects can share a namespace, kind and name (another API group) and
 * where a `/` in a kind, namespace or name lets different keys spell the
 * same id.
 */
export interface NodeTable {
  /** Nodes in input order, Missing inventory entries appended as found. */
  nodes: ResourceNode[];
  /** The object of `nodes[i]`, for the nodes built from objects (a prefix of `nodes`). */
  sources: KubernetesObject[];
  /** `nodes[i].id`, kept apart so edges and sorting read a flat array, not node objects. */
  ids: string[];
  /** Per namespace, then kind. Without nodes whose kind, namespace or name holds a `/`. */
  kinds: Map<string, Map<string, KindNodes>>;
  /** Per node: whether another node of another group shares its namespace, kind and name. */
  sharesName: boolean[];
  /** By id: nodes from objects that are not the first of their namespace, kind and name, or that hold a `/`. */
  byIdAside: Map<string, number>;
  /** By id: the Missing nodes of inventory entries. */
  missing: Map<string, number>;
  /** Every id prefix, `group/Kind/namespace/`, by number. */
  prefixes: string[];
  /**
   * Per node, the number of its id prefix, its id being the prefix and its
   * name; NO_PREFIX for ids built whole (a `/` in a part, Missing nodes).
   */
  prefixOf: number[];
  /** Tree parent per node index, NO_PARENT for none. */
  parents: number[];
  /** How strongly `parents[i]` claims the node, lower wins; NO_PARENT_RANK for none. */
  parentRanks: number[];
}

const NO_API_VERSION = { group: '', version: '' };

/**
 * Group and version per apiVersion string, each parsed once per graph so
 * nodes share the strings rather than each slicing its own.
 */
class ApiVersions {
  private readonly parsed = new Map<
    string,
    { group: string; version: string }
  >();

  parse(apiVersion: unknown): { group: string; version: string } {
    if (typeof apiVersion !== 'string') return NO_API_VERSION;
    let parts = this.parsed.get(apiVersion);
    if (!parts) {
      parts = {
        group: groupOfApiVersion(apiVersion),
        version: versionOfApiVersion(apiVersion),
      };
      this.parsed.set(apiVersion, parts);
    }
    return parts;
  }
}

/**
 * One node per valid object, with its health. Malformed objects are
 * skipped; of duplicates the newest resourceVersion wins (else the later
 * copy), keeping the place of the first.
 */
export function collectNodes(
  objects: readonly KubernetesObject[],
  healthOptions?: ComputeHealthOptions,
  readOnly?: (key: ResourceKey, object: KubernetesObject) => string | undefined,
): NodeTable {
  const table: NodeTable = {
    nodes: [],
    sources: [],
    ids: [],
    kinds: new Map(),
    sharesName: [],
    byIdAside: new Map(),
    missing: new Map(),
    prefixes: [],
    prefixOf: [],
    parents: [],
    parentRanks: [],
  };
  const apiVersions = new ApiVersions();
  for (let objectIndex = 0; objectIndex < objects.length; objectIndex++) {
    const object = objects[objectIndex];
    if (!isRecord(object) || !hasResourceKey(object)) continue;
    const { kind } = object;
    const { name } = object.metadata;
    const namespace = namespaceOf(object);
    const { group, version } = apiVersions.parse(object.apiVersion);
    const kindNodes = hasSlash(group, kind, namespace, name)
      ? undefined
      : kindNodesOf(table, namespace, kind);
    const prefix = kindNodes
      ? idPrefix(table, kindNodes, group, kind, namespace)
      : NO_PREFIX;
    const id = kindNodes
      ? table.prefixes[prefix] + name
      : resourceId({ group, kind, namespace, name });
    const first = kindNodes?.byName.get(name);
    const earlier = kindNodes
      ? withGroup(table, first, { group, kind, namespace, name })
      : table.byIdAside.get(id);
    if (earlier !== undefined && isNewer(table.sources[earlier], object))
      continue;
    // Fields spelled out, not spread: V8 gives spread results a slow
    // dictionary shape, which made graph building five times slower.
    const node: ResourceNode = {
      group,
      kind,
      namespace,
      name,
      id,
      version,
      uid:
        typeof object.metadata.uid === 'string'
          ? object.metadata.uid
          : undefined,
      resourceVersion:
        typeof object.metadata.resourceVersion === 'string'
          ? object.metadata.resourceVersion
          : undefined,
      health: computeHealth(object, healthOptions),
      // Every field present from the start keeps all nodes one shape.
      subtreeHealth: undefined,
      parentId: undefined,
      childIds: [],
      readOnly: readOnly?.({ group, kind, namespace, name }, object),
    };
    if (earlier !== undefined) {
      table.nodes[earlier] = node;
      table.sources[earlier] = object;
      table.ids[earlier] = id;
      continue;
    }
    const index = append(table, node, prefix);
    table.sources.push(object);
    if (kindNodes && first === undefined) {
      kindNodes.byName.set(name, index);
    } else {
      if (first !== undefined) table.sharesName[first] = true;
      table.byIdAside.set(id, index);
    }
  }
  return table;
}

/**
 * A `/` in any part lets different keys spell the same id, so such keys
 * are matched by id as a whole.
 */
function hasSlash(
  group: string,
  kind: string,
  namespace: string,
  name: string,
): boolean {
  return (
    name.includes('/') ||
    namespace.includes('/') ||
    kind.includes('/') ||
    group.includes('/')
  );
}

function kindNodesOf(
  table: NodeTable,
  namespace: string,
  kind: string,
): KindNodes {
  let kinds = table.kinds.get(namespace);
  if (!kinds) table.kinds.set(namespace, (kinds = new Map()));
  let kindNodes = kinds.get(kind);
  if (!kindNodes) {
    kindNodes = { byName: new Map(), idPrefixes: new Map() };
    kinds.set(kind, kindNodes);
  }
  return kindNodes;
}

/**
 * The node of a key among those sharing its namespace, kind and name,
 * given the first of them: that one, or another group's found by id.
 */
function withGroup(
  table: NodeTable,
  first: number | undefined,
  key: ResourceKey,
): number | undefined {
  if (first === undefined) return undefined;
  if (table.nodes[first].group === key.group) return first;
  return table.sharesName[first]
    ? table.byIdAside.get(resourceId(key))
    : undefined;
}

/**
 * The number of the id prefix `group/Kind/namespace/`, built once per
 * group, kind and namespace: the ids of their nodes are that string and
 * the name, with no copy of the prefix.
 */
function idPrefix(
  table: NodeTable,
  kindNodes: KindNodes,
  group: string,
  kind: string,
  namespace: string,
): number {
  let prefix = kindNodes.idPrefixes.get(group);
  if (prefix === undefined) {
    prefix = table.prefixes.length;
    table.prefixes.push(resourceId({ group, kind, namespace, name: '' }));
    kindNodes.idPrefixes.set(group, prefix);
  }
  return prefix;
}

function append(table: NodeTable, node: ResourceNode, prefix: number): number {
  const index = table.nodes.length;
  table.nodes.push(node);
  table.ids.push(node.id);
  table.prefixOf.push(prefix);
  table.sharesName.push(false);
  table.parents.push(NO_PARENT);
  table.parentRanks.push(NO_PARENT_RANK);
  return index;
}

/**
 * The node of a key: from an object, else a Missing inventory entry found
 * so far; undefined when there is none.
 */
export function findNode(
  table: NodeTable,
  key: ResourceKey,
): number | undefined {
  const { group, kind, namespace, name } = key;
  let found: number | undefined;
  if (hasSlash(group, kind, namespace, name)) {
    found = table.byIdAside.get(resourceId(key));
  } else {
    const kindNodes = table.kinds.get(namespace)?.get(kind);
    const first = kindNodes?.byName.get(name);
    found = withGroup(table, first, key);
  }
  if (found !== undefined || table.missing.size === 0) return found;
  return table.missing.get(resourceId(key));
}

const DIGITS = /^\d+$/;
const LEADING_ZEROS = /^0+(?=\d)/;

function numericVersion(object: KubernetesObject): string | undefined {
  const version = object.metadata?.resourceVersion;
  return typeof version === 'string' && DIGITS.test(version)
    ? version.replace(LEADING_ZEROS, '')
    : undefined;
}

/**
 * Whether `earlier` should win over a later duplicate of the same object:
 * only when both carry numeric resourceVersions and the earlier one is
 * newer; otherwise the later copy wins.
 */
export function isNewer(
  earlier: KubernetesObject,
  later: KubernetesObject,
): boolean {
  const a = numericVersion(earlier);
  const b = numericVersion(later);
  // Decimal strings of any size compare by length, then digit by digit.
  if (a === undefined || b === undefined) return false;
  return a.length === b.length ? a > b : a.length > b.length;
}

/**
 * The node index of an inventory entry, appending a Missing node when the
 * cluster lacks it.
 */
export function inventoryNode(
  table: NodeTable,
  key: ResourceKey,
  version: string,
  inventory: ResourceNode,
): number {
  const existing = findNode(table, key);
  if (existing !== undefined) return existing;
  const id = resourceId(key);
  const index = append(
    table,
    missingNode(key, id, version, inventory),
    NO_PREFIX,
  );
  table.missing.set(id, index);
  return index;
}

/** The node of an inventory entry the cluster lacks, naming the inventory that lists it. */
export function missingNode(
  key: ResourceKey,
  id: string,
  version: string,
  inventory: ResourceNode,
): ResourceNode {
  return {
    group: key.group,
    kind: key.kind,
    namespace: key.namespace,
    name: key.name,
    id,
    version,
    missing: true,
    subtreeHealth: undefined,
    parentId: undefined,
    health: {
      status: 'Missing',
      message: `Listed in the inventory of ${inventory.kind} ${inventory.namespace}/${inventory.name} but not found in the cluster`,
    },
    childIds: [],
  };
}
