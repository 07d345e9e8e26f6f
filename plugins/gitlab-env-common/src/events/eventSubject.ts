import { isRecord } from '../k8s/objects';
import { KubernetesObject } from '../types';

/** What an Event may be about: an object's kind, namespace, name and, when known, uid. @public */
export interface EventSubject {
  kind: string;
  /** '' for a cluster-scoped object. */
  namespace: string;
  name: string;
  uid?: string;
}

function involvedObjectOf(
  event: KubernetesObject,
): Record<string, unknown> | undefined {
  if (event?.kind !== 'Event') return undefined;
  const involved = (event as { involvedObject?: unknown }).involvedObject;
  return isRecord(involved) ? involved : undefined;
}

const nameKey = (kind: unknown, namespace: unknown, name: unknown) =>
  `${String(kind)}/${String(namespace ?? '')}/${String(name)}`;

/**
 * The one rule for "is this Event about that object?": by uid when both the
 * Event's involvedObject and the subject carry one (an object recreated
 * under the same name is another object), else by kind, namespace and
 * name. Returns, for many subjects at once, the subject an Event is about
 * (indexed, so a whole namespace's Events cost one lookup each).
 *
 * @public
 */
export function eventSubjectMatcher<S extends EventSubject>(
  subjects: Iterable<S>,
): (event: KubernetesObject) => S | undefined {
  const byUid = new Map<string, S>();
  const byName = new Map<string, S[]>();
  for (const subject of subjects) {
    if (subject.uid) byUid.set(subject.uid, subject);
    const key = nameKey(subject.kind, subject.namespace, subject.name);
    const named = byName.get(key);
    if (named) named.push(subject);
    else byName.set(key, [subject]);
  }
  return event => {
    const involved = involvedObjectOf(event);
    if (!involved) return undefined;
    const uid = typeof involved.uid === 'string' ? involved.uid : undefined;
    if (uid && byUid.has(uid)) return byUid.get(uid);
    const named = byName.get(
      nameKey(involved.kind, involved.namespace, involved.name),
    );
    return named?.find(subject => !uid || !subject.uid);
  };
}

/**
 * Whether an Event is about one object (see eventSubjectMatcher).
 *
 * @public
 */
export function isEventAbout(
  event: KubernetesObject,
  subject: EventSubject,
): boolean {
  return eventSubjectMatcher([subject])(event) !== undefined;
}
