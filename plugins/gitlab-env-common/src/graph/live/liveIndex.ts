import { KubernetesObject, ResourceNode } from '../../types';
import {
  Published,
  idKey,
  kindNameKey,
  podLabelKey,
  referenceLabelKey,
  stemKey,
  uidKey,
} from './keys';

const NO_SLOTS: readonly number[] = [];

function addTo(map: Map<string, Set<number>>, key: string, slot: number) {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(slot);
}

function removeFrom(map: Map<string, Set<number>>, key: string, slot: number) {
  const set = map.get(key);
  if (!set) return;
  set.delete(slot);
  if (set.size === 0) map.delete(key);
}

/**
 * The nodes of the live graph by what relations look them up by, each
 * lookup answering as the whole-graph build does: the last node of a uid
 * and the first of a kind and name in input order (nodes whose key holds a
 * `/` after all others, as the build indexes them), lists in input order.
 * Nodes are slot numbers; `orders[slot]` is the node's place in the input.
 */
export class LiveIndex {
  readonly realById = new Map<string, number>();
  private readonly byUid = new Map<string, Set<number>>();
  private readonly byKindName = new Map<string, Set<number>>();
  private readonly podsByLabel = new Map<string, Set<number>>();
  private readonly claimsByStem = new Map<string, Set<number>>();
  private readonly byReference = new Map<string, Set<number>>();

  constructor(
    private readonly orders: readonly number[],
    private readonly slashed: readonly boolean[],
  ) {}

  /** Every key under which a node answers, for the readers to be told. */
  keysOf(node: ResourceNode, published: Published): string[] {
    const keys = [
      idKey(node.id),
      kindNameKey(node.namespace, node.kind, node.name),
    ];
    if (published.uid) keys.push(uidKey(published.uid));
    if (published.stem !== undefined)
      keys.push(stemKey(node.namespace, published.stem));
    for (const [label, value] of published.podLabels ?? [])
      keys.push(podLabelKey(node.namespace, label, value));
    for (const [label, value] of published.references)
      keys.push(referenceLabelKey(label, value));
    return keys;
  }

  add(slot: number, node: ResourceNode, published: Published) {
    this.realById.set(node.id, slot);
    this.index(slot, node, published, addTo);
  }

  remove(slot: number, node: ResourceNode, published: Published) {
    this.realById.delete(node.id);
    this.index(slot, node, published, removeFrom);
  }

  private index(
    slot: number,
    node: ResourceNode,
    published: Published,
    apply: typeof addTo,
  ) {
    apply(
      this.byKindName,
      kindNameKey(node.namespace, node.kind, node.name),
      slot,
    );
    if (published.uid) apply(this.byUid, published.uid, slot);
    if (published.stem !== undefined)
      apply(this.claimsByStem, stemKey(node.namespace, published.stem), slot);
    for (const [label, value] of published.podLabels ?? [])
      apply(this.podsByLabel, podLabelKey(node.namespace, label, value), slot);
    for (const [label, value] of published.references)
      apply(this.byReference, referenceLabelKey(label, value), slot);
  }

  lastByUid(uid: string): number | undefined {
    let found: number | undefined;
    for (const slot of this.byUid.get(uid) ?? NO_SLOTS)
      if (found === undefined || this.orders[slot] > this.orders[found])
        found = slot;
    return found;
  }

  firstByKindName(key: string): number | undefined {
    let found: number | undefined;
    for (const slot of this.byKindName.get(key) ?? NO_SLOTS)
      if (found === undefined || this.before(slot, found)) found = slot;
    return found;
  }

  private before(a: number, b: number): boolean {
    if (this.slashed[a] !== this.slashed[b]) return !this.slashed[a];
    return this.orders[a] < this.orders[b];
  }

  pods(key: string): ReadonlySet<number> | undefined {
    return this.podsByLabel.get(key);
  }

  claims(key: string): readonly number[] {
    const set = this.claimsByStem.get(key);
    return set ? [...set] : NO_SLOTS;
  }

  /** In input order: a node's first inventory claims it. */
  referencing(key: string): readonly number[] {
    const set = this.byReference.get(key);
    if (!set) return NO_SLOTS;
    return [...set].sort((a, b) => this.orders[a] - this.orders[b]);
  }
}

/** Whether labels hold every string-valued pair of a selector. */
export function selectorMatches(
  labels: unknown,
  selector: Record<string, unknown>,
): boolean {
  const record = (labels ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(selector)) {
    const value = selector[key];
    if (typeof value === 'string' && record[key] !== value) return false;
  }
  return true;
}

/** The labels a Pod had, for matching against selectors. */
export function podLabelsOf(object: KubernetesObject): unknown {
  return object.metadata?.labels;
}
