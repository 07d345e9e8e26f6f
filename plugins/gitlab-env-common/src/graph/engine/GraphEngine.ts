import {
  ComputeHealthOptions,
  computeHealth,
} from '../../health/computeHealth';
import {
  emptyHealthCounts,
  healthSeverity,
  rollupSeverity,
} from '../../health/aggregate';
import { isRecord } from '../../k8s/objects';
import {
  HEALTH_STATUSES,
  HealthStatus,
  HealthSummary,
  KubernetesObject,
  ResourceEdgeType,
  ResourceGraph,
  ResourceGraphPatch,
  ResourceKey,
  ResourceNode,
  WatchEvent,
} from '../../types';
import { counted } from '../summarizeGraphHealth';
import { compareIds } from '../forestOrder';
import { serviceSelector } from '../references';
import { BUILTIN_RELATIONS, REFERENCE_LABELS, RelationSet } from '../relations';
import { RelationContext } from '../relations/types';
import { hasResourceKey, namespaceOf, resourceId } from '../../k8s/resourceId';
import { BidTable } from './bids';
import {
  Arena,
  Marks,
  NO_INT32,
  NO_INT8,
  NO_UINT8,
  capacityFor,
  inOneBuffer,
  listWithRoom,
} from './columns';
import { sameItem, sameLabels, selectorMatches } from './compare';
import { EngineContext, EngineLookups } from './context';
import { EDGE_TYPE_NUMBER, EdgeChanges, EdgeTable } from './edges';
import { Forest, ForestNodes } from './forest';
import { FrameTable, MissingEntry, listedEntries } from './frames';
import {
  FIXED,
  IdPrefix,
  KeyIndex,
  KindKeys,
  POD_LABEL,
  isSlashed,
} from './keys';
import {
  ApiVersions,
  copyNode,
  isNewer,
  missingNode,
  objectNode,
  sameNode,
} from './nodes';

const NONE = -1;
/** Index of the count of nodes whose health does not roll up. */
const NO_HEALTH = HEALTH_STATUSES.length;
const MISSING_SEVERITY = healthSeverity('Missing');
/** The place of Missing entries in the input: after every object. */
const LAST = 0x7fffffff;
const NO_SLOTS: readonly number[] = [];
const NO_FRAMES: readonly number[] = [];
const NO_FIELDS: Readonly<Record<string, unknown>> = Object.freeze({});
const OWNS = EDGE_TYPE_NUMBER.get('owns')!;
const MANAGES = EDGE_TYPE_NUMBER.get('manages')!;

/** How the engine judges and relates objects. */
export interface EngineOptions {
  /** Health options: adopters' rules (see createHealthRuleSet). */
  health?: ComputeHealthOptions;
  /** The relation sources edges are inferred with (see createRelationSet); the built-in ones by default. */
  relations?: RelationSet;
  /** Why the environment never acts on an object (see readOnlyOf), kept on its node as `readOnly`. */
  readOnly?: (key: ResourceKey, object: KubernetesObject) => string | undefined;
  /**
   * Whether events will be applied (the default). A one-shot load (a
   * read) records neither what inferences read nor what they added:
   * nothing will make them run again.
   */
  watch?: boolean;
}

function severityOf(node: ResourceNode): number {
  // Most often none yet: a one-shot load assesses health after (see assessHealth).
  if (node.health === undefined) return NONE;
  return rollupSeverity(node.health);
}

type KeyedObject = KubernetesObject & {
  kind: string;
  metadata: { name: string };
};

/**
 * The one graph engine: the dependency graph of an environment's objects
 * with health, edges, the ownership forest and its roll-up, loaded in bulk
 * (a read, a live graph's start) or kept up to date one watch event at a
 * time by the same code: loading is applying every object at once.
 *
 * Nodes live in numbered slots, and what the engine keeps about them
 * (keys, reads, edges, bids, the forest) in typed columns. Every lookup a
 * relation source makes reads a key (a uid, a kind and name, a label
 * pair, ...) and is recorded there: when a node joins or leaves the key, or
 * changes its labels, the readers infer again. An apply upserts and
 * deletes, infers again every origin marked (in input order), settles the
 * forest (parents, cycles, children, roll-up) for the nodes whose bids or
 * health changed, and reports what changed. Nodes handed out are never
 * changed: an apply copies a node it changes, unless the node is new in it.
 */
export class GraphEngine implements EngineLookups, ForestNodes {
  // Lists per slot are made with room for what is reserved (see listWithRoom).
  nodes: Array<ResourceNode | undefined> = [];
  private objectsOf: Array<KubernetesObject | undefined> = [];
  /**
   * The id prefix shared by a node's id (`group/Kind/namespace/`), for
   * nodes of unslashed keys from objects: ids are compared by prefix and
   * name, never flattened.
   */
  private prefixes: Array<IdPrefix | undefined> = [];
  /** The name keys of each object node's kind and namespace. */
  private kindKeysOf: Array<KindKeys | undefined> = [];
  /** Those of the last object upserted: lists come kind by kind. */
  private lastKindKeys: KindKeys | undefined = undefined;
  /** Place in the input: the order objects were first added; Missing entries after all. */
  private orders = NO_INT32;
  private severities = NO_INT8;
  /** The frame of each origin's whole inference. */
  private frameOf = NO_INT32;
  /** The item frames of an origin's last inference, in list order. */
  private readonly itemsOf: Array<number[] | undefined> = [];
  /** The apply a slot was filled in, and the last that upserted its object. */
  private bornIn = NO_INT32;
  private upsertedIn = NO_INT32;
  private releasedNow = NO_UINT8;
  private slotCount = 0;
  /** The most nodes reserved room for. */
  private reserved = 0;
  private readonly freeSlots: number[] = [];
  private nextOrder = 0;
  /**
   * While a one-shot engine's first load runs: the first slot it filled,
   * whose objects' health and uids are assessed and joined in passes after
   * every object is in (see assessHealth, joinUids); else NONE.
   */
  private deferredFrom = NONE;
  private objectTotal = 0;
  /** Nodes per own severity, and at NO_HEALTH those whose health does not roll up. */
  private readonly counts: number[] = new Array(NO_HEALTH + 1).fill(0);
  private readonly frames = new FrameTable();
  private readonly keys = new KeyIndex(this.frames);
  private readonly edges = new EdgeTable(this);
  private readonly bids: BidTable;
  private readonly forest = new Forest(this);
  private readonly apiVersions = new ApiVersions();
  private readonly relations: RelationSet;
  private readonly healthOptions: ComputeHealthOptions | undefined;
  private readonly readOnly: EngineOptions['readOnly'];
  private readonly watching: boolean;
  private readonly contexts: EngineContext[] = [];
  private depth = 0;
  private readonly markParent = (target: number) =>
    this.forest.markParent(target);

