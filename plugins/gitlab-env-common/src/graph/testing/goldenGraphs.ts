import { generateEnvironment } from './generateEnvironment';
import { summarizeGraphHealth } from '../summarizeGraphHealth';
import { KubernetesObject, ResourceGraph } from '../../types';
import { CRAFTED } from './craftedObjects';

/**
 * The inputs of the graphs recorded in golden/: each was built by the
 * whole-graph builder the engine replaced (buildResourceGraph before the
 * one engine), and the engine must build exactly the same.
 */
export const GOLDEN_INPUTS: Record<string, () => KubernetesObject[]> = {
  crafted: () => [...generateEnvironment(40), ...CRAFTED],
  // The same objects in reverse: ties (first of a kind and name, last of a
  // uid, first inventory of a Missing entry) go the other way.
  'crafted-reversed': () => [...generateEnvironment(40), ...CRAFTED].reverse(),
  environment: () => generateEnvironment(150, 'shop-prod'),
};

/** A graph as recorded: nodes in the engine's order, edges as sorted `source -type-> target` lines. */
export function recordedGraph(graph: ResourceGraph) {
  return {
    roots: graph.roots,
    nodes: graph.nodes,
    edges: graph.edges
      .map(edge => `${edge.source} -${edge.type}-> ${edge.target}`)
      .sort(),
    health: summarizeGraphHealth(graph),
  };
}
