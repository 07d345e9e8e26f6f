import { summarizeHealth } from '../health';
import { HealthSummary, ResourceGraph } from '../types';

/**
 * Counts per status over the resources of a graph, Missing inventory
 * entries included. Events are records about resources, not resources:
 * they are not counted (a busy environment's hour of Events would
 * otherwise outnumber what it runs).
 *
 * @public
 */
export function summarizeGraphHealth(graph: ResourceGraph): HealthSummary {
  return summarizeHealth(graph.nodes.filter(counted).map(node => node.health));
}

/** Whether a node counts in the environment's health summary. */
export function counted(node: { kind: string }): boolean {
  return node.kind !== 'Event';
}
