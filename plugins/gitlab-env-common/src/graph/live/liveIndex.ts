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
import { SetMap } from './setMap';

const NO_SLOTS: readonly number[] = [];

function addTo(map: SetMap<string, number>, key: string, slot: number) {
  map.add(key, slot);
}

function removeFrom(map: SetMap<string, number>, key: string, slot: number) {
  map.delete(key, slot);
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
  private readonly byUid = new SetMap<string, number>();
  private readonly byKindName = new SetMap<string, number>();
  private readonly podsByLabel = new SetMap<string, number>();
  private readonly claimsByStem = new SetMap<string, number>();
  private readonly byReference = new SetMap<string, number>();

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
    for (const slot of this.byUid.values(uid))
      if (found === undefined || this.orders[slot] > this.orders[found])
        found = slot;
    return found;
  }

  firstByKindName(key: string): number | undefined {
    let found: number | undefined;
    for (const slot of this.byKindName.values(key))
      if (found === undefined || this.before(slot, found)) found = slot;
    return found;
  }

  private before(a: number, b: number): boolean {
    if (this.slashed[a] !== this.slashed[b]) return !this.slashed[a];
    return this.orders[a] < this.orders[b];
  }

  pods(key: string): Iterable<number> {
    return this.podsByLabel.values(key);
  }

  podCount(key: string): number {
    return this.podsByLabel.count(key);
  }

  claims(key: string): readonly number[] {
    return this.claimsByStem.count(key) === 0
      ? NO_SLOTS
      : [...this.claimsByStem.values(key)];
  }

  /** In input order: a node's first inventory claims it. */
  referencing(key: string): readonly number[] {
    if (this.byReference.count(key) === 0) return NO_SLOTS;
    return [...this.byReference.values(key)].sort(
      (a, b) => this.orders[a] - this.orders[b],
    );
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
