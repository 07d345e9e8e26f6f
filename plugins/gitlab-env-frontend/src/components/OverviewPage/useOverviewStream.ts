import { useCallback, useEffect, useState } from 'react';
import { useApi } from '@backstage/core-plugin-api';
import { OverviewRow } from '@gitlab-env/backstage-plugin-gitlab-env-common';
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

/** Follows the backend's overview stream, adding rows as entities resolve. */
export function useOverviewStream(): OverviewStreamState {
  const api = useApi(gitlabEnvApiRef);
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<Omit<OverviewStreamState, 'reload'>>({
    rows: [],
    entitiesLoaded: 0,
    done: false,
  });

  useEffect(() => {
    const controller = new AbortController();
    setState({ rows: [], entitiesLoaded: 0, done: false });
    api
      .streamOverview(
        line => {
          setState(previous => {
            switch (line.type) {
              case 'start':
                return { ...previous, entitiesTotal: line.entities };
              case 'entity':
                return {
                  ...previous,
                  rows: [...previous.rows, ...line.rows],
                  entitiesLoaded: previous.entitiesLoaded + 1,
                };
              default:
                return { ...previous, done: true };
            }
          });
        },
        { signal: controller.signal },
      )
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
