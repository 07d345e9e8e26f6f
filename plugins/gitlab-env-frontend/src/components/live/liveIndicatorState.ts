import { LiveKindState } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { LiveConnection } from '../../api';

export type LiveIndicatorMode =
  | 'live'
  | 'connecting'
  | 'reconnecting'
  | 'paused'
  | 'polling';

/**
 * What the indicator says: the user's pause first, then the tab's
 * connection, then the backend's own upstream watches.
 */
export function liveIndicatorMode(
  connection: LiveConnection | undefined,
  paused: boolean,
  upstream?: 'live' | 'reconnecting',
): LiveIndicatorMode {
  if (paused) return 'paused';
  if (!connection) return 'connecting';
  if (connection.mode === 'polling') return 'polling';
  if (connection.mode === 'reconnecting' || upstream === 'reconnecting')
    return 'reconnecting';
  return connection.mode;
}

/**
 * The kinds the backend polls rather than watches, by cause: what their
 * reason says before its first colon (the watch cap, no objects yet), in
 * order of first appearance.
 */
export function polledKindsByCause(
  kinds: readonly LiveKindState[] = [],
): Map<string, LiveKindState[]> {
  const groups = new Map<string, LiveKindState[]>();
  for (const kind of kinds) {
    if (kind.mode !== 'poll') continue;
    const reason = kind.reason ?? '';
    const colon = reason.indexOf(': ');
    const cause = colon > 0 ? reason.slice(0, colon) : reason;
    groups.set(cause, [...(groups.get(cause) ?? []), kind]);
  }
  return groups;
}
