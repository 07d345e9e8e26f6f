import {
  LiveEnvironmentKey,
  LiveMessage,
  LiveTreeMessage,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { encodeServerSentEvent } from './sseChunks';

/**
 * Messages encoded once for every stream that sends them at the same
 * moment (one patch to 100 viewers is one buffer, not 100 strings): by the
 * environment event (or its tree patch), or the snapshot (or the tree's),
 * and the key they are sent under.
 */
const encodings = new WeakMap<object, Map<string, Buffer[]>>();

/**
 * How long a snapshot's encoding is kept for viewers that join after the
 * first (a page load opens many streams at once). Not longer: an
 * environment that stays quiet would hold its whole state twice, once as
 * objects and once encoded.
 */
const SNAPSHOT_ENCODING_KEEP_MS = 5_000;

export function encodeOnce(
  source: object,
  key: LiveEnvironmentKey,
  message: () => LiveMessage | LiveTreeMessage,
  /** 0: shared by the fan-out of this moment only. */
  keepMs: number,
): Buffer[] {
  let byKey = encodings.get(source);
  if (!byKey) {
    byKey = new Map();
    encodings.set(source, byKey);
  }
  const name = `${key.entityRef}/${key.slug}`;
  let encoded = byKey.get(name);
  if (!encoded) {
    encoded = encodeServerSentEvent(message());
    byKey.set(name, encoded);
    // A patch kept for resumes would otherwise hold its encoding as long
    // as it is kept, a snapshot as long as its environment does not change.
    if (byKey.size === 1) {
      const forget = () => encodings.delete(source);
      if (keepMs === 0) setImmediate(forget);
      else setTimeout(forget, keepMs).unref();
    }
  }
  return encoded;
}

/** Per environment, the state whose snapshot encoding is held. */
const latestSnapshot = new WeakMap<object, object>();

/**
 * A snapshot encoded once for the viewers of one state of `owner` (an
 * environment), kept SNAPSHOT_ENCODING_KEEP_MS for viewers joining
 * together, and dropped as soon as a later state is encoded: under churn
 * every batch is a new state, and viewers joining one after another would
 * otherwise hold one whole encoding per batch for 5 s.
 */
export function encodeSnapshotOnce(
  owner: object,
  state: object,
  key: LiveEnvironmentKey,
  message: () => LiveMessage | LiveTreeMessage,
): Buffer[] {
  const previous = latestSnapshot.get(owner);
  if (previous !== state) {
    if (previous) encodings.delete(previous);
    latestSnapshot.set(owner, state);
  }
  return encodeOnce(state, key, message, SNAPSHOT_ENCODING_KEEP_MS);
}
