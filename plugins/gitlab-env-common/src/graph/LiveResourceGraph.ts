import {
  HealthSummary,
  KubernetesObject,
  ResourceGraph,
  ResourceGraphPatch,
  ResourceNode,
  WatchEvent,
} from '../types';
import type { BuildResourceGraphOptions } from './buildResourceGraph';
import { GraphEngine } from './engine/GraphEngine';

/**
 * The dependency graph of an environment, kept up to date one watch event
 * at a time: `apply` updates the nodes, edges, health and roll-ups the
 * change reaches and reports what changed, without rebuilding the rest.
 * It is the engine `buildResourceGraph` runs once: after any sequence of
 * events it holds exactly the graph `buildResourceGraph` builds from its
 * objects (`objects()`, in the order they were first added). Node ids are
 * resource ids, which a change to an object never moves.
 *
 * @public
 */
export class LiveResourceGraph {
  private readonly engine: GraphEngine;

  constructor(
    objects: readonly KubernetesObject[] = [],
    options: BuildResourceGraphOptions = {},
  ) {
    this.engine = new GraphEngine(options);
    this.engine.load(objects);
  }

  /**
   * Applies watch events in order and reports what changed in the graph.
   * Events without a kind or a name are ignored; a later event on an
   * object wins over an earlier one.
   */
  apply(events: WatchEvent | readonly WatchEvent[]): ResourceGraphPatch {
    return this.engine.apply(events);
  }

  /** The graph as `buildResourceGraph` returns it: nodes parents first, children and roots by id. */
  graph(): ResourceGraph {
    return this.engine.graph();
  }

  /** The objects, in the order they were first added (a modified object keeps its place). */
  objects(): KubernetesObject[] {
    return this.engine.objects();
  }

  /** How many objects the graph holds: `objects().length` without building the list. */
  objectCount(): number {
    return this.engine.objectCount();
  }

  /** Counts per status over every node, as `summarizeGraphHealth` gives them. */
  health(): HealthSummary {
    return this.engine.health();
  }

  /** The node of an id, if the graph holds it. */
  node(id: string): ResourceNode | undefined {
    return this.engine.node(id);
  }

  /** The object of a node id, if it was built from one. */
  object(id: string): KubernetesObject | undefined {
    return this.engine.object(id);
  }
}