  // State of the apply in progress.
  private applying = 0;
  /** Origins to infer again. */
  private readonly dirty = new Marks();
  private dirtyItems = new Set<number>();
  /** While an origin is inferred again: its items' last frames, by place. */
  private reusable: readonly number[] = NO_FRAMES;
  private inferring = NONE;
  /** In a one-shot load: the place of the last item of the origin being inferred. */
  private oneShotPlace = 0;
  private before = new Map<number, ResourceNode>();
  private born: number[] = [];
  private released: number[] = [];
  private upserted: number[] = [];
  private removedObjects: string[] = [];

  constructor(options: EngineOptions = {}) {
    this.relations = options.relations ?? BUILTIN_RELATIONS;
    this.healthOptions = options.health;
    this.readOnly = options.readOnly;
    this.watching = options.watch ?? true;
    this.bids = new BidTable(this.watching);
  }

  /**
   * Adds a list of objects, as a read lists them: malformed ones are
   * skipped, and of duplicates the newest resourceVersion wins (else the
   * later copy), keeping the place of the first.
   */
  load(objects: readonly KubernetesObject[]) {
    const list = Array.isArray(objects) ? objects : [];
    this.reserve(this.slotCount + list.length);
    this.begin();
    // A one-shot engine's first load: nothing reads a uid or a health
    // before every object is in (see assessHealth, joinUids).
    this.deferredFrom = !this.watching && this.slotCount === 0 ? 0 : NONE;
    // Indexed: load runs once per read, mostly before the optimizer has
    // compiled it, and a for...of loop there calls the array iterator per
    // object.
    for (let at = 0; at < list.length; at++) {
      const object = list[at];
      if (isRecord(object) && hasResourceKey(object)) this.upsert(object, true);
    }
    if (this.deferredFrom !== NONE) {
      this.assessHealth();
      this.joinUids();
      this.deferredFrom = NONE;
    }
    this.settle(false);
  }

  /**
   * Assesses the health of the objects of the slots filled since
   * `deferredFrom`, in slot order: the health rules run one after another
   * in a loop of their own rather than between the building of nodes,
   * which together are more code than the processor keeps at hand.
   */
  private assessHealth() {
    for (let slot = this.deferredFrom; slot < this.slotCount; slot++) {
      const object = this.objectsOf[slot];
      if (object === undefined) continue;
      const node = this.nodes[slot]!;
      node.health = computeHealth(object, this.healthOptions);
      this.severities[slot] = severityOf(node);
      this.count(slot, this.severities[slot], 1);
    }
  }

  /**
   * Joins the uids (and labels, none indexed yet) of the slots filled since
   * `deferredFrom`, in slot order: one map filled in a tight loop rather
   * than between the building of nodes, which leaves it out of cache.
   */
  private joinUids() {
    for (let slot = this.deferredFrom; slot < this.slotCount; slot++)
      if (this.objectsOf[slot] !== undefined)
        this.keys.joinVariable(slot, this.nodes[slot]!, this.objectsOf[slot]!);
  }

  /**
   * Applies watch events in order and reports what changed in the graph.
   * Events without a kind or a name are ignored; a later event on an
   * object wins over an earlier one.
   */
  apply(events: WatchEvent | readonly WatchEvent[]): ResourceGraphPatch {
    if (!this.watching)
      throw new Error('A one-shot graph (watch: false) takes no events');
    const countsBefore = this.counts.slice();
    const list = Array.isArray(events) ? events : [events];
    // A live environment's first batch is its whole list: room for it at once.
    if (this.slotCount === 0 && list.length > 1) this.reserve(list.length);
    this.begin();
    for (const event of list) {
      const object = event?.object;
      if (!isRecord(object) || !hasResourceKey(object)) continue;
      if (event.type === 'DELETED') this.delete(object);
      else this.upsert(object, false);
    }
    const patch = this.settle(true)!;
    if (this.counts.some((count, at) => count !== countsBefore[at]))
      patch.health = this.health();
    return patch;
  }

  /** The graph: nodes parents first, children and roots by id. */
  graph(): ResourceGraph {
    const { nodes } = this;
    const roots: number[] = [];
    let live = 0;
    for (let slot = 0; slot < this.slotCount; slot++) {
      if (nodes[slot] === undefined) continue;
      live += 1;
      if (this.forest.isRoot(slot)) roots.push(slot);
    }
    this.keys.idPrefixes.rank();
    roots.sort(this.compareSlots);
    // Sized once: every node is in the tree of one root.
    const ordered: ResourceNode[] = new Array(live);
    let count = 0;
    const stack = new Int32Array(live);
    let depth = 0;
    for (let r = roots.length - 1; r >= 0; r--) stack[depth++] = roots[r];
    while (depth > 0) {
      const slot = stack[--depth];
      ordered[count++] = nodes[slot]!;
      const children = this.forest.childrenOf(slot);
      for (let c = children.length - 1; c >= 0; c--)
        stack[depth++] = children[c];
    }
    ordered.length = count;
    const rootIds: string[] = new Array(roots.length);
    for (let r = 0; r < roots.length; r++) rootIds[r] = nodes[roots[r]]!.id;
    return {
      nodes: ordered,
      edges: this.edges.edges(this.watching),
      roots: rootIds,
    };
  }

