import * as React from 'react';
import { useApi } from '@backstage/core-plugin-api';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import useAsyncRetry from 'react-use/esm/useAsyncRetry';
import { gitlabEnvHistoryApiRef } from '../../api';
import { GitlabEnvErrorPanel } from '../errors/GitlabEnvErrorPanel';
import { VersionMatrix } from './VersionMatrix';

/** `system:default/shop` as `shop`. */
function systemName(systemRef: string): string {
  return systemRef.replace(/^system:(default\/)?/, '');
}

/**
 * What every entity of one system runs in each of its environments, one
 * matrix per entity: the overview shows it when its System filter names
 * one system.
 */
export function SystemVersions({ systemRef }: { systemRef: string }) {
  const api = useApi(gitlabEnvHistoryApiRef);
  const { value, loading, error, retry } = useAsyncRetry(
    () => api.getSystemVersions(systemRef),
    [api, systemRef],
  );
  const name = systemName(systemRef);
  return (
    <Box
      component="section"
      aria-label={`Versions of system ${name}`}
      sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}
    >
      <Typography variant="h5" component="h2">
        Versions of system {name}
      </Typography>
      {loading && !value ? (
        <Skeleton
          variant="rounded"
          height={120}
          aria-label={`Loading the versions of ${name}`}
        />
      ) : null}
      {error ? (
        <GitlabEnvErrorPanel
          error={error}
          onRetry={retry}
          title="Could not read the system's versions"
        />
      ) : null}
      {value && value.entities.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No entity of {name} has GitLab environments.
        </Typography>
      ) : null}
      {value?.entities.map(versions => (
        <VersionMatrix
          key={versions.entityRef}
          versions={versions}
          heading={versions.title ?? versions.entityRef}
        />
      ))}
    </Box>
  );
}
