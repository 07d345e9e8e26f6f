import {
  KubernetesObject,
  ResourceEdgeType,
  ResourceKey,
  ResourceNode,
} from '../../types';
import type { RelationContext } from '../relations/types';
import { MissingEntry } from './frames';
import type { NamespaceKinds } from './keys';

/** What the engine answers an inference, the frame it reads in named. */
export interface EngineLookups {
  item(
    parent: number,
    item: unknown,
    run: (item: any, context: RelationContext) => void,
  ): void;
  byUid(frame: number, uid: string): number | undefined;
  byKindName(
    context: EngineContext,
    kind: string,
    name: unknown,
  ): number | undefined;
  exact(frame: number, key: ResourceKey): number | undefined;
  selectPods(
    frame: number,
    selector: Record<string, unknown>,
  ): readonly number[];
  claimsByStem(frame: number, stem: string): readonly number[];
  byReferenceLabel(
    frame: number,
    label: string,
    value: string,
  ): readonly number[];
  labelsOf(node: number): Readonly<Record<string, unknown>>;
  nodeAt(node: number): ResourceNode;
  inventoryNode(
    context: EngineContext,
    key: ResourceKey,
    version: string,
  ): number;
  add(
    frame: number,
    source: number | undefined,
    target: number | undefined,
    type: ResourceEdgeType,
    rank?: number,
  ): void;
}

/**
 * The engine's lookups for one inference, as relation sources read them.
 * One context per nesting depth is kept and pointed at each inference in
 * turn.
 */
export class EngineContext implements RelationContext {
  origin = -1;
  node!: ResourceNode;
  object!: KubernetesObject;
  frame = -1;
  /** The kinds of the origin's namespace, for lookups by kind and name. */
  kinds!: NamespaceKinds;
  /** The Missing entries this inference lists (made on the first). */
  listing: Set<MissingEntry> | undefined = undefined;

  constructor(private readonly engine: EngineLookups) {}

  forEach<T>(
    items: readonly T[],
    infer: (item: T, context: RelationContext) => void,
  ) {
    for (let at = 0; at < items.length; at++)
      this.engine.item(this.frame, items[at], infer);
  }
  byUid(uid: string) {
    return this.engine.byUid(this.frame, uid);
  }
  byKindName(kind: string, name: unknown) {
    return this.engine.byKindName(this, kind, name);
  }
  exact(key: ResourceKey) {
    return this.engine.exact(this.frame, key);
  }
  selectPods(selector: Record<string, unknown>) {
    return this.engine.selectPods(this.frame, selector);
  }
  claimsByStem(stem: string) {
    return this.engine.claimsByStem(this.frame, stem);
  }
  byReferenceLabel(label: string, value: string) {
    return this.engine.byReferenceLabel(this.frame, label, value);
  }
  labelsOf(node: number) {
    return this.engine.labelsOf(node);
  }
  nodeAt(node: number) {
    return this.engine.nodeAt(node);
  }
  inventoryNode(key: ResourceKey, version: string) {
    return this.engine.inventoryNode(this, key, version);
  }
  add(
    source: number | undefined,
    target: number | undefined,
    type: ResourceEdgeType,
    rank?: number,
  ) {
    this.engine.add(this.frame, source, target, type, rank);
  }
}