  /** The objects, in the order they were first added (a modified object keeps its place). */
  objects(): KubernetesObject[] {
    const held: number[] = [];
    for (let slot = 0; slot < this.slotCount; slot++)
      if (this.objectsOf[slot] !== undefined) held.push(slot);
    held.sort((a, b) => this.orders[a] - this.orders[b]);
    return held.map(slot => this.objectsOf[slot]!);
  }

  objectCount(): number {
    return this.objectTotal;
  }

  /** Counts per status over the resources (Events aside), as `summarizeGraphHealth` gives them. */
  health(): HealthSummary {
    const counts = emptyHealthCounts();
    let status: HealthStatus = 'Healthy';
    let total = 0;
    HEALTH_STATUSES.forEach((name, severity) => {
      counts[name] = this.counts[severity];
      total += this.counts[severity];
      if (this.counts[severity] > 0) status = name;
    });
    counts.none = this.counts[NO_HEALTH];
    total += counts.none;
    return { status, counts, total };
  }

  node(id: string): ResourceNode | undefined {
    const slot = this.slotOf(id);
    return slot === undefined ? undefined : this.nodes[slot];
  }

  object(id: string): KubernetesObject | undefined {
    const slot = this.slotOf(id);
    return slot === undefined ? undefined : this.objectsOf[slot];
  }

  private slotOf(id: string): number | undefined {
    if (typeof id !== 'string') return undefined;
    const found = this.keys.heldIdentity(id);
    if (!found) return undefined;
    const { held, group } = found;
    const real = this.memberOfGroup(held, group);
    if (real !== undefined || held < 0) return real;
    return this.keys.missing[held]?.find(
      entry => group === undefined || entry.key.group === group,
    )?.slot;
  }

  /**
   * The node from an object of the group (any, for a slashed key's) among
   * those an identity key holds (a key, or `-1 - slot` for a lone node).
   */
  private memberOfGroup(held: number | undefined, group: string | undefined) {
    if (held === undefined) return undefined;
    if (held < 0) {
      const slot = -1 - held;
      return group === undefined || this.nodes[slot]!.group === group
        ? slot
        : undefined;
    }
    const { memberSlot, memberNext } = this.keys;
    for (let e = this.keys.memberHead[held]; e !== NONE; e = memberNext[e]) {
      const slot = memberSlot[e];
      if (group === undefined || this.nodes[slot]!.group === group) return slot;
    }
    return undefined;
  }

  // ---- nodes ---------------------------------------------------------

  private begin() {
    this.applying += 1;
    this.edges.begin(this.applying);
  }

  private reserve(nodes: number) {
    // Every table has room for as many nodes as reserved before.
    if (nodes <= this.reserved) return;
    this.reserved = nodes;
    // Every table's columns in one buffer (see Arena).
    inOneBuffer(this, nodes, this.reserveIn);
  }

  private reserveIn(nodes: number, arena: Arena) {
    if (nodes > this.orders.length) this.growSlots(nodes, arena);
    // A one-shot load records no reads and no additions: no room for them.
    this.keys.reserve(nodes, this.watching, arena);
    this.edges.reserve(nodes, this.watching, arena);
    this.bids.reserve(nodes, arena);
    this.frames.reserve(nodes * 2, arena);
    this.forest.reserve(nodes, arena);
    this.dirty.reserve(nodes, arena);
  }

  private growSlots(size: number, arena: Arena) {
    if (arena.making) {
      const room = capacityFor(this.orders.length, size);
      this.nodes = listWithRoom(this.nodes, room);
      this.objectsOf = listWithRoom(this.objectsOf, room);
      this.prefixes = listWithRoom(this.prefixes, room);
      this.kindKeysOf = listWithRoom(this.kindKeysOf, room);
    }
    this.orders = arena.grown(this.orders, size);
    this.frameOf = arena.grown(this.frameOf, size, NONE);
    this.bornIn = arena.grown(this.bornIn, size);
    this.upsertedIn = arena.grown(this.upsertedIn, size);
    this.severities = arena.grown(this.severities, size);
    this.releasedNow = arena.grown(this.releasedNow, size);
  }

  private allocate(node: ResourceNode, order: number, severity: number) {
    let slot = this.freeSlots.pop();
    // A slot never used before holds its columns' initial values.
    const reused = slot !== undefined;
    if (slot === undefined) {
      slot = this.slotCount++;
      if (slot >= this.orders.length)
        inOneBuffer(this, slot + 1, this.growSlots);
    }
    this.nodes[slot] = node;
    this.orders[slot] = order;
    this.severities[slot] = severity;
    this.frameOf[slot] = NONE;
    this.bornIn[slot] = this.applying;
    this.releasedNow[slot] = 0;
    if (this.watching) this.born.push(slot);
    this.keys.addSlot(slot, reused);
    this.bids.addSlot(slot, reused);
    this.forest.add(slot, reused);
    // A one-shot load counts its nodes as it assesses them (see assessHealth).
    if (this.deferredFrom === NONE) this.count(slot, severity, 1);
    return slot;
  }

  private release(slot: number) {
    // Remembered as it was, so the patch reports it removed.
    this.writable(slot);
    this.count(slot, this.severities[slot], -1);
    this.released.push(slot);
    this.releasedNow[slot] = 1;
    this.forest.remove(slot);
  }

