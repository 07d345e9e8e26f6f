import { KubernetesObject, ResourceNode } from '../types';
import { eventSubjectMatcher } from './eventSubject';

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
 * The Events about one node among an environment's objects, newest first.
 *
 * @public
 */
export function resourceEvents(
  node: ResourceNode,
  objects: readonly KubernetesObject[],
): ResourceEventSummary[] {
  const events: ResourceEventSummary[] = [];
  const isAbout = eventSubjectMatcher([node]);
  for (const object of objects) {
    if (object?.kind !== 'Event' || !isAbout(object)) continue;
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
