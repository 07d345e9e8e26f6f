import { createApiRef } from '@backstage/core-plugin-api';
import {
  EnvironmentTree,
  GitlabEnvError,
  LiveEnvironmentKey,
  LiveKindState,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';

/**
 * How the tab's data arrives: `connecting` until the first event, `live`
 * while the stream flows, `reconnecting` after it dropped (with back-off),
 * `polling` when streaming does not get through (the reason says why).
 *
 * @public
 */
export interface LiveConnection {
  mode: 'connecting' | 'live' | 'reconnecting' | 'polling';
  /** Why the stream reconnects or the tab polls, for the page to say. */
  reason?: string;
}

/**
 * What the tab holds of one followed environment: the compact tree of the
 * last snapshot with every patch since applied (what the graph draws; the
 * drawer asks for a whole object), how fresh it is, how the backend keeps
 * each kind current, and the error that stops it from being followed.
 *
 * @public
 */
export interface LiveEnvironmentState {
  connection: LiveConnection;
  tree?: EnvironmentTree;
  /** ISO time of the newest upstream data held (not of the last message). */
  dataAt?: string;
  /** Whether the backend's upstream watches are live or reconnecting. */
  upstream?: 'live' | 'reconnecting';
  kinds: LiveKindState[];
  /** From the stream: the environment cannot be followed; data held stays. */
  error?: GitlabEnvError;
  /** From polling: the last read failed; data held stays. */
  pollError?: Error;
}

/** @public */
export interface LiveFollowOptions {
  /**
   * Whether the environment is read when the tab falls back to polling;
   * true by default. A card whose badge the environment list already
   * carries follows with false: live when streaming, no read when polling.
   */
  poll?: boolean;
}

/**
 * Follows environments over one live stream per browser tab.
 *
 * @public
 */
export interface GitlabEnvLiveApi {
  /**
   * Follows an environment until the returned function is called; the
   * listener gets the current state at once (if any) and after each change.
   */
  follow(
    key: LiveEnvironmentKey,
    listener: (state: LiveEnvironmentState) => void,
    options?: LiveFollowOptions,
  ): () => void;
  /** Reconnects or polls again now instead of after the current wait. */
  retry(): void;
}

/** @public */
export const gitlabEnvLiveApiRef = createApiRef<GitlabEnvLiveApi>({
  id: 'plugin.gitlab-env.live',
});
