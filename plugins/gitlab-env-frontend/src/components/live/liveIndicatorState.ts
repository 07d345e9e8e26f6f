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

/** The kinds the backend polls rather than watches, with why. */
export function polledKinds(kinds: readonly LiveKindState[] = []) {
  return kinds.filter(kind => kind.mode === 'poll');
}
