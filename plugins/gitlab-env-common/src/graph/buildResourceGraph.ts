import { ComputeHealthOptions } from '../health';
import { KubernetesObject, ResourceGraph, ResourceKey } from '../types';
import { GraphEngine } from './engine/GraphEngine';
import { RelationSet } from './relations';

/** How `buildResourceGraph` and `LiveResourceGraph` judge and relate objects. @public */
export interface BuildResourceGraphOptions {
  /** Health options: adopters' rules (see createHealthRuleSet). */
  health?: ComputeHealthOptions;
  /**
   * Why the environment never acts on an object (see readOnlyOf), kept on
   * its node as `readOnly`; without it no node is marked.
   */
  readOnly?: (key: ResourceKey, object: KubernetesObject) => string | undefined;
  /** Relation sources: the built-in ones and adopters' (see createRelationSet); the built-in ones alone by default. */
  relations?: RelationSet;
}

/**
 * The ArgoCD-style dependency graph of an environment's objects: one node
 * per object with its health, typed edges between them, and the ownership
 * forest (owns / manages edges) with every node's subtree health. Never
 * throws on malformed objects, duplicates, dangling references or
 * ownership cycles; of duplicates the newest resourceVersion wins (else the
 * later copy), keeping the place of the first.
 *
 * A one-shot load of the engine `LiveResourceGraph` keeps up to date: the
 * same nodes, lookups, edges, forest and roll-up, without recording what
 * would only serve later events.
 *
 * @public
 */
export function buildResourceGraph(
  objects: KubernetesObject[],
  options?: BuildResourceGraphOptions,
): ResourceGraph {
  const engine = new GraphEngine({ ...options, watch: false });
  engine.load(objects);
  return engine.graph();
}
