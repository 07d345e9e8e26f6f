import { KubernetesObject, ResourceKey, ResourceNode } from '../../types';
import { isRecord } from '../../k8s/objects';
import { resourceId } from '../../k8s/resourceId';
import {
  Arena,
  NO_INT32,
  NO_UINT8,
  Numbers,
  grown,
  inOneBuffer,
} from './columns';
import type { FrameTable, MissingEntry } from './frames';
import { compareIds } from '../forestOrder';

const NONE = -1;

type Keys = Map<string, number>;

/**
 * An id prefix `group/Kind/namespace/`, and its place among the prefixes
 * made so far in code unit order (see IdPrefixes.rank).
 */
export interface IdPrefix {
  readonly text: string;
  rank: number;
}

/**
 * The id prefixes of an engine's nodes, ranked in code unit order when
 * asked after one was made: nodes are sorted by id, and two ids of
 * different prefixes order as their prefixes do (see compareSlots), which
 * then compares two numbers, not two strings.
 */
export class IdPrefixes {
  private readonly made: IdPrefix[] = [];
  private ranked = 0;

  make(text: string): IdPrefix {
    const prefix = { text, rank: 0 };
    this.made.push(prefix);
    return prefix;
  }

  /** Ranks the prefixes again if one was made since the last time. */
  rank() {
    if (this.ranked === this.made.length) return;
    const sorted = this.made.slice().sort((a, b) => compareIds(a.text, b.text));
    for (let at = 0; at < sorted.length; at++) sorted[at].rank = at;
    this.ranked = this.made.length;
  }
}

/** The name keys of one kind in one namespace, and the id prefixes of its nodes. */
export class KindKeys {
  readonly names: Keys = new Map();
  /** The first API group seen and its prefix `group/Kind/namespace/`; others in `prefixes`. */
  private group: string | undefined = undefined;
  private prefix: IdPrefix | undefined = undefined;
  private prefixes: Map<string, IdPrefix> | undefined = undefined;

  readonly namespace: string;
  /** Whether the kind or the namespace holds a `/` (see isSlashed): found once, not per object. */
  readonly slashed: boolean;

  /** `kinds`: those of its namespace, where lookups by kind and name from its nodes start. */
  constructor(readonly kind: string, readonly kinds: NamespaceKinds) {
    this.namespace = kinds.namespace;
    this.slashed = kind.includes('/') || this.namespace.includes('/');
  }

  /**
   * The id prefix `group/Kind/namespace/` of a group's nodes of an
   * unslashed key, made once per group, kind and namespace: their ids are
   * it and the name.
   */
  prefixOf(group: string): IdPrefix {
    if (group === this.group) return this.prefix!;
    if (this.group === undefined) {
      this.group = group;
      this.prefix = this.kinds.idPrefixes.make(
        `${group}/${this.kind}/${this.namespace}/`,
      );
      return this.prefix;
    }
    let prefix = this.prefixes?.get(group);
    if (prefix === undefined) {
      prefix = this.kinds.idPrefixes.make(
        `${group}/${this.kind}/${this.namespace}/`,
      );
      (this.prefixes ??= new Map()).set(group, prefix);
    }
    return prefix;
  }
}

/** The kinds of one namespace. */
export class NamespaceKinds {
  readonly kinds = new Map<string, KindKeys>();

  constructor(readonly namespace: string, readonly idPrefixes: IdPrefixes) {}

  of(kind: string): KindKeys {
    let kindKeys = this.kinds.get(kind);
    if (kindKeys === undefined) {
      kindKeys = new KindKeys(kind, this);
      this.kinds.set(kind, kindKeys);
    }
    return kindKeys;
  }
}

function mapIn<V>(map: Map<string, Map<string, V>>, key: string) {
  let inner = map.get(key);
  if (inner === undefined) {
    inner = new Map();
    map.set(key, inner);
  }
  return inner;
}

/**
 * Whether a key needs its id to tell it apart: a `/` in a part lets two
 * keys spell one id (name `a/b` of kind K, or name b of kind `K/a`), and
 * nodes are identified by id. The API group of an object never holds one
 * (it ends at the apiVersion's first `/`).
 */
export function isSlashed(key: ResourceKey): boolean {
  return (
    key.name.includes('/') ||
    key.namespace.includes('/') ||
    key.kind.includes('/') ||
    key.group.includes('/')
  );
}

const ORDINAL_SUFFIX = /-\d+$/;

