import { isRecord } from '../health/conditions';
import { KubernetesObject } from '../types';
import { KindNodes, NodeTable } from './nodeTable';
import { REFERENCE_LABELS } from './relations/types';

/**
 * What edge inference looks up in one namespace, by node index. Nested maps
 * keyed by strings the objects already hold (kind, name, label key and
 * value) rather than one map keyed by a joined string: a joined key is a
 * new string to build, flatten and hash on every lookup.
 */
export interface NamespaceLookups {
  /** Per kind: the first node per name (group ignored: owner references by name carry only a kind). */
  kinds: Map<string, KindNodes>;
  /** Pods per label key, then value (string values only: selectors hold nothing else). */
  podsByLabel: Map<string, Map<string, number[]>>;
  /** Claims per name without its `-<ordinal>` suffix, as StatefulSets name them. */
  claimsByStem: Map<string, number[]>;
}

/** The indexes edge inference reads, built once before any edge is added. */
export interface Lookups {
  /** Last node per uid. */
  byUid: Map<string, number>;
  namespaces: Map<string, NamespaceLookups>;
  /** Nodes per `label=value` of the labels in REFERENCE_LABELS. */
  byLabel: Map<string, number[]>;
}

const ORDINAL_SUFFIX = /-\d+$/;

const NO_NODES: readonly number[] = [];

function push<K, V>(map: Map<K, V[]>, key: K, value: V) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function inner<K, V>(map: Map<string, Map<K, V>>, key: string): Map<K, V> {
  let found = map.get(key);
  if (!found) map.set(key, (found = new Map()));
  return found;
}

const EMPTY_NAMESPACE: NamespaceLookups = {
  kinds: new Map(),
  podsByLabel: new Map(),
  claimsByStem: new Map(),
};

/** The lookups of a namespace; an empty set when it holds nothing. */
export function namespaceLookups(
  lookups: Lookups,
  namespace: string,
): NamespaceLookups {
  return lookups.namespaces.get(namespace) ?? EMPTY_NAMESPACE;
}

/**
 * Indexes the nodes built from objects, in node order. Lookups by kind and
 * name read the node table's index, completed here with the nodes it kept
 * aside by id (a `/` in kind, namespace or name), so they find the first
 * such node in the input.
 */
export function buildLookups(table: NodeTable): Lookups {
  const { nodes, sources } = table;
  const lookups: Lookups = {
    byUid: new Map(),
    namespaces: new Map(),
    byLabel: new Map(),
  };
  const scopeOf = (namespace: string) => {
    let scope = lookups.namespaces.get(namespace);
    if (!scope) {
      scope = {
        kinds: inner(table.kinds, namespace),
        podsByLabel: new Map(),
        claimsByStem: new Map(),
      };
      lookups.namespaces.set(namespace, scope);
    }
    return scope;
  };
  for (const namespace of table.kinds.keys()) scopeOf(namespace);
  for (const index of table.byIdAside.values()) {
    const node = nodes[index];
    const kinds = scopeOf(node.namespace).kinds;
    let kindNodes = kinds.get(node.kind);
    if (!kindNodes) {
      kindNodes = { byName: new Map(), idPrefixes: new Map() };
      kinds.set(node.kind, kindNodes);
    }
    if (!kindNodes.byName.has(node.name))
      kindNodes.byName.set(node.name, index);
  }
  for (let index = 0; index < sources.length; index++) {
    const node = nodes[index];
    if (node.uid) lookups.byUid.set(node.uid, index);
    const core = node.group === '';
    if (core && node.kind === 'PersistentVolumeClaim') {
      const ordinal = ORDINAL_SUFFIX.exec(node.name);
      if (ordinal) {
        const stem = node.name.slice(0, ordinal.index);
        push(scopeOf(node.namespace).claimsByStem, stem, index);
      }
    }
    const labels = sources[index].metadata?.labels;
    if (!isRecord(labels)) continue;
    if (core && node.kind === 'Pod') {
      const podsByLabel = scopeOf(node.namespace).podsByLabel;
      for (const key of Object.keys(labels)) {
        const value = labels[key];
        if (typeof value === 'string')
          push(inner(podsByLabel, key), value, index);
      }
    }
    for (const label of REFERENCE_LABELS) {
      if (typeof labels[label] === 'string')
        push(lookups.byLabel, `${label}=${labels[label]}`, index);
    }
  }
  return lookups;
}

/** The first node of a kind and name in a namespace; undefined for a non-string name. */
export function firstByKindName(
  scope: NamespaceLookups,
  kind: string,
  name: unknown,
): number | undefined {
  return typeof name === 'string'
    ? scope.kinds.get(kind)?.byName.get(name)
    : undefined;
}

/** Nodes labelled `label=value` (REFERENCE_LABELS only). */
export function byReferenceLabel(
  lookups: Lookups,
  label: string,
  value: string,
): readonly number[] {
  return lookups.byLabel.get(`${label}=${value}`) ?? NO_NODES;
}

/**
 * Pods of a namespace matching every pair of a selector whose value is a
 * string: the smallest label bucket, its pods checked against the other
 * pairs, so a label every pod shares never costs a pass over all pods.
 * Empty when no pair counts.
 */
export function selectPods(
  scope: NamespaceLookups,
  sources: readonly KubernetesObject[],
  selector: Record<string, unknown>,
): number[] {
  const keys = Object.keys(selector);
  let smallest: readonly number[] | undefined;
  for (const key of keys) {
    const value = selector[key];
    if (typeof value !== 'string') continue;
    const bucket = scope.podsByLabel.get(key)?.get(value) ?? NO_NODES;
    if (!smallest || bucket.length < smallest.length) smallest = bucket;
  }
  const selected: number[] = [];
  if (!smallest) return selected;
  for (const pod of smallest) {
    if (matchesAll(sources[pod].metadata?.labels ?? {}, selector, keys))
      selected.push(pod);
  }
  return selected;
}

/** Whether labels hold every string-valued pair of a selector. */
function matchesAll(
  labels: Record<string, unknown>,
  selector: Record<string, unknown>,
  keys: readonly string[],
): boolean {
  for (const key of keys) {
    const value = selector[key];
    if (typeof value === 'string' && labels[key] !== value) return false;
  }
  return true;
}