  private count(slot: number, severity: number, delta: number) {
    if (!counted(this.nodes[slot]!)) return;
    this.counts[severity < 0 ? NO_HEALTH : severity] += delta;
  }

  /** A node's own severity changes. */
  private recount(slot: number, severity: number) {
    const before = this.severities[slot];
    if (severity === before) return;
    this.severities[slot] = severity;
    if (!counted(this.nodes[slot]!)) return;
    this.counts[before < 0 ? NO_HEALTH : before] -= 1;
    this.counts[severity < 0 ? NO_HEALTH : severity] += 1;
  }

  private newFrame(origin: number, place: number): number {
    const frame = this.frames.take(origin, place);
    if (this.watching) this.keys.addFrame(frame);
    this.edges.addFrame(frame, this.watching);
    this.bids.addFrame(frame);
    return frame;
  }

  /** The node of a slot to change: copied once per apply unless new in it, so nodes handed out never change. */
  writable(slot: number): ResourceNode {
    const node = this.nodes[slot]!;
    if (this.bornIn[slot] === this.applying || this.before.has(slot))
      return node;
    this.before.set(slot, node);
    // childIds is replaced, never changed in place, so it is shared.
    const copy = copyNode(node);
    this.nodes[slot] = copy;
    return copy;
  }

  /**
   * Orders nodes as their ids compare (code unit order). Two prefixes of
   * unslashed keys (three `/` each, the last at their end) never start one
   * another, so ids order as their prefixes do (by rank, see IdPrefixes)
   * or, for one prefix, as the names do.
   */
  readonly compareSlots = (a: number, b: number): number => {
    const prefixA = this.prefixes[a];
    const prefixB = this.prefixes[b];
    if (prefixA === undefined || prefixB === undefined)
      return compareIds(this.nodes[a]!.id, this.nodes[b]!.id);
    if (prefixA === prefixB)
      return compareIds(this.nodes[a]!.name, this.nodes[b]!.name);
    return prefixA.rank - prefixB.rank;
  };

  alive(slot: number): boolean {
    return this.nodes[slot] !== undefined && this.releasedNow[slot] === 0;
  }

  ownSeverity(slot: number): number {
    return this.severities[slot];
  }

  bestParent(slot: number): number {
    return this.bids.best(slot, this.orders);
  }

  /** The node from an object of this key, if any; nothing is made. */
  private realSlotOf(key: ResourceKey, slashed: boolean): number | undefined {
    return slashed
      ? this.memberOfGroup(this.keys.heldSlashed(resourceId(key)), undefined)
      : this.memberOfGroup(
          this.keys.heldByName(key.namespace, key.kind, key.name),
          key.group,
        );
  }

  private upsert(object: KeyedObject, keepNewer: boolean) {
    const { group, version } = this.apiVersions.parse(object.apiVersion);
    const kind = object.kind;
    const namespace = namespaceOf(object);
    const name = object.metadata.name;
    let kindKeys = this.lastKindKeys;
    if (
      kindKeys === undefined ||
      kindKeys.kind !== kind ||
      kindKeys.namespace !== namespace
    )
      this.lastKindKeys = kindKeys = this.keys.kindsOf(namespace).of(kind);
    // The group never holds a `/` (see isSlashed).
    const slashed = kindKeys.slashed || name.includes('/');
    const slashedId = slashed
      ? resourceId({ group, kind, namespace, name })
      : undefined;
    const heldName = this.keys.heldName(kindKeys, name);
    const existing =
      slashedId === undefined
        ? this.memberOfGroup(heldName, group)
        : this.memberOfGroup(this.keys.heldSlashed(slashedId), undefined);
    if (existing === undefined) {
      const prefix =
        slashedId === undefined ? kindKeys.prefixOf(group) : undefined;
      const id = slashedId ?? prefix!.text + name;
      const node = objectNode(
        object,
        group,
        namespace,
        id,
        version,
        this.assessedNow(object),
        this.readOnly,
      );
      const slot = this.allocate(node, this.nextOrder++, severityOf(node));
      this.objectsOf[slot] = object;
      this.prefixes[slot] = prefix;
      this.kindKeysOf[slot] = kindKeys;
      this.keys.joinAll(
        slot,
        node,
        object,
        kindKeys,
        heldName,
        slashed,
        this.deferredFrom === NONE,
      );
      this.notifyAll(this.keys.takeChanged(), object, undefined);
      this.objectTotal += 1;
      this.markDirty(slot);
      this.markUpserted(slot);
      return;
    }
    const previous = this.objectsOf[existing]!;
    if (keepNewer && isNewer(previous, object)) return;
    const current = this.writable(existing);
    const fresh = objectNode(
      object,
      group,
      namespace,
      current.id,
      version,
      this.assessedNow(object),
      this.readOnly,
    );
    current.version = fresh.version;
    current.uid = fresh.uid;
    current.resourceVersion = fresh.resourceVersion;
    current.health = fresh.health;
    current.readOnly = fresh.readOnly;
    this.recount(existing, severityOf(current));
    this.forest.markHealth(existing);
    this.objectsOf[existing] = object;
    if (
      this.deferredFrom === NONE &&
      (!sameLabels(previous.metadata?.labels, object.metadata.labels) ||
        previous.metadata?.uid !== object.metadata.uid)
    ) {
      // Readers of any of its keys may read its labels.
      this.keys.leave(existing, current, previous, false);
      this.keys.joinVariable(existing, current, object);
      this.notifyAll(this.keys.keysOf(existing), object, previous);
      this.notifyAll(this.keys.takeChanged(), object, previous);
    }
    this.markDirty(existing);
    this.markUpserted(existing);
  }

