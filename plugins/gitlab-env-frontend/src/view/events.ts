import {
  KubernetesObject,
  ResourceNode,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';

export interface ResourceEvent {
  type: string;
  reason: string;
  message: string;
  count: number;
  lastSeen?: string;
}

/**
 * The Events about one object, newest first, as `kubectl describe` lists
 * them. Matches by uid when both sides have one (a recreated object with the
 * same name is another object), else by kind, namespace and name.
 */
export function eventsFor(
  node: ResourceNode,
  resources: readonly KubernetesObject[],
): ResourceEvent[] {
  const events: ResourceEvent[] = [];
  for (const object of resources) {
    if (object.kind !== 'Event') continue;
    const involved = (object as { involvedObject?: any }).involvedObject;
    if (!involved || typeof involved !== 'object') continue;
    const sameObject =
      node.uid && involved.uid
        ? involved.uid === node.uid
        : involved.kind === node.kind &&
          involved.name === node.name &&
          (involved.namespace ?? '') === node.namespace;
    if (!sameObject) continue;
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

function stringOr(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}
