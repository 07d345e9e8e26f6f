import { computeHealth } from '../health';
import { isRecord } from '../health/conditions';
import { KubernetesObject, ResourceKey, ResourceNode } from '../types';
import { resourceId, resourceKeyOf, versionOfApiVersion } from './resourceId';

/** Marks "no tree parent" in `parents`. */
export const NO_PARENT = -1;
/** Worse than every rank an edge can claim a tree parent with. */
export const NO_PARENT_RANK = 3;

/**
 * The nodes of a graph under construction, addressed by index: the graph
 * builder keeps integers in its arrays and sets rather than id strings.
 */
export interface NodeTable {
  /** Nodes in input order, Missing inventory entries appended as found. */
  nodes: ResourceNode[];
  /** The object of `nodes[i]`, for the nodes built from objects (a prefix of `nodes`). */
  sources: KubernetesObject[];
  /** Node index per id. */
  indexOf: Map<string, number>;
  /** Tree parent per node index, NO_PARENT for none. */
  parents: number[];
  /** How strongly `parents[i]` claims the node, lower wins; NO_PARENT_RANK for none. */
  parentRanks: number[];
}

/**
 * One node per valid object, with its health. Malformed objects are
 * skipped; of duplicates the newest resourceVersion wins (else the later
 * copy), keeping the place of the first.
 */
export function collectNodes(objects: readonly KubernetesObject[]): NodeTable {
  const table: NodeTable = {
    nodes: [],
    sources: [],
    indexOf: new Map(),
    parents: [],
    parentRanks: [],
  };
  for (let objectIndex = 0; objectIndex < objects.length; objectIndex++) {
    const object = objects[objectIndex];
    if (!isRecord(object)) continue;
    const key = resourceKeyOf(object);
    if (!key) continue;
    const id = resourceId(key);
    const earlier = table.indexOf.get(id);
    if (earlier !== undefined && isNewer(table.sources[earlier], object))
      continue;
    // Fields spelled out, not spread: V8 gives spread results a slow
    // dictionary shape, which made graph building five times slower.
    const node: ResourceNode = {
      group: key.group,
      kind: key.kind,
      namespace: key.namespace,
      name: key.name,
      id,
      version: versionOfApiVersion(object.apiVersion),
      uid:
        typeof object.metadata?.uid === 'string'
          ? object.metadata.uid
          : undefined,
      objectIndex,
      health: computeHealth(object),
      // Every field present from the start keeps all nodes one shape.
      subtreeHealth: undefined,
      parentId: undefined,
      childIds: [],
    };
    if (earlier === undefined) {
      append(table, node);
      table.sources.push(object);
    } else {
      table.nodes[earlier] = node;
      table.sources[earlier] = object;
    }
  }
  return table;
}

function append(table: NodeTable, node: ResourceNode): number {
  const index = table.nodes.length;
  table.indexOf.set(node.id, index);
  table.nodes.push(node);
  table.parents.push(NO_PARENT);
  table.parentRanks.push(NO_PARENT_RANK);
  return index;
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
function isNewer(earlier: KubernetesObject, later: KubernetesObject): boolean {
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
  const id = resourceId(key);
  const existing = table.indexOf.get(id);
  if (existing !== undefined) return existing;
  return append(table, {
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
  });
}