  /** An object's health, unless the load assesses it later (see assessHealth). */
  private assessedNow(object: KubernetesObject) {
    return this.deferredFrom === NONE
      ? computeHealth(object, this.healthOptions)
      : undefined;
  }

  private delete(object: KeyedObject) {
    const key: ResourceKey = {
      group: this.apiVersions.parse(object.apiVersion).group,
      kind: object.kind,
      namespace: namespaceOf(object),
      name: object.metadata.name,
    };
    const slot = this.realSlotOf(key, isSlashed(key));
    if (slot === undefined) return;
    const held = this.objectsOf[slot]!;
    this.keys.leave(slot, this.nodes[slot]!, held, true);
    this.notifyAll(this.keys.takeChanged(), undefined, held);
    const frames = this.itemsOf[slot] ?? [];
    if (this.frameOf[slot] !== NONE) frames.push(this.frameOf[slot]);
    for (const frame of frames) {
      this.forget(frame);
      this.unlistStale(frame, undefined);
      this.dirtyItems.delete(frame);
      this.frames.release(frame);
    }
    this.frameOf[slot] = NONE;
    this.itemsOf[slot] = undefined;
    this.removedObjects.push(this.nodes[slot]!.id);
    this.objectTotal -= 1;
    this.release(slot);
  }

  private markDirty(slot: number) {
    this.dirty.add(slot);
  }

  private markUpserted(slot: number) {
    if (!this.watching || this.upsertedIn[slot] === this.applying) return;
    this.upsertedIn[slot] = this.applying;
    this.upserted.push(slot);
  }

  // ---- what reads what ---------------------------------------------------

  private notifyAll(
    keys: readonly number[],
    object: KubernetesObject | undefined,
    previous: KubernetesObject | undefined,
  ) {
    for (let at = 0; at < keys.length; at++)
      this.notify(keys[at], object, previous, NONE);
  }

  /**
   * Marks the readers of a key whose nodes changed for inference. Services
   * that read a Pod label pair are marked only when their selector matches
   * the Pod before or after.
   */
  private notify(
    key: number,
    object: KubernetesObject | undefined,
    previous: KubernetesObject | undefined,
    except: number,
  ) {
    if (!this.keys.hasReaders(key)) return;
    const podLabel = this.keys.isPodLabel(key);
    for (const reader of this.keys.readers(key)) {
      if (reader === except) continue;
      const origin = this.frames.origin[reader];
      if (podLabel && !this.selectorReaches(origin, object, previous)) continue;
      if (this.frames.isItem(reader)) this.dirtyItems.add(reader);
      else this.markDirty(origin);
    }
  }

  private selectorReaches(
    service: number,
    object: KubernetesObject | undefined,
    previous: KubernetesObject | undefined,
  ): boolean {
    const selector = serviceSelector(this.objectsOf[service]!);
    if (!selector) return false;
    return (
      (object !== undefined &&
        selectorMatches(object.metadata?.labels, selector)) ||
      (previous !== undefined &&
        selectorMatches(previous.metadata?.labels, selector))
    );
  }

  /**
   * Drops what an inference added and read; the entries it held Missing
   * stay until it runs again and shows which it still lists.
   */
  private forget(frame: number) {
    this.frames.generation[frame] += 1;
    this.keys.forgetReads(frame);
    this.edges.forget(frame);
    this.bids.forget(frame, this.markParent);
  }

  /** Lets go of the Missing entries an inference listed before and no longer does. */
  private unlistStale(
    frame: number,
    stillListed: ReadonlySet<MissingEntry> | undefined,
  ) {
    const listed = this.frames.listed[frame];
    if (listed !== undefined && listed.size > 0)
      for (const entry of listed)
        if (!stillListed?.has(entry)) this.unlist(entry, frame);
    if (listed !== undefined || (stillListed?.size ?? 0) > 0)
      this.frames.listed[frame] = listedEntries(stillListed);
  }

  // ---- Missing inventory entries ------------------------------------------

  /** Whether frame `a` infers before `b`: by origin in input order, then place. */
  private earlier(a: number, b: number): boolean {
    const { origin, place } = this.frames;
    const orderA = this.orders[origin[a]];
    const orderB = this.orders[origin[b]];
    return orderA === orderB ? place[a] < place[b] : orderA < orderB;
  }

  /** The first inventory listing an entry: its message and version are the node's. */
  private firstLister(entry: MissingEntry): number | undefined {
    let first: number | undefined;
    for (const lister of entry.listers.keys())
      if (first === undefined || this.earlier(lister, first)) first = lister;
    return first;
  }

  private missingIn(
    key: number,
    group: string,
    slashed: boolean,
  ): MissingEntry | undefined {
    const missing = this.keys.missing[key];
    if (missing === undefined) return undefined;
    return slashed ? missing[0] : missing.find(e => e.key.group === group);
  }

  private list(
    identity: number,
    key: ResourceKey,
    slashed: boolean,
    version: string,
    context: EngineContext,
  ): number {
    const { frame } = context;
    let entry = this.missingIn(identity, key.group, slashed);
    if (!entry) {
      const id = resourceId(key);
      const origin = this.frames.origin[frame];
      const slot = this.allocate(
        missingNode(key, id, version, this.nodes[origin]!),
        LAST,
        MISSING_SEVERITY,
      );
      entry = { key, id, slot, identity, listers: new Map() };
      (this.keys.missing[identity] ??= []).push(entry);
      this.notify(identity, undefined, undefined, frame);
    }
    const listing = (context.listing ??= new Set());
    // An inventory's first entry for a key is the one that counts.
    if (listing.has(entry)) return entry.slot;
    listing.add(entry);
    if (entry.listers.get(frame) === version) return entry.slot;
    const first = this.firstLister(entry);
    entry.listers.set(frame, version);
    if (first !== undefined && (first === frame || this.earlier(frame, first)))
      this.relabelMissing(entry, frame);
    return entry.slot;
  }

