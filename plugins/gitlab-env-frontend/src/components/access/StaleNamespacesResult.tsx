import * as React from 'react';
import {
  StaleNamespacesResponse,
  StaleNamespacesSoFar,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import CircularProgress from '@mui/material/CircularProgress';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { AsyncState } from 'react-use/lib/useAsyncFn';
import { useApi } from '@backstage/core-plugin-api';
import { gitlabEnvApiRef } from '../../api';
import {
  GitlabEnvErrorAlert,
  GitlabEnvErrorPanel,
} from '../errors/GitlabEnvErrorPanel';
import { StaleNamespacesTable } from './StaleNamespacesTable';

/** The agents a streamed list still waits for, each named once. */
function ReadingAgents({
  pending,
}: {
  pending: StaleNamespacesSoFar['pending'];
}) {
  const agents = [...new Set(pending.map(p => p.agent))];
  return (
    <Typography
      variant="body2"
      color="text.secondary"
      role="status"
      data-testid="stale-namespaces-reading"
      sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}
    >
      <CircularProgress size={14} aria-hidden />
      {agents.length
        ? `Reading the namespaces of agent${
            agents.length === 1 ? '' : 's'
          } ${agents.join(', ')}…`
        : 'Finding the agents…'}
    </Typography>
  );
}

/**
 * A stale-namespace read as the page shows it, wherever it was read (one
 * entity's agents or every agent): loading, the failure of the whole read,
 * each agent's failure, then the table, whose deletes read the list again.
 * `reading` is a streamed read's list so far: what the agents that
 * answered found shows at once, with the agents still being read.
 */
export function StaleNamespacesResult({
  stale,
  reading,
  showEntity = false,
}: {
  stale: AsyncState<StaleNamespacesResponse> & { retry: () => void };
  reading?: StaleNamespacesSoFar;
  showEntity?: boolean;
}) {
  const api = useApi(gitlabEnvApiRef);
  const value = stale.value ?? reading;
  // Until every agent answered, an empty list is no answer yet.
  const showTable =
    !!value && (!reading || stale.value || value.namespaces.length > 0);
  return (
    <>
      {stale.loading && !value ? (
        <Skeleton variant="rounded" height={80} />
      ) : null}
      {stale.error ? (
        <GitlabEnvErrorPanel error={stale.error} onRetry={stale.retry} />
      ) : null}
      {reading && !reading.done ? (
        <ReadingAgents pending={reading.pending} />
      ) : null}
      {value?.errors.map(e => (
        <GitlabEnvErrorAlert
          key={`${e.entityRef ?? ''}|${e.agent}|${e.error.code}`}
          error={e.error}
          onRetry={stale.retry}
        />
      ))}
      {showTable ? (
        <StaleNamespacesTable
          namespaces={value.namespaces}
          now={Date.now()}
          showEntity={showEntity}
          onDelete={async (entity, agentId, name) => {
            await api.deleteStaleNamespace(entity, agentId, name);
            stale.retry();
          }}
        />
      ) : null}
    </>
  );
}
