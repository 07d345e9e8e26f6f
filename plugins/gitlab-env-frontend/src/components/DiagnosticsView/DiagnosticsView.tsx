import * as React from 'react';
import { InfoCard, Progress } from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import {
  InstanceDiagnostics,
  KasUrlSource,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useAsyncRetry from 'react-use/esm/useAsyncRetry';
import { gitlabEnvApiRef } from '../../api';
import { ERROR_CATALOG } from '../errors/errorCatalog';
import {
  GitlabEnvErrorAlert,
  GitlabEnvErrorPanel,
} from '../errors/GitlabEnvErrorPanel';

const KAS_SOURCE: Record<KasUrlSource, string> = {
  configured: 'set in gitlabEnv.instances[].kasProxyUrl',
  metadata: "from GitLab's metadata (kas.externalK8sProxyUrl, GitLab 17.6+)",
  derived: "derived from GitLab's kas.externalUrl (GitLab before 17.6)",
  none: 'not found',
};

const DAY_MS = 86_400_000;

function expiry(expiresAt: string | undefined, now: number): string {
  if (!expiresAt) return 'does not expire, or unknown';
  const days = Math.ceil((Date.parse(expiresAt) - now) / DAY_MS);
  if (Number.isNaN(days)) return expiresAt;
  if (days < 0) return `${expiresAt} (expired)`;
  return `${expiresAt} (in ${days} day${days === 1 ? '' : 's'})`;
}

function Fact({
  label,
  children,
}: {
  label: string;
  children: React.ReactNode;
}) {
  return (
    <TableRow>
      <TableCell component="th" scope="row" sx={{ width: 200 }}>
        {label}
      </TableCell>
      <TableCell>{children}</TableCell>
    </TableRow>
  );
}

function InstanceFacts({
  instance,
  minimumVersion,
}: {
  instance: InstanceDiagnostics;
  minimumVersion: string;
}) {
  const { token, kas } = instance;
  const now = Date.now();
  return (
    <Table size="small" aria-label={`${instance.host} facts`}>
      <TableBody>
        <Fact label="GitLab version">
          {instance.version ?? 'unknown'}
          {instance.versionUnsupported
            ? ` — below the minimum, ${minimumVersion}`
            : ''}
        </Fact>
        <Fact label="KAS proxy URL">
          {kas.url ? <code>{kas.url}</code> : 'none'} ({KAS_SOURCE[kas.source]}
          {kas.enabled ? '' : '; KAS is disabled'})
        </Fact>
        <Fact label="Token">{token.name ?? 'unknown name'}</Fact>
        <Fact label="Token scopes">
          <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
            {token.scopes.map(scope => (
              <Chip key={scope} label={scope} size="small" />
            ))}
            {token.missingScopes.map(scope => (
              <Chip
                key={scope}
                label={`missing: ${scope}`}
                color="error"
                size="small"
              />
            ))}
            {token.scopes.length === 0 && token.missingScopes.length === 0
              ? 'unknown'
              : null}
          </Box>
        </Fact>
        <Fact label="Token expiry">{expiry(token.expiresAt, now)}</Fact>
        <Fact label="Checked">{instance.checkedAt ?? 'never'}</Fact>
      </TableBody>
    </Table>
  );
}

function InstanceCard({
  instance,
  minimumVersion,
}: {
  instance: InstanceDiagnostics;
  minimumVersion: string;
}) {
  const problems = [instance.token.problem, instance.checkError].filter(
    (p): p is NonNullable<typeof p> => !!p,
  );
  return (
    <InfoCard title={instance.host} subheader={instance.baseUrl}>
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        {problems.map(problem => (
          <GitlabEnvErrorAlert key={problem.code} error={problem} />
        ))}
        <InstanceFacts instance={instance} minimumVersion={minimumVersion} />
        <Typography variant="h6" component="h3">
          Agents met ({instance.agents.length})
        </Typography>
        {instance.agents.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            No read has gone through an agent of this instance yet.
          </Typography>
        ) : (
          <Table size="small" aria-label={`${instance.host} agents`}>
            <TableHead>
              <TableRow>
                <TableCell>Agent</TableCell>
                <TableCell>Configuration project</TableCell>
                <TableCell>Last read</TableCell>
                <TableCell>When</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {instance.agents.map(agent => (
                <TableRow key={agent.id}>
                  <TableCell>
                    {agent.name} (id {agent.id})
                  </TableCell>
                  <TableCell>{agent.configProject ?? 'not visible'}</TableCell>
                  <TableCell>
                    {agent.lastResult === 'ok'
                      ? 'ok'
                      : ERROR_CATALOG[
                          agent.lastResult as keyof typeof ERROR_CATALOG
                        ]?.title ?? agent.lastResult}
                  </TableCell>
                  <TableCell>{agent.lastSeenAt}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        <Typography variant="h6" component="h3">
          Recent failures ({instance.recentFailures.length})
        </Typography>
        {instance.recentFailures.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            None since the backend started.
          </Typography>
        ) : (
          <Box component="ul" sx={{ m: 0, pl: 2 }}>
            {instance.recentFailures.map((failure, index) => (
              <li key={`${failure.at}-${index}`}>
                <Typography variant="body2">
                  <strong>{ERROR_CATALOG[failure.error.code].title}</strong>
                  {failure.context ? ` — ${failure.context}` : ''}:{' '}
                  {failure.error.message}{' '}
                  <Typography
                    component="span"
                    variant="caption"
                    color="text.secondary"
                  >
                    ({failure.at})
                  </Typography>
                </Typography>
              </li>
            ))}
          </Box>
        )}
      </Box>
    </InfoCard>
  );
}

/**
 * For portal admins: each GitLab instance as the backend sees it (version,
 * KAS URL and how it was found, the token's scopes and expiry) and what
 * reads through it met (agents, recent failures).
 */
export function DiagnosticsView() {
  const api = useApi(gitlabEnvApiRef);
  const state = useAsyncRetry(() => api.getDiagnostics(), [api]);
  if (state.loading && !state.value) return <Progress />;
  if (state.error) {
    return <GitlabEnvErrorPanel error={state.error} onRetry={state.retry} />;
  }
  const body = state.value!;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
        <Alert severity="info" variant="outlined" sx={{ flex: 1 }}>
          The plugin needs GitLab {body.minimumGitlabVersion} or later and a
          token with the read_api and k8s_proxy scopes whose user is covered by
          each agent&apos;s user_access.
        </Alert>
        <Button variant="outlined" onClick={state.retry}>
          Check again
        </Button>
      </Box>
      {body.instances.map(instance => (
        <InstanceCard
          key={instance.host}
          instance={instance}
          minimumVersion={body.minimumGitlabVersion}
        />
      ))}
    </Box>
  );
}
