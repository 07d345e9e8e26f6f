import {
  KubernetesObject,
  ResourceEdgeType,
  ResourceKey,
  ResourceNode,
} from '../../types';
import { NameList } from '../references';
import { RelationContext } from '../relations';
import { Frame } from './frames';

/** An item as JSON; undefined when it has none (a BigInt, a cycle). */
function keyOf(item: unknown): string | undefined {
  try {
    return JSON.stringify(item);
  } catch {
    return undefined;
  }
}

/** What the live graph answers an inference, the frame it reads in named. */
export interface LiveLookups {
  contextOf(origin: number): { node: ResourceNode; object: KubernetesObject };
  item(
    parent: Frame,
    run: (context: LiveContext) => void,
    itemKey: string | undefined,
  ): void;
  byUid(frame: Frame, uid: string): number | undefined;
  byKindName(frame: Frame, kind: string, name: unknown): number | undefined;
  exact(frame: Frame, key: ResourceKey): number | undefined;
  selectPods(
    frame: Frame,
    selector: Record<string, unknown>,
  ): readonly number[];
  claimsByStem(frame: Frame, stem: string): readonly number[];
  byReferenceLabel(
    frame: Frame,
    label: string,
    value: string,
  ): readonly number[];
  labelsOf(slot: number): Readonly<Record<string, unknown>>;
  inventoryNode(
    frame: Frame,
    key: ResourceKey,
    version: string,
    listing: Set<string>,
  ): number;
  add(
    frame: Frame,
    source: number | undefined,
    target: number | undefined,
    type: ResourceEdgeType,
    rank?: number,
  ): void;
}

/** The live graph's lookups for one inference, as relations read them. */
export class LiveContext implements RelationContext {
  readonly index: number;
  readonly node: ResourceNode;
  readonly object: KubernetesObject;
  readonly names = new NameList();
  /** Ids of the Missing entries this inference lists. */
  readonly listing = new Set<string>();

  constructor(
    private readonly graph: LiveLookups,
    private readonly frame: Frame,
  ) {
    this.index = frame.origin;
    const { node, object } = graph.contextOf(frame.origin);
    this.node = node;
    this.object = object;
  }

  forEach<T>(
    items: readonly T[],
    infer: (item: T, context: RelationContext) => void,
  ) {
    for (const item of items)
      this.graph.item(this.frame, context => infer(item, context), keyOf(item));
  }
  byUid(uid: string) {
    return this.graph.byUid(this.frame, uid);
  }
  byKindName(kind: string, name: unknown) {
    return this.graph.byKindName(this.frame, kind, name);
  }
  exact(key: ResourceKey) {
    return this.graph.exact(this.frame, key);
  }
  selectPods(selector: Record<string, unknown>) {
    return this.graph.selectPods(this.frame, selector);
  }
  claimsByStem(stem: string) {
    return this.graph.claimsByStem(this.frame, stem);
  }
  byReferenceLabel(label: string, value: string) {
    return this.graph.byReferenceLabel(this.frame, label, value);
  }
  labelsOf(slot: number) {
    return this.graph.labelsOf(slot);
  }
  nodeAt(slot: number) {
    return this.graph.contextOf(slot).node;
  }
  inventoryNode(key: ResourceKey, version: string) {
    return this.graph.inventoryNode(this.frame, key, version, this.listing);
  }
  add(
    source: number | undefined,
    target: number | undefined,
    type: ResourceEdgeType,
    rank?: number,
  ) {
    this.graph.add(this.frame, source, target, type, rank);
  }
}