/** A claim's name without its `-<ordinal>` suffix, as StatefulSets name claims; undefined without one. */
export function claimStem(name: string): string | undefined {
  const ordinal = ORDINAL_SUFFIX.exec(name);
  return ordinal ? name.slice(0, ordinal.index) : undefined;
}

/** Key flags: a key of a node's own key (it never leaves it while it lives), a Pod label pair. */
export const FIXED = 1;
export const POD_LABEL = 2;

/**
 * The keys relations look nodes up by (a namespace, kind and name; a uid;
 * a Pod label pair; a claim stem; a reference label), with the nodes
 * holding each and the inferences that read it:
 *
 * - keys are found through nested maps keyed by strings the objects
 *   already hold, never a joined key string to build and hash;
 * - a map holds a key's number, or, while nothing reads it and one node
 *   holds it, that node as `-1 - slot` (most uids and names are never
 *   looked up: they cost one map entry);
 * - a key's members (node slots) are a list in the order they joined;
 * - a key's readers are (frame, generation) entries: a frame that infers
 *   again moves its generation on, which leaves its old entries stale, to
 *   be dropped when met or when they outnumber the live ones.
 *
 * A key is made when an inference reads it (so a node that appears later
 * reaches the reader) or a second node joins, and dropped once it has no
 * member, Missing entry or live reader.
 *
 * Labels are indexed only under the label names lookups have asked for
 * (see addPodLabel, addReferenceLabel): objects as clusters serve them
 * carry many labels (the recommended app.kubernetes.io ones, template
 * hashes, chart versions), and selectors and inventories read a few.
 */
export class KeyIndex {
  private readonly names = new Map<string, NamespaceKinds>();
  /** Every id prefix made, ranked for sorting by id. */
  readonly idPrefixes = new IdPrefixes();
  /** Keys holding a `/`, by id: their node and Missing entry. */
  private readonly slashedIds: Keys = new Map();
  private readonly uids: Keys = new Map();
  /** Per namespace, the Pod label names indexed so far and their values. */
  private readonly podLabels = new Map<string, Map<string, Keys>>();
  private readonly stems = new Map<string, Keys>();
  /** The reference labels indexed so far and their values. */
  private readonly references = new Map<string, Keys>();

  // Keys.
  private readonly keys = new Numbers();
  memberHead = NO_INT32;
  private memberTail = NO_INT32;
  memberCount = NO_INT32;
  private readerHead = NO_INT32;
  private readerEntries = NO_INT32;
  private stale = NO_INT32;
  private flags = NO_UINT8;
  private readonly home: Array<Keys | undefined> = [];
  private readonly keyName: string[] = [];
  /** Missing inventory entries per identity key. */
  readonly missing: Array<MissingEntry[] | undefined> = [];

  // Member entries: a node in a key's list, and in its node's list.
  private readonly memberNumbers = new Numbers();
  memberSlot = NO_INT32;
  private memberKey = NO_INT32;
  memberNext = NO_INT32;
  private memberPrev = NO_INT32;
  private memberOfSlotNext = NO_INT32;
  private slotMembers = NO_INT32;

  // Read entries: a frame's read of a key, in the key's list and the frame's.
  private readonly readNumbers = new Numbers();
  private readFrame = NO_INT32;
  private readGeneration = NO_INT32;
  private readKey = NO_INT32;
  private readNext = NO_INT32;
  private readOfFrameNext = NO_INT32;
  private frameReads = NO_INT32;

  /** Keys that may have become unused, checked when the apply settles. */
  private maybeUnused: number[] = [];
  /** Keys with readers that a node joined or left since the last `takeChanged`. */
  private changed: number[] = [];

  constructor(private readonly frames: FrameTable) {}

  // ---- keys -------------------------------------------------------------------

  private growKeys(size: number, arena: Arena) {
    this.memberHead = arena.grown(this.memberHead, size);
    this.memberTail = arena.grown(this.memberTail, size);
    this.memberCount = arena.grown(this.memberCount, size);
    this.readerHead = arena.grown(this.readerHead, size);
    this.readerEntries = arena.grown(this.readerEntries, size);
    this.stale = arena.grown(this.stale, size);
    this.flags = arena.grown(this.flags, size);
  }

