import { summarizeHealth } from '../health';
import { HealthAssessment, HealthSummary, ResourceGraph } from '../types';

/**
 * Counts per status over the resources of a graph, Missing inventory
 * entries included. Events are records about resources, not resources:
 * they are not counted (a busy environment's hour of Events would
 * otherwise outnumber what it runs).
 *
 * @public
 */
export function summarizeGraphHealth(graph: ResourceGraph): HealthSummary {
  const assessments: Array<HealthAssessment | undefined> = [];
  for (const node of graph.nodes)
    if (counted(node)) assessments.push(node.health);
  return summarizeHealth(assessments);
}

/** Whether a node counts in the environment's health summary. */
export function counted(node: { kind: string }): boolean {
  return node.kind !== 'Event';
}