  private unlist(entry: MissingEntry, frame: number) {
    if (!entry.listers.has(frame)) return;
    const wasFirst = this.firstLister(entry) === frame;
    entry.listers.delete(frame);
    if (entry.listers.size === 0) {
      const missing = this.keys.missing[entry.identity]!;
      missing.splice(missing.indexOf(entry), 1);
      this.keys.mayBeUnused(entry.identity);
      this.release(entry.slot);
      this.notify(entry.identity, undefined, undefined, NONE);
    } else if (wasFirst) {
      this.relabelMissing(entry, NONE);
    }
  }

  /** Names the entry's first inventory in its message, and readers see the change. */
  private relabelMissing(entry: MissingEntry, except: number) {
    const first = this.firstLister(entry)!;
    const fresh = missingNode(
      entry.key,
      entry.id,
      entry.listers.get(first)!,
      this.nodes[this.frames.origin[first]]!,
    );
    const node = this.writable(entry.slot);
    node.version = fresh.version;
    node.health = fresh.health;
    this.notify(entry.identity, undefined, undefined, except);
  }

  // ---- inference ----------------------------------------------------------

  private enter(frame: number): EngineContext {
    const context = (this.contexts[this.depth] ??= new EngineContext(this));
    this.depth += 1;
    const origin = this.frames.origin[frame];
    const node = this.nodes[origin]!;
    context.frame = frame;
    context.origin = origin;
    context.node = node;
    context.object = this.objectsOf[origin]!;
    context.kinds = this.kindKeysOf[origin]!.kinds;
    context.listing = undefined;
    return context;
  }

  private leave() {
    this.depth -= 1;
  }

  /** Infers an origin's edges again, list items included. */
  private infer(origin: number) {
    const previous = this.frameOf[origin];
    if (previous !== NONE) this.forget(previous);
    // Items the object still holds, unchanged at the same place, keep their
    // inference (and stay marked if what they read changed).
    const reusable = this.itemsOf[origin] ?? NO_FRAMES;
    this.reusable = reusable;
    // A one-shot load keeps no items (see item).
    if (reusable !== NO_FRAMES) this.itemsOf[origin] = undefined;
    const frame = this.newFrame(origin, 0);
    this.frameOf[origin] = frame;
    const context = this.enter(frame);
    this.inferring = origin;
    this.oneShotPlace = 0;
    const { group, kind } = context.node;
    const sources = this.relations.sourcesOf(group, kind);
    for (let at = 0; at < sources.length; at++) {
      try {
        sources[at].infer(context);
      } catch {
        // An adopter's source failed on this object: what it added stays.
      }
    }
    this.inferring = NONE;
    this.leave();
    this.keepListed(frame, context);
    this.reusable = NO_FRAMES;
    // After the new inference listed its entries, so an entry still listed stays.
    if (previous !== NONE) {
      this.unlistStale(previous, undefined);
      this.frames.release(previous);
    }
    const kept = this.itemsOf[origin];
    for (let at = 0; at < reusable.length; at++) {
      const stale = reusable[at];
      if (kept?.[at] === stale) continue;
      this.forget(stale);
      this.dirtyItems.delete(stale);
      this.unlistStale(stale, undefined);
      this.frames.release(stale);
    }
  }

  /** Runs one list item's inference again. */
  private inferItem(frame: number) {
    this.forget(frame);
    const context = this.enter(frame);
    try {
      this.frames.run[frame]!(this.frames.item[frame], context);
    } catch {
      // As in infer.
    }
    this.leave();
    this.unlistStale(frame, context.listing);
  }

  item(
    parent: number,
    item: unknown,
    run: (item: any, context: RelationContext) => void,
  ) {
    const origin = this.frames.origin[parent];
    if (this.inferring !== origin || this.frames.isItem(parent)) {
      // A list within an item: part of the item's inference.
      run(item, this.contexts[this.depth - 1]);
      return;
    }
    if (!this.watching) {
      // A one-shot load runs nothing again: the item's frame is kept only
      // for its place among the origin's bids and Missing entries' listers.
      this.runItem(this.newFrame(origin, ++this.oneShotPlace), item, run);
      return;
    }
    let list = this.itemsOf[origin];
    if (list === undefined) this.itemsOf[origin] = list = [];
    const place = list.length + 1;
    const same = this.reusable[list.length];
    if (
      same !== undefined &&
      this.frames.run[same] === run &&
      sameItem(this.frames.item[same], item)
    ) {
      this.frames.item[same] = item;
      list.push(same);
      return;
    }
    const frame = this.newFrame(origin, place);
    this.frames.run[frame] = run;
    this.frames.item[frame] = item;
    list.push(frame);
    this.runItem(frame, item, run);
  }

  private runItem(
    frame: number,
    item: unknown,
    run: (item: any, context: RelationContext) => void,
  ) {
    const context = this.enter(frame);
    try {
      run(item, context);
    } catch {
      // As in infer.
    }
    this.leave();
    this.keepListed(frame, context);
  }

  /**
   * Keeps the Missing entries an inference listed, for when it runs again
   * (see unlistStale): a one-shot load runs nothing again, and keeps none.
   */
  private keepListed(frame: number, context: EngineContext) {
    if (this.watching && context.listing !== undefined)
      this.frames.listed[frame] = listedEntries(context.listing);
  }

  /** See KeyIndex.look: in a one-shot load, nothing is recorded. */
  private look(
    home: Map<string, number>,
    name: string,
    flags: number,
    frame: number,
  ): number | undefined {
    return this.keys.look(home, name, flags, frame, this.watching);
  }