  /** The key of a name in a map, made (with the lone node it held) if there is none. */
  private keyIn(home: Keys, name: string, flags: number): number {
    const held = home.get(name);
    if (held !== undefined && held >= 0) return held;
    const key = this.keys.take();
    if (key >= this.memberHead.length)
      inOneBuffer(this, key + 1, this.growKeys);
    this.memberHead[key] = NONE;
    this.memberTail[key] = NONE;
    this.memberCount[key] = 0;
    this.readerHead[key] = NONE;
    this.readerEntries[key] = 0;
    this.stale[key] = 0;
    this.flags[key] = flags;
    this.home[key] = home;
    this.keyName[key] = name;
    this.missing[key] = undefined;
    home.set(name, key);
    if (held !== undefined) this.joinKey(key, -1 - held);
    return key;
  }

  /** A node joins a name in a map: held alone without a key while it is the only one. */
  place(home: Keys, name: string, slot: number, flags: number) {
    this.placeHeld(home, name, slot, flags, home.get(name));
  }

  /**
   * As place, given what the map holds for the name (undefined: nothing),
   * as the caller just looked it up: a map lookup is a cache miss or two.
   */
  private placeHeld(
    home: Keys,
    name: string,
    slot: number,
    flags: number,
    held: number | undefined,
  ) {
    if (held === undefined) home.set(name, -1 - slot);
    else this.joinKey(held >= 0 ? held : this.keyIn(home, name, flags), slot);
  }

  /** A node leaves a name it holds alone (in a key, its member entry goes). */
  private unplace(home: Keys | undefined, name: string, slot: number) {
    if (home !== undefined && home.get(name) === -1 - slot) home.delete(name);
  }

  /** The kinds of a namespace, for the lookups by kind and name in it. */
  kindsOf(namespace: string): NamespaceKinds {
    let kinds = this.names.get(namespace);
    if (kinds === undefined) {
      kinds = new NamespaceKinds(namespace, this.idPrefixes);
      this.names.set(namespace, kinds);
    }
    return kinds;
  }

  /**
   * What a frame looks up under a name of a map: when the engine watches,
   * the name's key, made if need be and recorded as read by the frame;
   * otherwise what the map holds (a key, `-1 - slot`, or undefined), and
   * nothing is made or recorded.
   */
  look(
    home: Keys,
    name: string,
    flags: number,
    frame: number,
    watching: boolean,
  ): number | undefined {
    if (!watching) return home.get(name);
    const key = this.keyIn(home, name, flags);
    this.read(key, frame, this.frames.generation[frame]);
    return key;
  }

  nameHome(kinds: NamespaceKinds, kind: string): Keys {
    return kinds.of(kind).names;
  }

  /** The map and name a key's node and Missing entry are found under. */
  identityHome(key: ResourceKey, slashed: boolean): [Keys, string] {
    return slashed
      ? [this.slashedIds, resourceId(key)]
      : [this.kindsOf(key.namespace).of(key.kind).names, key.name];
  }

  /** The identity key of a key (made if need be), where Missing entries are kept. */
  identityKey(home: Keys, name: string): number {
    return this.keyIn(home, name, FIXED);
  }

  get uidHome(): Keys {
    return this.uids;
  }

  stemHome(namespace: string): Keys {
    return mapIn(this.stems, namespace);
  }

  /** The values of a reference label, if it is indexed. */
  referenceHome(label: string): Keys | undefined {
    return this.references.get(label);
  }

  /** Indexes a reference label: the caller joins the nodes labelled with it. */
  addReferenceLabel(label: string): Keys {
    return mapIn(this.references, label);
  }

  /** The values of a Pod label in a namespace, if it is indexed. */
  podLabelHome(namespace: string, label: string): Keys | undefined {
    return this.podLabels.get(namespace)?.get(label);
  }

  /** Indexes a Pod label in a namespace: the caller joins the Pods labelled with it. */
  addPodLabel(namespace: string, label: string): Keys {
    return mapIn(mapIn(this.podLabels, namespace), label);
  }

  /** The nodes of a kind and namespace (any group), by name. */
  namesOf(namespace: string, kind: string): Keys | undefined {
    return this.names.get(namespace)?.kinds.get(kind)?.names;
  }

  /** Whether a key's readers care only about Pods their selector matches. */
  isPodLabel(key: number): boolean {
    return (this.flags[key] & POD_LABEL) !== 0;
  }

  // ---- what a map holds, without making anything ---------------------------------

  /** What the map of a kind holds for a name: a key, `-1 - slot` for a lone node, or undefined. */
  heldName(kindKeys: KindKeys, name: string): number | undefined {
    return kindKeys.names.get(name);
  }

