import * as React from 'react';
import { useState } from 'react';
import { useApi } from '@backstage/core-plugin-api';
import {
  gitlabEnvStaleNamespacesReadPermission,
  StaleNamespacesSoFar,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import Button from '@mui/material/Button';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import useAsyncRetry from 'react-use/lib/useAsyncRetry';
import { gitlabEnvApiRef } from '../../api';
import { StaleNamespacesResult } from './StaleNamespacesResult';
import { useAuthorized } from '../../hooks/useAuthorized';

/**
 * The portal-wide clean-up list: stale namespaces across all agents,
 * biggest first. It reads every agent's namespaces, so it loads on request,
 * and only for those with the portal-wide permission.
 */
export function StaleNamespacesOverview() {
  const { allowed } = useAuthorized({
    permission: gitlabEnvStaleNamespacesReadPermission,
  });
  const [requested, setRequested] = useState(false);
  if (!allowed) return null;
  return requested ? (
    <StaleNamespacesList />
  ) : (
    <Box component="section" aria-label="Namespaces left behind">
      <Button variant="outlined" onClick={() => setRequested(true)}>
        Find namespaces left behind
      </Button>
    </Box>
  );
}

function StaleNamespacesList() {
  const api = useApi(gitlabEnvApiRef);
  // Streamed agent by agent: a slow or absent agent holds only its own.
  const [sofar, setSofar] = useState<StaleNamespacesSoFar>();
  const stale = useAsyncRetry(() => {
    setSofar(undefined);
    return api.getAllStaleNamespaces({ onProgress: setSofar });
  }, [api]);
  return (
    <Box
      component="section"
      aria-label="Namespaces left behind"
      sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}
    >
      <Typography variant="h6" component="h2">
        Namespaces left behind
      </Typography>
      <Typography variant="body2" color="text.secondary">
        Namespaces that ci_access rules or GitLab-managed resources made for
        environments that are stopped or deleted, across all agents, biggest
        first.
      </Typography>
      <StaleNamespacesResult
        stale={stale}
        reading={stale.loading ? sofar : undefined}
        showEntity
      />
    </Box>
  );
}
