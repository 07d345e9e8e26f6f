import { objectsByNodeId } from '../graph/objectsByNodeId';
import { isFluxApplier, isFluxObject } from '../k8s/flux';
import {
  DriftReport,
  EnvironmentDrift,
  KubernetesObject,
  ResourceGraph,
} from '../types';
import { driftOf, fluxDriftCondition, fluxDriftEvents } from './drift';

/** The drift of a state where nothing drifted. @public */
export const NO_DRIFT: EnvironmentDrift = Object.freeze({});

/**
 * The drift of an environment's state from its objects (Events included)
 * and their graph: every object a Flux applier manages that drifted, and
 * every Flux object whose own conditions say its release drifted.
 *
 * @public
 */
export function environmentDrift(
  objects: readonly KubernetesObject[],
  graph: ResourceGraph,
): EnvironmentDrift {
  const byId = objectsByNodeId(objects);
  const driftEvents = fluxDriftEvents(objects);
  const nodes = new Map(graph.nodes.map(node => [node.id, node]));
  const drift: Record<string, DriftReport> = {};
  for (const edge of graph.edges) {
    if (edge.type !== 'manages') continue;
    const applier = nodes.get(edge.source);
    const target = nodes.get(edge.target);
    if (!applier || !target || !isFluxApplier(applier.group, applier.kind))
      continue;
    const object = byId.get(target.id);
    if (!object || drift[target.id]) continue;
    const report = driftOf(object, target, driftEvents);
    if (report.drifted) drift[target.id] = report;
  }
  // A HelmRelease no applier here manages still says its release drifted.
  for (const node of graph.nodes) {
    if (drift[node.id] || !isFluxObject(node.group, node.kind)) continue;
    const object = byId.get(node.id);
    const condition = object && fluxDriftCondition(object);
    if (condition)
      drift[node.id] = { drifted: true, signals: [condition], changes: [] };
  }
  // One value for "nothing drifted", so a follower compares states by identity.
  return Object.keys(drift).length > 0 ? drift : NO_DRIFT;
}

/**
 * How many objects drifted: the one count an environment's card, its live
 * patches and its tree show, and the number of nodes the tree marks drifted.
 *
 * @public
 */
export function driftedCount(drift: EnvironmentDrift): number {
  return Object.keys(drift).length;
}