  /** What is held for an id (a slashed one by id), and the group it names (none for a slashed id). */
  heldIdentity(id: string): { held: number; group?: string } | undefined {
    const parts = id.split('/');
    if (parts.length !== 4) {
      const held = this.slashedIds.get(id);
      return held === undefined ? undefined : { held };
    }
    const [group, kind, namespace, name] = parts;
    const held = this.names.get(namespace)?.kinds.get(kind)?.names.get(name);
    return held === undefined ? undefined : { held, group };
  }

  heldByName(namespace: string, kind: string, name: string) {
    return this.names.get(namespace)?.kinds.get(kind)?.names.get(name);
  }

  heldSlashed(id: string): number | undefined {
    return this.slashedIds.get(id);
  }

  /** The first node held (the earliest to join). */
  firstOf(held: number | undefined): number | undefined {
    if (held === undefined) return undefined;
    if (held < 0) return -1 - held;
    const head = this.memberHead[held];
    return head === NONE ? undefined : this.memberSlot[head];
  }

  /** How many nodes are held. */
  countOf(held: number | undefined): number {
    if (held === undefined) return 0;
    return held < 0 ? 1 : this.memberCount[held];
  }

  /** The nodes held, in the order they joined. */
  slotsOf(held: number | undefined): number[] {
    if (held === undefined) return [];
    if (held < 0) return [-1 - held];
    const members: number[] = [];
    for (let e = this.memberHead[held]; e !== NONE; e = this.memberNext[e])
      members.push(this.memberSlot[e]);
    return members;
  }

  // ---- members ----------------------------------------------------------------

  private growMembers(size: number, arena: Arena) {
    this.memberSlot = arena.grown(this.memberSlot, size);
    this.memberKey = arena.grown(this.memberKey, size);
    this.memberNext = arena.grown(this.memberNext, size);
    this.memberPrev = arena.grown(this.memberPrev, size);
    this.memberOfSlotNext = arena.grown(this.memberOfSlotNext, size);
  }

  /**
   * Room for this many nodes and, when reads are recorded, about as many
   * keys, members and reads without growing. Without reads a key is made
   * only when a second node joins a name, which few do.
   */
  reserve(nodes: number, reads: boolean, arena: Arena) {
    this.slotMembers = arena.grown(this.slotMembers, nodes, NONE);
    if (!reads) return;
    this.frameReads = arena.grown(this.frameReads, nodes * 2, NONE);
    this.growKeys(nodes, arena);
    this.growMembers(nodes, arena);
    this.growReads(nodes * 2, arena);
  }

  /** A new slot holds no key yet. */
  addSlot(slot: number, reused: boolean) {
    if (slot >= this.slotMembers.length)
      this.slotMembers = grown(this.slotMembers, slot + 1, NONE);
    else if (reused) this.slotMembers[slot] = NONE;
  }

  /** Adds the node to the end of a key's members. */
  private joinKey(key: number, slot: number) {
    const entry = this.memberNumbers.take();
    if (entry >= this.memberSlot.length)
      inOneBuffer(this, entry + 1, this.growMembers);
    this.memberSlot[entry] = slot;
    this.memberKey[entry] = key;
    this.memberNext[entry] = NONE;
    const tail = this.memberTail[key];
    this.memberPrev[entry] = tail;
    if (tail === NONE) this.memberHead[key] = entry;
    else this.memberNext[tail] = entry;
    this.memberTail[key] = entry;
    this.memberCount[key] += 1;
    this.memberOfSlotNext[entry] = this.slotMembers[slot];
    this.slotMembers[slot] = entry;
    if (this.readerHead[key] !== NONE) this.changed.push(key);
  }

  /** The keys with readers that nodes joined or left since the last call. */
  takeChanged(): number[] {
    const changed = this.changed;
    if (changed.length > 0) this.changed = [];
    return changed;
  }

  /**
   * Joins the node built from an object to the names of its key (its
   * name, given; for a slashed key its id; for a claim named
   * `<stem>-<ordinal>` its stem), then, unless `variable` is false (the
   * caller joins them later), to those of its uid and labels.
   */
  joinAll(
    slot: number,
    node: ResourceNode,
    object: KubernetesObject,
    kindKeys: KindKeys,
    heldName: number | undefined,
    slashed: boolean,
    variable = true,
  ) {
    this.placeHeld(kindKeys.names, node.name, slot, FIXED, heldName);
    if (slashed) this.place(this.slashedIds, node.id, slot, FIXED);
    if (node.group === '' && node.kind === 'PersistentVolumeClaim') {
      const stem = claimStem(node.name);
      if (stem !== undefined)
        this.place(mapIn(this.stems, node.namespace), stem, slot, FIXED);
    }
    if (variable) this.joinVariable(slot, node, object);
  }