  byUid(frame: number, uid: string) {
    if (typeof uid !== 'string') return undefined;
    const held = this.look(this.keys.uidHome, uid, 0, frame);
    if (held === undefined || held < 0) return this.keys.firstOf(held);
    // The last in input order.
    const { memberSlot, memberNext } = this.keys;
    let found: number | undefined;
    for (let e = this.keys.memberHead[held]; e !== NONE; e = memberNext[e]) {
      const slot = memberSlot[e];
      if (found === undefined || this.orders[slot] > this.orders[found])
        found = slot;
    }
    return found;
  }

  byKindName(context: EngineContext, kind: string, name: unknown) {
    if (typeof name !== 'string' || typeof kind !== 'string') return undefined;
    const home = this.keys.nameHome(context.kinds, kind);
    // Members join in input order: the first is the earliest.
    return this.keys.firstOf(this.look(home, name, FIXED, context.frame));
  }

  /**
   * The node of a key: from an object, else a Missing entry an inventory
   * before the origin lists (the bulk load finds those in input order).
   */
  exact(frame: number, key: ResourceKey) {
    const slashed = isSlashed(key);
    const [home, name] = this.keys.identityHome(key, slashed);
    const held = this.look(home, name, FIXED, frame);
    const real = this.memberOfGroup(held, slashed ? undefined : key.group);
    if (real !== undefined || held === undefined || held < 0) return real;
    const entry = this.missingIn(held, key.group, slashed);
    if (!entry) return undefined;
    const order = this.orders[this.frames.origin[frame]];
    for (const lister of entry.listers.keys())
      if (this.orders[this.frames.origin[lister]] < order) return entry.slot;
    return undefined;
  }

  selectPods(frame: number, selector: Record<string, unknown>) {
    const { namespace } = this.nodes[this.frames.origin[frame]]!;
    let smallestSize = 0;
    let smallestHome: Map<string, number> | undefined;
    let smallestValue = '';
    const labels = Object.keys(selector);
    this.indexPodLabels(namespace, selector, labels);
    for (const label of labels) {
      const value = selector[label];
      if (typeof value !== 'string') continue;
      const home = this.keys.podLabelHome(namespace, label)!;
      const size = this.keys.countOf(home.get(value));
      if (smallestHome === undefined || size < smallestSize) {
        smallestSize = size;
        smallestHome = home;
        smallestValue = value;
      }
    }
    const selected: number[] = [];
    if (smallestHome === undefined) return selected;
    // A Pod the selector matches holds this pair: its changes reach here.
    const held = this.look(smallestHome, smallestValue, POD_LABEL, frame);
    for (const pod of this.keys.slotsOf(held))
      if (
        selectorMatches(this.objectsOf[pod]!.metadata?.labels, selector, labels)
      )
        selected.push(pod);
    return selected;
  }

  claimsByStem(frame: number, stem: string) {
    const origin = this.frames.origin[frame];
    const home = this.keys.stemHome(this.nodes[origin]!.namespace);
    const held = this.look(home, stem, FIXED, frame);
    return held === undefined ? NO_SLOTS : this.keys.slotsOf(held);
  }

  /** In input order: a node's first inventory claims it. */
  byReferenceLabel(frame: number, label: string, value: string) {
    if (!REFERENCE_LABELS.includes(label)) return NO_SLOTS;
    const held = this.look(this.referenceHome(label), value, 0, frame);
    if (held === undefined) return NO_SLOTS;
    return this.keys
      .slotsOf(held)
      .sort((a, b) => this.orders[a] - this.orders[b]);
  }

  /**
   * Indexes the selector's labels not indexed yet in the namespace, from
   * its Pods, all in one pass: each Pod's labels are read once.
   */
  private indexPodLabels(
    namespace: string,
    selector: Record<string, unknown>,
    labels: readonly string[],
  ) {
    let missing: string[] | undefined;
    for (const label of labels)
      if (
        typeof selector[label] === 'string' &&
        this.keys.podLabelHome(namespace, label) === undefined
      )
        (missing ??= []).push(label);
    if (missing === undefined) return;
    const pods: number[] = [];
    const names = this.keys.namesOf(namespace, 'Pod');
    if (names !== undefined)
      for (const held of names.values()) {
        // Most names are held by one node alone: no list to make for it.
        if (held < 0) this.addPod(pods, -1 - held);
        else
          for (const slot of this.keys.slotsOf(held)) this.addPod(pods, slot);
      }
    this.indexLabels(
      missing.map(label => this.keys.addPodLabel(namespace, label)),
      missing,
      pods,
      POD_LABEL,
    );
  }

  private addPod(pods: number[], slot: number) {
    if (this.nodes[slot]!.group === '' && this.holdsObject(slot))
      pods.push(slot);
  }

  /** The values of a reference label, indexed from every object on first use. */
  private referenceHome(label: string): Map<string, number> {
    const indexed = this.keys.referenceHome(label);
    if (indexed !== undefined) return indexed;
    const labelled: number[] = [];
    for (let slot = 0; slot < this.slotCount; slot++)
      if (this.holdsObject(slot)) labelled.push(slot);
    const home = this.keys.addReferenceLabel(label);
    this.indexLabels([home], [label], labelled, 0);
    return home;
  }

  /**
   * Joins the slots' values of labels to their new homes (`homes[i]` for
   * `labels[i]`), in the order their objects came, as if indexed all along.
   */
  private indexLabels(
    homes: ReadonlyArray<Map<string, number>>,
    labels: readonly string[],
    slots: number[],
    flags: number,
  ) {
    if (!this.inOrder(slots))
      slots.sort((a, b) => this.orders[a] - this.orders[b]);
    for (const slot of slots) {
      const held = this.labelsOf(slot);
      for (let at = 0; at < labels.length; at++) {
        const value = held[labels[at]];
        if (typeof value === 'string')
          this.keys.place(homes[at], value, slot, flags);
      }
    }
  }

