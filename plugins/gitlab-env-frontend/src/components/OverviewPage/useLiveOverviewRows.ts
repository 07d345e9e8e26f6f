import { useMemo } from 'react';
import {
  OverviewFilters,
  OverviewRow,
  filterOverviewRows,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { LiveConnection, LiveEnvironmentState } from '../../api';
import { liveKey, useLiveEnvironments } from '../../hooks/useLiveEnvironments';

/**
 * At most this many rows are followed live, in the order the stream listed
 * them: the backend follows at most 50 environments per stream by default
 * (gitlabEnv.live.maxEnvironmentsPerStream) and keeps watches per
 * followed environment.
 */
export const MAX_LIVE_OVERVIEW_ROWS = 50;

/**
 * The overview's rows with the health of the environments on screen kept
 * current over the tab's live stream. Which rows are followed ignores the
 * health filter: a row whose health changes must not stop being followed
 * because of the change. The overview never polls for this: where
 * streaming does not get through, rows keep the health the overview read.
 */
export function useLiveOverviewRows(
  rows: OverviewRow[],
  filters: OverviewFilters,
): { rows: OverviewRow[]; connection?: LiveConnection; followed: number } {
  const keys = useMemo(
    () =>
      filterOverviewRows(rows, { ...filters, health: undefined })
        .filter(row => row.environment && row.environment.state !== 'stopped')
        .slice(0, MAX_LIVE_OVERVIEW_ROWS)
        .map(row => ({
          entityRef: row.entityRef,
          slug: row.environment!.slug,
          poll: false,
        })),
    [rows, filters],
  );
  const states = useLiveEnvironments(keys, false);
  const liveRows = useMemo(() => withLiveHealth(rows, states), [rows, states]);
  return {
    rows: liveRows,
    connection: [...states.values()][0]?.connection,
    followed: keys.length,
  };
}

/** Rows whose environment the stream holds take its health (the engine's); the others stay. */
export function withLiveHealth(
  rows: OverviewRow[],
  states: ReadonlyMap<string, LiveEnvironmentState>,
): OverviewRow[] {
  if (states.size === 0) return rows;
  return rows.map(row => {
    if (!row.environment) return row;
    const state = states.get(
      liveKey({ entityRef: row.entityRef, slug: row.environment.slug }),
    );
    const health = state?.tree?.health;
    if (!health || health === row.health) return row;
    return { ...row, health, pending: false };
  });
}