  /** Joins the names of an object's uid and labels (a Pod's label pairs, the reference labels), those indexed. */
  joinVariable(slot: number, node: ResourceNode, object: KubernetesObject) {
    // The node's copy of the uid: every node has one shape, and objects of
    // each kind another, so reading the object's costs far more.
    const uid = node.uid;
    if (uid) this.place(this.uids, uid, slot, 0);
    // Most loads index no label before every object is in (see addPodLabel):
    // nothing to read, look up or iterate then.
    if (this.podLabels.size === 0 && this.references.size === 0) return;
    const labels = object.metadata?.labels;
    if (!isRecord(labels)) return;
    if (node.group === '' && node.kind === 'Pod' && this.podLabels.size > 0) {
      const byLabel = this.podLabels.get(node.namespace);
      if (byLabel !== undefined)
        for (const [label, values] of byLabel) {
          const value = labels[label];
          if (typeof value === 'string')
            this.place(values, value, slot, POD_LABEL);
        }
    }
    if (this.references.size === 0) return;
    for (const [label, values] of this.references) {
      const value = labels[label];
      if (typeof value === 'string') this.place(values, value, slot, 0);
    }
  }

  /**
   * Takes the node out of what it joined, all of it or what its uid and
   * labels gave; `object` is the object as it was when it joined.
   */
  leave(
    slot: number,
    node: ResourceNode,
    object: KubernetesObject,
    all: boolean,
  ) {
    if (all) {
      this.unplace(
        this.names.get(node.namespace)?.kinds.get(node.kind)?.names,
        node.name,
        slot,
      );
      this.unplace(this.slashedIds, node.id, slot);
      const stem = claimStem(node.name);
      if (stem !== undefined)
        this.unplace(this.stems.get(node.namespace), stem, slot);
    }
    const uid = object.metadata?.uid;
    if (typeof uid === 'string') this.unplace(this.uids, uid, slot);
    const labels = object.metadata?.labels;
    if (isRecord(labels)) {
      const byLabel =
        node.group === '' && node.kind === 'Pod'
          ? this.podLabels.get(node.namespace)
          : undefined;
      if (byLabel !== undefined)
        for (const [label, values] of byLabel) {
          const value = labels[label];
          if (typeof value === 'string') this.unplace(values, value, slot);
        }
      for (const [label, values] of this.references) {
        const value = labels[label];
        if (typeof value === 'string') this.unplace(values, value, slot);
      }
    }
    let kept = NONE;
    let e = this.slotMembers[slot];
    while (e !== NONE) {
      const next = this.memberOfSlotNext[e];
      const key = this.memberKey[e];
      if (!all && this.flags[key] & FIXED) {
        this.memberOfSlotNext[e] = kept;
        kept = e;
      } else {
        const prev = this.memberPrev[e];
        const after = this.memberNext[e];
        if (prev === NONE) this.memberHead[key] = after;
        else this.memberNext[prev] = after;
        if (after === NONE) this.memberTail[key] = prev;
        else this.memberPrev[after] = prev;
        this.memberCount[key] -= 1;
        this.maybeUnused.push(key);
        if (this.readerHead[key] !== NONE) this.changed.push(key);
        this.memberNumbers.release(e);
      }
      e = next;
    }
    this.slotMembers[slot] = kept;
  }

  /** The keys a node is in (those with a key made: the others have no readers). */
  keysOf(slot: number): number[] {
    const keys: number[] = [];
    for (
      let e = this.slotMembers[slot];
      e !== NONE;
      e = this.memberOfSlotNext[e]
    )
      keys.push(this.memberKey[e]);
    return keys;
  }

  // ---- readers ----------------------------------------------------------------

  private growReads(size: number, arena: Arena) {
    this.readFrame = arena.grown(this.readFrame, size);
    this.readGeneration = arena.grown(this.readGeneration, size);
    this.readKey = arena.grown(this.readKey, size);
    this.readNext = arena.grown(this.readNext, size);
    this.readOfFrameNext = arena.grown(this.readOfFrameNext, size);
  }

