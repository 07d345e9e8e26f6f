import { useEffect, useMemo, useState } from 'react';
import { useApi } from '@backstage/core-plugin-api';
import {
  EnvironmentTree,
  LiveEnvironmentKey,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import {
  GitlabEnvLiveError,
  LiveEnvironmentState,
  LiveFollowOptions,
  gitlabEnvLiveApiRef,
} from '../api';
import { Polled } from './usePolledMap';

/**
 * Follows environments over the tab's live stream while not paused; the
 * states held when paused stay on screen, frozen. Keys are
 * `<entityRef>/<slug>`, as `liveKey` builds them.
 */
export function useLiveEnvironments(
  keys: ReadonlyArray<LiveEnvironmentKey & LiveFollowOptions>,
  paused: boolean,
): ReadonlyMap<string, LiveEnvironmentState> {
  const live = useApi(gitlabEnvLiveApiRef);
  const [states, setStates] = useState<
    ReadonlyMap<string, LiveEnvironmentState>
  >(new Map());
  // `<poll flag>` + the key, one a line: a change of either follows anew.
  const keysKey = keys
    .map(key => `${key.poll === false ? '-' : '+'}${liveKey(key)}`)
    .sort()
    .join('\n');

  useEffect(() => {
    if (paused || keysKey === '') return undefined;
    const stops = keysKey.split('\n').map(line => {
      const id = line.slice(1);
      const slash = id.lastIndexOf('/');
      const key = { entityRef: id.slice(0, slash), slug: id.slice(slash + 1) };
      return live.follow(
        key,
        state => setStates(previous => new Map(previous).set(id, state)),
        { poll: line[0] === '+' },
      );
    });
    return () => stops.forEach(stop => stop());
  }, [live, keysKey, paused]);

  // Only what is followed now: a row or card left behind shows no frozen state.
  return useMemo(() => {
    const followed = new Set(keysKey.split('\n').map(line => line.slice(1)));
    if ([...states.keys()].every(id => followed.has(id))) return states;
    return new Map([...states].filter(([id]) => followed.has(id)));
  }, [states, keysKey]);
}

/** The map key of an environment: `<entityRef>/<slug>` (a slug holds no `/`). */
export function liveKey(key: LiveEnvironmentKey): string {
  return `${key.entityRef}/${key.slug}`;
}

/**
 * A live state in the shape the cards and the resources panel take: the
 * data held, the polling fallback's error, and the data's time.
 */
export function polledOf(
  state: LiveEnvironmentState | undefined,
): Polled<EnvironmentTree> | undefined {
  if (!state) return undefined;
  const waiting = !state.tree && !state.error && !state.pollError;
  // Over data held, the stream's error is shown next to it (EnvironmentResources).
  const streamError =
    state.error && !state.tree
      ? new GitlabEnvLiveError(state.error)
      : undefined;
  return {
    value: state.tree,
    error: state.pollError ?? streamError,
    loading: waiting,
    refreshing: false,
    updatedAt: state.dataAt ? Date.parse(state.dataAt) : undefined,
  };
}
