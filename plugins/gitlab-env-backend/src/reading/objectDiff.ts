import { KubernetesObject } from '@gitlab-env/backstage-plugin-gitlab-env-common';

/** One change an informer passes on: objects are validated and redacted. */
export interface InformerEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  object: KubernetesObject;
}

/**
 * Replaces what `held` holds with `found` and says what changed, as watch
 * events: a relist (or a poll) passes on only its differences. An object
 * whose resourceVersion and uid did not change is not an event.
 */
export function replaceObjects(
  held: Map<string, KubernetesObject>,
  found: readonly KubernetesObject[],
  keyOf: (o: KubernetesObject) => string,
): InformerEvent[] {
  // Nothing held (a first list): nothing to delete, no keys to remember.
  const seen = held.size > 0 ? new Set<string>() : undefined;
  const events: InformerEvent[] = [];
  for (const object of found) {
    const key = keyOf(object);
    seen?.add(key);
    const before = held.get(key);
    if (
      before?.metadata?.resourceVersion === object.metadata?.resourceVersion &&
      before?.metadata?.uid === object.metadata?.uid
    )
      continue;
    held.set(key, object);
    events.push({ type: before ? 'MODIFIED' : 'ADDED', object });
  }
  if (!seen) return events;
  for (const [key, before] of held) {
    if (seen.has(key)) continue;
    held.delete(key);
    events.push({ type: 'DELETED', object: before });
  }
  return events;
}
