import * as React from 'react';
import { useState } from 'react';
import { CompoundEntityRef } from '@backstage/catalog-model';
import { useApi } from '@backstage/core-plugin-api';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useAsyncRetry from 'react-use/lib/useAsyncRetry';
import { gitlabEnvApiRef } from '../../api';
import {
  GitlabEnvErrorAlert,
  GitlabEnvErrorPanel,
} from '../errors/GitlabEnvErrorPanel';
import { AccessMatrix } from './AccessMatrix';
import { StaleNamespacesResult } from './StaleNamespacesResult';
import { TryItBox } from './TryItBox';

function Section({
  title,
  children,
}: {
  title: string;
  children: React.ReactNode;
}) {
  return (
    <Paper
      variant="outlined"
      sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 2 }}
    >
      <Typography variant="h6" component="h2">
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/**
 * "Access and namespaces" of an entity: which ci_access entry and rule of
 * each agent decide its environments' deployments and in which namespace,
 * a box to try expressions and entries, and the namespaces left behind.
 */
export function AccessAndNamespaces({
  entityRef,
}: {
  entityRef: CompoundEntityRef;
}) {
  const api = useApi(gitlabEnvApiRef);
  const [branchInput, setBranchInput] = useState('');
  const [branch, setBranch] = useState<string>();
  const matrix = useAsyncRetry(
    () => api.getCiAccess(entityRef, { branch }),
    [api, entityRef, branch],
  );
  const stale = useAsyncRetry(
    () => api.getStaleNamespaces(entityRef),
    [api, entityRef],
  );

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Section title="Who may deploy where">
        <Box
          component="form"
          sx={{ display: 'flex', gap: 1, alignItems: 'center' }}
          onSubmit={e => {
            e.preventDefault();
            setBranch(branchInput.trim() || undefined);
          }}
        >
          <TextField
            size="small"
            label="Branch of the deployment job"
            placeholder="default branch"
            value={branchInput}
            onChange={e => setBranchInput(e.target.value)}
          />
          <Button type="submit" variant="outlined">
            Evaluate
          </Button>
        </Box>
        {matrix.loading && !matrix.value ? (
          <Skeleton variant="rounded" height={120} />
        ) : null}
        {matrix.error ? (
          <GitlabEnvErrorPanel error={matrix.error} onRetry={matrix.retry} />
        ) : null}
        {matrix.value?.agents
          .filter(a => a.error)
          .map(a => (
            <GitlabEnvErrorAlert
              key={a.id}
              error={a.error!}
              onRetry={matrix.retry}
            />
          ))}
        {matrix.value && matrix.value.environments.length === 0 ? (
          <Alert severity="info" variant="outlined">
            No running environments to evaluate.
          </Alert>
        ) : null}
        {matrix.value && matrix.value.environments.length > 0 ? (
          <AccessMatrix matrix={matrix.value} />
        ) : null}
      </Section>
      <Section title="Try it">
        <TryItBox
          key={matrix.value ? 'loaded' : 'empty'}
          cells={matrix.value?.cells ?? []}
          agents={matrix.value?.agents ?? []}
        />
      </Section>
      <Section title="Namespaces left behind">
        <StaleNamespacesResult stale={stale} />
      </Section>
    </Box>
  );
}
