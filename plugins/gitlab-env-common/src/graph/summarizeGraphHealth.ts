import { summarizeHealth } from '../health';
import { HealthSummary, ResourceGraph } from '../types';

/** Counts per status over every node of a graph, Missing inventory entries included. @public */
export function summarizeGraphHealth(graph: ResourceGraph): HealthSummary {
  return summarizeHealth(graph.nodes.map(node => node.health));
}
