import * as React from 'react';
import { StaleNamespacesResponse } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import Skeleton from '@mui/material/Skeleton';
import { AsyncState } from 'react-use/lib/useAsyncFn';
import { useApi } from '@backstage/core-plugin-api';
import { gitlabEnvApiRef } from '../../api';
import {
  GitlabEnvErrorAlert,
  GitlabEnvErrorPanel,
} from '../errors/GitlabEnvErrorPanel';
import { StaleNamespacesTable } from './StaleNamespacesTable';

/**
 * A stale-namespace read as the page shows it, wherever it was read (one
 * entity's agents or every agent): loading, the failure of the whole read,
 * each agent's failure, then the table, whose deletes read the list again.
 */
export function StaleNamespacesResult({
  stale,
  showEntity = false,
}: {
  stale: AsyncState<StaleNamespacesResponse> & { retry: () => void };
  showEntity?: boolean;
}) {
  const api = useApi(gitlabEnvApiRef);
  return (
    <>
      {stale.loading && !stale.value ? (
        <Skeleton variant="rounded" height={80} />
      ) : null}
      {stale.error ? (
        <GitlabEnvErrorPanel error={stale.error} onRetry={stale.retry} />
      ) : null}
      {stale.value?.errors.map(e => (
        <GitlabEnvErrorAlert
          key={`${e.entityRef ?? ''}|${e.agent}|${e.error.code}`}
          error={e.error}
          onRetry={stale.retry}
        />
      ))}
      {stale.value ? (
        <StaleNamespacesTable
          namespaces={stale.value.namespaces}
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
