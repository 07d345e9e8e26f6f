import { isRecord } from '../k8s/objects';
import { KubernetesObject, ResourceNode } from '../types';

/** One Kubernetes Event about a resource, as `kubectl describe` lists it. @public */
export interface ResourceEventSummary {
  type: string;
  reason: string;
  message: string;
  count: number;
  lastSeen?: string;
}

const stringOr = (value: unknown, fallback: string) =>
  typeof value === 'string' ? value : fallback;

/**
 * Whether an Event is about a node: by uid when both sides have one (a
 * recreated object with the same name is another object), else by kind,
 * namespace and name.
 */
function isAbout(event: KubernetesObject, node: ResourceNode): boolean {
  const involved = (event as { involvedObject?: unknown }).involvedObject;
  if (!isRecord(involved)) return false;
  if (node.uid && involved.uid) return involved.uid === node.uid;
  return (
    involved.kind === node.kind &&
    involved.name === node.name &&
    (involved.namespace ?? '') === node.namespace
  );
}

/**
 * The Events about one node among an environment's objects, newest first.
 *
 * @public
 */
export function resourceEvents(
  node: ResourceNode,
  objects: readonly KubernetesObject[],
): ResourceEventSummary[] {
  const events: ResourceEventSummary[] = [];
  for (const object of objects) {
    if (object?.kind !== 'Event' || !isAbout(object, node)) continue;
    const event = object as Record<string, any>;
    events.push({
      type: stringOr(event.type, 'Normal'),
      reason: stringOr(event.reason, ''),
      message: stringOr(event.message ?? event.note, ''),
      count: typeof event.count === 'number' ? event.count : 1,
      lastSeen:
        event.lastTimestamp ??
        event.eventTime ??
        event.firstTimestamp ??
        object.metadata?.creationTimestamp,
    });
  }
  return events.sort(
    (a, b) => Date.parse(b.lastSeen ?? '') - Date.parse(a.lastSeen ?? '') || 0,
  );
}
