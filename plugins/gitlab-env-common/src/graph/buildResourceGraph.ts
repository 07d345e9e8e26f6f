import { ComputeHealthOptions } from '../health';
import { KubernetesObject, ResourceGraph, ResourceKey } from '../types';
import { assembleForest } from './forest';
import { inferEdges } from './inferEdges';
import { buildLookups } from './lookups';
import { collectNodes } from './nodeTable';

/** @public */
export interface BuildResourceGraphOptions {
  /** Health options: adopters' rules (see createHealthRuleSet). */
  health?: ComputeHealthOptions;
  /**
   * Why the environment never acts on an object (see readOnlyOf), kept on
   * its node as `readOnly`; without it no node is marked.
   */
  readOnly?: (key: ResourceKey, object: KubernetesObject) => string | undefined;
}

/**
 * The ArgoCD-style dependency graph of an environment's objects: one node
 * per object with its health, typed edges between them, and the ownership
 * forest (owns / manages edges) with every node's subtree health. Linear in
 * the number of objects and references (apart from sorting children and
 * roots by id); never throws on malformed objects, duplicates, dangling
 * references or ownership cycles.
 *
 * Built in four passes over node indexes: nodes with their health, lookup
 * indexes, edges (with each node's tree parent), then the forest.
 *
 * @public
 */
export function buildResourceGraph(
  objects: KubernetesObject[],
  options?: BuildResourceGraphOptions,
): ResourceGraph {
  const table = collectNodes(
    Array.isArray(objects) ? objects : [],
    options?.health,
    options?.readOnly,
  );
  const lookups = buildLookups(table);
  const edges = inferEdges(table, lookups);
  const forest = assembleForest(table.nodes, table.parents, table);
  return { nodes: forest.nodes, edges, roots: forest.roots };
}
