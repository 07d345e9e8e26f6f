import {
  KubernetesObject,
  ResourceEdge,
  ResourceEdgeType,
  ResourceKey,
  ResourceNode,
} from '../types';
import {
  Lookups,
  NamespaceLookups,
  byReferenceLabel,
  firstByKindName,
  namespaceLookups,
  selectPods,
} from './lookups';
import { NodeTable, findNode, inventoryNode } from './nodeTable';
import { PairBits } from './pairBits';
import { NameList } from './references';
import { RelationContext, relationRulesOf } from './relations';
import { NO_FIELDS } from './relations/fields';

/** One bit per edge type, to remember which types a pair of nodes already has. */
const EDGE_TYPE_BITS: Record<ResourceEdgeType, number> = {
  owns: 1,
  selects: 2,
  routes: 4,
  scales: 8,
  mounts: 16,
  uses: 32,
  manages: 64,
  sources: 128,
  dependsOn: 256,
};

const NO_NODES: readonly number[] = [];

/**
 * The relations' view of a graph under construction, moved from origin to
 * origin: lookups by node index, edges each (source, target, type) once.
 */
class TableContext implements RelationContext {
  index = 0;
  node!: ResourceNode;
  object!: KubernetesObject;
  readonly names = new NameList();
  readonly edges: ResourceEdge[] = [];
  private scope!: NamespaceLookups;
  private readonly added: PairBits;

  constructor(
    private readonly table: NodeTable,
    private readonly lookups: Lookups,
  ) {
    this.added = new PairBits(table.sources.length * 2);
  }

  moveTo(index: number) {
    this.index = index;
    this.node = this.table.nodes[index];
    this.object = this.table.sources[index];
    this.scope = namespaceLookups(this.lookups, this.node.namespace);
  }

  forEach<T>(
    items: readonly T[],
    infer: (item: T, context: RelationContext) => void,
  ) {
    for (const item of items) infer(item, this);
  }

  byUid(uid: string) {
    return this.lookups.byUid.get(uid);
  }

  byKindName(kind: string, name: unknown) {
    return firstByKindName(this.scope, kind, name);
  }

  exact(key: ResourceKey) {
    return findNode(this.table, key);
  }

  selectPods(selector: Record<string, unknown>) {
    return selectPods(this.scope, this.table.sources, selector);
  }

  claimsByStem(stem: string) {
    return this.scope.claimsByStem.get(stem) ?? NO_NODES;
  }

  byReferenceLabel(label: string, value: string) {
    return byReferenceLabel(this.lookups, label, value);
  }

  labelsOf(index: number) {
    return this.table.sources[index].metadata?.labels ?? NO_FIELDS;
  }

  nodeAt(index: number) {
    return this.table.nodes[index];
  }

  inventoryNode(key: ResourceKey, version: string) {
    return inventoryNode(this.table, key, version, this.node);
  }

  add(
    source: number | undefined,
    target: number | undefined,
    type: ResourceEdgeType,
    rank?: number,
  ) {
    if (source === undefined || target === undefined || source === target)
      return;
    const { table } = this;
    if (this.added.add(source, target, EDGE_TYPE_BITS[type])) {
      this.edges.push({
        source: table.ids[source],
        target: table.ids[target],
        type,
      });
    }
    if (rank !== undefined && rank < table.parentRanks[target]) {
      table.parents[target] = source;
      table.parentRanks[target] = rank;
    }
  }
}

/**
 * Every edge the relations infer from the objects, each (source, target,
 * type) once, in the order first found; records each node's best tree
 * parent in `table.parents` and appends a Missing node for each inventory
 * entry the cluster lacks.
 */
export function inferEdges(table: NodeTable, lookups: Lookups): ResourceEdge[] {
  const context = new TableContext(table, lookups);
  // Only the nodes built from objects: Missing ones appended meanwhile refer to nothing.
  const count = table.sources.length;
  for (let index = 0; index < count; index++) {
    context.moveTo(index);
    const { group, kind } = context.node;
    for (const rule of relationRulesOf(group, kind)) rule.infer(context);
  }
  return context.edges;
}