  /** A new frame has read nothing yet. */
  addFrame(frame: number) {
    if (frame >= this.frameReads.length)
      this.frameReads = grown(this.frameReads, frame + 1, NONE);
    this.frameReads[frame] = NONE;
  }

  /** Records that a frame read a key in its current generation. */
  read(key: number, frame: number, generation: number) {
    const head = this.readerHead[key];
    // The same frame reading the key again.
    if (
      head !== NONE &&
      this.readFrame[head] === frame &&
      this.readGeneration[head] === generation
    )
      return;
    if (this.stale[key] > 8 && this.stale[key] * 2 > this.readerEntries[key])
      this.dropStale(key);
    const entry = this.readNumbers.take();
    if (entry >= this.readFrame.length)
      inOneBuffer(this, entry + 1, this.growReads);
    this.readFrame[entry] = frame;
    this.readGeneration[entry] = generation;
    this.readKey[entry] = key;
    this.readNext[entry] = this.readerHead[key];
    this.readerHead[key] = entry;
    this.readerEntries[key] += 1;
    this.readOfFrameNext[entry] = this.frameReads[frame];
    this.frameReads[frame] = entry;
  }

  /** Drops the key's stale reader entries and gives the live readers' frames. */
  private dropStale(key: number): number[] {
    const live: number[] = [];
    let prev = NONE;
    let e = this.readerHead[key];
    const current = this.frames.generation;
    while (e !== NONE) {
      const next = this.readNext[e];
      const frame = this.readFrame[e];
      if (current[frame] === this.readGeneration[e]) {
        live.push(frame);
        prev = e;
      } else {
        if (prev === NONE) this.readerHead[key] = next;
        else this.readNext[prev] = next;
        this.readerEntries[key] -= 1;
        this.stale[key] -= 1;
        this.readNumbers.release(e);
      }
      e = next;
    }
    return live;
  }

  /** The frames that read a key in their current generation. */
  readers(key: number): number[] {
    if (this.readerHead[key] === NONE) return [];
    return this.dropStale(key);
  }

  /** Whether anything reads the key. */
  hasReaders(key: number): boolean {
    return this.readerHead[key] !== NONE;
  }

  /** A frame moves on: its reads become stale. */
  forgetReads(frame: number) {
    // A frame of a one-shot load has no list of reads (see addFrame).
    if (frame >= this.frameReads.length) return;
    for (
      let e = this.frameReads[frame];
      e !== NONE;
      e = this.readOfFrameNext[e]
    ) {
      const key = this.readKey[e];
      this.stale[key] += 1;
      if (this.memberCount[key] === 0) this.maybeUnused.push(key);
    }
    this.frameReads[frame] = NONE;
  }

  /** How much the index holds: map entries and records in use (for tests of what it lets go). */
  sizes() {
    let names = 0;
    for (const kinds of this.names.values())
      for (const kindKeys of kinds.kinds.values()) names += kindKeys.names.size;
    let podLabels = 0;
    for (const labels of this.podLabels.values())
      for (const values of labels.values()) podLabels += values.size;
    let others = this.slashedIds.size;
    for (const map of [...this.stems.values(), ...this.references.values()])
      others += map.size;
    return {
      names,
      uids: this.uids.size,
      podLabels,
      others,
      keys: this.keys.inUse,
      members: this.memberNumbers.inUse,
      reads: this.readNumbers.inUse,
    };
  }

  // ---- dropping -----------------------------------------------------------------

  private unused(key: number): boolean {
    return (
      this.memberCount[key] === 0 &&
      (this.missing[key]?.length ?? 0) === 0 &&
      this.stale[key] === this.readerEntries[key]
    );
  }

  /** A key whose Missing entries or members may all be gone. */
  mayBeUnused(key: number) {
    this.maybeUnused.push(key);
  }

  /** Drops the keys nothing holds or reads any more. */
  dropUnused() {
    const candidates = this.maybeUnused;
    if (candidates.length === 0) return;
    this.maybeUnused = [];
    for (const key of candidates) {
      const home = this.home[key];
      if (
        home === undefined ||
        home.get(this.keyName[key]) !== key ||
        !this.unused(key)
      )
        continue;
      home.delete(this.keyName[key]);
      for (let e = this.readerHead[key]; e !== NONE; ) {
        const next = this.readNext[e];
        this.readNumbers.release(e);
        e = next;
      }
      this.readerHead[key] = NONE;
      this.home[key] = undefined;
      this.keys.release(key);
    }
  }
}