  /** Whether the slot holds a node built from an object that stays after this apply. */
  private holdsObject(slot: number): boolean {
    return this.objectsOf[slot] !== undefined && this.alive(slot);
  }

  labelsOf(slot: number) {
    const labels = this.objectsOf[slot]?.metadata?.labels;
    return isRecord(labels) ? labels : NO_FIELDS;
  }

  /** A node's key never changes while it lives: reading it is no dependency. */
  nodeAt(slot: number): ResourceNode {
    return this.nodes[slot]!;
  }

  inventoryNode(context: EngineContext, key: ResourceKey, version: string) {
    const slashed = isSlashed(key);
    const [home, name] = this.keys.identityHome(key, slashed);
    const held = this.look(home, name, FIXED, context.frame);
    const real = this.memberOfGroup(held, slashed ? undefined : key.group);
    if (real !== undefined) return real;
    // A Missing entry lives in its identity's key.
    return this.list(
      this.keys.identityKey(home, name),
      key,
      slashed,
      version,
      context,
    );
  }

  add(
    frame: number,
    source: number | undefined,
    target: number | undefined,
    type: ResourceEdgeType,
    rank?: number,
  ) {
    if (source === undefined || target === undefined || source === target)
      return;
    // What an adopter's source passes is checked: handles of live nodes, a known type.
    const typeNumber = EDGE_TYPE_NUMBER.get(type);
    if (
      typeNumber === undefined ||
      this.nodes[source] === undefined ||
      this.nodes[target] === undefined ||
      this.releasedNow[source] === 1 ||
      this.releasedNow[target] === 1
    )
      return;
    const index = this.edges.add(
      frame,
      source,
      target,
      typeNumber,
      this.watching,
    );
    if (
      typeof rank === 'number' &&
      rank >= 0 &&
      (typeNumber === OWNS || typeNumber === MANAGES)
    ) {
      this.bids.add(
        frame,
        this.frames.origin[frame],
        this.frames.place[frame],
        index,
        rank,
        source,
        target,
        this.orders,
      );
      this.forest.markParent(target);
    }
  }

  // ---- settling: inference, forest, patch --------------------------------

  private settle(report: boolean): ResourceGraphPatch | undefined {
    while (this.dirty.size > 0 || this.dirtyItems.size > 0) {
      const count = this.dirty.take();
      let batch = this.dirty.taken;
      // In input order, as objects come; one marked again meanwhile runs again.
      if (!this.inOrder(batch, count))
        batch = batch
          .slice(0, count)
          .sort((a, b) => this.orders[a] - this.orders[b]);
      for (let at = 0; at < count; at++) {
        const origin = batch[at];
        if (this.objectsOf[origin] !== undefined && this.alive(origin))
          this.infer(origin);
      }
      const items = [...this.dirtyItems];
      this.dirtyItems.clear();
      for (const frame of items) {
        const origin = this.frames.origin[frame];
        if (this.objectsOf[origin] !== undefined && this.alive(origin))
          this.inferItem(frame);
      }
    }
    // The forest sorts children by id.
    this.keys.idPrefixes.rank();
    this.forest.settle();
    const edgeChanges = this.edges.settle(report);
    const patch = report ? this.patch(edgeChanges!) : undefined;
    for (const slot of this.released) {
      this.nodes[slot] = undefined;
      this.objectsOf[slot] = undefined;
      this.prefixes[slot] = undefined;
      this.kindKeysOf[slot] = undefined;
      this.itemsOf[slot] = undefined;
      this.releasedNow[slot] = 0;
      this.bids.clearSlot(slot);
      this.freeSlots.push(slot);
    }
    this.keys.dropUnused();
    this.released = [];
    this.born = [];
    this.upserted = [];
    this.removedObjects = [];
    if (this.before.size > 0) this.before = new Map();
    return patch;
  }

  private inOrder(slots: ArrayLike<number>, count = slots.length): boolean {
    for (let at = 1; at < count; at++)
      if (this.orders[slots[at - 1]] > this.orders[slots[at]]) return false;
    return true;
  }

  private patch(edgeChanges: EdgeChanges): ResourceGraphPatch {
    const removed = new Map<string, ResourceNode>();
    for (const slot of this.released)
      if (this.bornIn[slot] !== this.applying) {
        const previous = this.before.get(slot)!;
        removed.set(previous.id, previous);
      }
    const added: ResourceNode[] = [];
    const changed: ResourceNode[] = [];
    for (const slot of this.born) {
      if (this.releasedNow[slot]) continue;
      const node = this.nodes[slot]!;
      const previous = removed.get(node.id);
      if (previous === undefined) {
        added.push(node);
        continue;
      }
      // A node removed and added again under its id (an object recreated,
      // an inventory entry found) changed.
      removed.delete(node.id);
      if (!sameNode(previous, node) || previous.missing !== node.missing)
        changed.push(node);
    }
    for (const [slot, previous] of this.before) {
      if (this.releasedNow[slot]) continue;
      const node = this.nodes[slot]!;
      if (!sameNode(previous, node)) changed.push(node);
    }
    const upserted: KubernetesObject[] = [];
    const upsertedIds = new Set<string>();
    for (const slot of this.upserted) {
      if (this.releasedNow[slot]) continue;
      upserted.push(this.objectsOf[slot]!);
      if (this.removedObjects.length > 0) upsertedIds.add(this.nodes[slot]!.id);
    }
    return {
      nodesAdded: added,
      nodesChanged: changed,
      nodesRemoved: [...removed.keys()],
      edgesAdded: edgeChanges.added,
      edgesRemoved: edgeChanges.removed,
      objectsUpserted: upserted,
      objectsRemoved: [...new Set(this.removedObjects)].filter(
        id => !upsertedIds.has(id),
      ),
    };
  }
}
