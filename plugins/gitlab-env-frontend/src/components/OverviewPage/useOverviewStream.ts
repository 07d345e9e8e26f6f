import { useCallback, useEffect, useState } from 'react';
import { useApi } from '@backstage/core-plugin-api';
import {
  OverviewRow,
  OverviewStreamLine,
  applyOverviewHealth,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { gitlabEnvApiRef } from '../../api';

export interface OverviewStreamState {
  rows: OverviewRow[];
  /** Entities with the plugin's annotations; known once the stream starts. */
  entitiesTotal?: number;
  entitiesLoaded: number;
  done: boolean;
  error?: Error;
  reload: () => void;
}

type StreamState = Omit<OverviewStreamState, 'reload'>;

const INITIAL: StreamState = { rows: [], entitiesLoaded: 0, done: false };

function applyLine(state: StreamState, line: OverviewStreamLine): StreamState {
  switch (line.type) {
    case 'start':
      return { ...state, entitiesTotal: line.entities };
    case 'entity':
      return {
        ...state,
        rows: [...state.rows, ...line.rows],
        entitiesLoaded: state.entitiesLoaded + 1,
      };
    case 'health':
      return { ...state, rows: applyOverviewHealth(state.rows, line) };
    default:
      return { ...state, done: true };
  }
}

/**
 * Follows the backend's overview stream: rows appear as entities are
 * listed, and settle in place as their health arrives.
 */
export function useOverviewStream(): OverviewStreamState {
  const api = useApi(gitlabEnvApiRef);
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<StreamState>(INITIAL);

  useEffect(() => {
    const controller = new AbortController();
    setState(INITIAL);
    api
      .streamOverview(line => setState(previous => applyLine(previous, line)), {
        signal: controller.signal,
      })
      .then(() => setState(previous => ({ ...previous, done: true })))
      .catch(error => {
        if (!controller.signal.aborted) {
          setState(previous => ({ ...previous, done: true, error }));
        }
      });
    return () => controller.abort();
  }, [api, attempt]);

  const reload = useCallback(() => setAttempt(n => n + 1), []);
  return { ...state, reload };
}
