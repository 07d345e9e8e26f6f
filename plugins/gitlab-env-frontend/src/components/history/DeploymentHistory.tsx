import * as React from 'react';
import { useState } from 'react';
import {
  CompoundEntityRef,
  stringifyEntityRef,
} from '@backstage/catalog-model';
import { useApi } from '@backstage/core-plugin-api';
import {
  DeploymentHistoryResponse,
  DeploymentRecord,
  gitlabEnvDeploymentRollbackPermission,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import KeyboardArrowDownIcon from '@mui/icons-material/KeyboardArrowDown';
import KeyboardArrowRightIcon from '@mui/icons-material/KeyboardArrowRight';
import LocalOfferOutlinedIcon from '@mui/icons-material/LocalOfferOutlined';
import { gitlabEnvHistoryApiRef } from '../../api';
import { useAuthorized } from '../../hooks/useAuthorized';
import { useCursorPages } from '../../hooks/useCursorPages';
import { formatDuration, formatTime, shortSha } from '../../view/format';
import {
  GitlabEnvErrorPanel,
  PartialErrors,
} from '../errors/GitlabEnvErrorPanel';
import { refusalReason } from '../actions/useAllowedActions';
import { OptionalLink } from '../text/OptionalLink';
import { WHOLE_WORDS_SX } from '../tableStyle';
import { DeploymentChangesView } from './DeploymentChangesView';
import { GitlabRollbackDialog } from './GitlabRollbackDialog';
import { RollbackButton } from './RollbackButton';
import { deploymentStatusColor } from './historyStyle';

const PAGE_SIZE = 20;

/**
 * An environment's deployments as GitLab keeps them, newest first, a page
 * at a time: what ran, who ran it, its job and pipeline, and, expanded,
 * what it brought. An earlier successful one can be deployed again
 * (GitLab's "Rollback environment"), after a confirmation.
 */
export function DeploymentHistory({
  entity,
  environmentSlug,
  environmentName,
}: {
  entity: CompoundEntityRef;
  environmentSlug: string;
  environmentName: string;
}) {
  const api = useApi(gitlabEnvHistoryApiRef);
  const pages = useCursorPages(
    (cursor, signal) =>
      api.getDeployments(entity, environmentSlug, {
        cursor,
        limit: PAGE_SIZE,
        signal,
      }),
    page => page.deployments,
    [api, entity, environmentSlug],
  );
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [rollingBack, setRollingBack] = useState<DeploymentRecord>();
  const [done, setDone] = useState<string>();
  const permission = useAuthorized({
    permission: gitlabEnvDeploymentRollbackPermission,
    resourceRef: stringifyEntityRef(entity),
  });

  const toggle = (id: string) =>
    setExpanded(previous => {
      const next = new Set(previous);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  const { response, items: deployments, loading, error } = pages;
  if (!response && loading)
    return (
      <Skeleton
        variant="rounded"
        height={160}
        aria-label="Loading deployments"
      />
    );
  if (!response && error)
    return (
      <GitlabEnvErrorPanel
        error={error}
        onRetry={pages.retry}
        title="Could not read the deployments"
      />
    );
  if (!response) return null;
  const readiness = response.gitlabRollback;

  return (
    <Box
      component="section"
      aria-label={`Deployments of ${environmentName}`}
      sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}
    >
      <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 1 }}>
        <Typography variant="h6" component="h3">
          Deployments
        </Typography>
        <Typography variant="caption" color="text.secondary">
          from GitLab
          {response.source === 'rest' ? ' (REST deployments API)' : ''}
        </Typography>
        <Box sx={{ flexGrow: 1 }} />
        {response.environment.webUrl ? (
          <OptionalLink to={response.environment.webUrl}>
            Environment in GitLab
          </OptionalLink>
        ) : null}
      </Box>
      {!readiness.configured ? (
        <Alert severity="info" variant="outlined">
          Rolling back through GitLab is off:{' '}
          {readiness.reason ??
            'no rollback token is configured for this GitLab instance.'}
        </Alert>
      ) : null}
      <PartialErrors errors={response.errors ?? []} />
      {done ? (
        <Alert
          severity="success"
          variant="outlined"
          onClose={() => setDone(undefined)}
        >
          {done}
        </Alert>
      ) : null}
      {deployments.length === 0 ? (
        <Alert severity="info" variant="outlined">
          GitLab has no deployments of this environment yet.
        </Alert>
      ) : (
        <Table size="small" aria-label="Deployments" sx={WHOLE_WORDS_SX}>
          <TableHead>
            <TableRow>
              <TableCell padding="checkbox" />
              <TableCell>Deployment</TableCell>
              <TableCell>Status</TableCell>
              <TableCell>Ref and commit</TableCell>
              <TableCell>By</TableCell>
              <TableCell>Job and pipeline</TableCell>
              <TableCell>Started</TableCell>
              <TableCell>Finished</TableCell>
              <TableCell>Took</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {deployments.map(deployment => (
              <DeploymentRow
                key={deployment.id}
                deployment={deployment}
                projectUrl={response.project.webUrl}
                expanded={expanded.has(deployment.id)}
                onToggle={() => toggle(deployment.id)}
                rollback={rollbackState(deployment, readiness, permission)}
                onRollback={() => setRollingBack(deployment)}
                details={
                  expanded.has(deployment.id) ? (
                    <DeploymentChangesView
                      entity={entity}
                      environmentSlug={environmentSlug}
                      deployment={deployment}
                    />
                  ) : null
                }
              />
            ))}
          </TableBody>
        </Table>
      )}
      {error ? (
        <GitlabEnvErrorPanel
          error={error}
          onRetry={pages.retry}
          title={
            pages.olderFailed
              ? 'Could not read older deployments'
              : 'Could not read the deployments'
          }
        />
      ) : null}
      {response.nextCursor ? (
        <Box>
          <Button
            onClick={pages.loadOlder}
            disabled={loading}
            variant="outlined"
            size="small"
          >
            {loading ? 'Loading…' : 'Older deployments'}
          </Button>
        </Box>
      ) : null}
      {rollingBack ? (
        <GitlabRollbackDialog
          entity={entity}
          environmentSlug={environmentSlug}
          environmentName={environmentName}
          deployment={rollingBack}
          onClose={() => setRollingBack(undefined)}
          onDone={message => {
            setRollingBack(undefined);
            setDone(message);
            pages.reload();
          }}
        />
      ) : null}
    </Box>
  );
}

interface RollbackState {
  /** Whether to show the action on this row at all. */
  shown: boolean;
  enabled: boolean;
  reason?: string;
}

function rollbackState(
  deployment: DeploymentRecord,
  readiness: DeploymentHistoryResponse['gitlabRollback'],
  permission: { allowed: boolean; loading: boolean; error?: Error },
): RollbackState {
  const offer = deployment.rollback;
  // Only successful deployments can be deployed again; the others say nothing.
  if (!offer || deployment.status !== 'success')
    return { shown: false, enabled: false };
  if (!offer.available)
    return { shown: true, enabled: false, reason: offer.reason };
  if (!readiness.configured)
    return {
      shown: true,
      enabled: false,
      reason:
        readiness.reason ??
        'No rollback token is configured for this GitLab instance.',
    };
  const reason = refusalReason(
    { ...permission, decision: { allowed: permission.allowed } },
    'You may not roll this entity’s environments back (gitlab-env.deployments.rollback).',
  );
  return reason === undefined
    ? { shown: true, enabled: true }
    : { shown: true, enabled: false, reason };
}

function DeploymentRow({
  deployment,
  projectUrl,
  expanded,
  onToggle,
  rollback,
  onRollback,
  details,
}: {
  deployment: DeploymentRecord;
  projectUrl: string;
  expanded: boolean;
  onToggle: () => void;
  rollback: RollbackState;
  onRollback: () => void;
  details: React.ReactNode;
}) {
  const { job } = deployment;
  const detailsId = `gitlab-env-deployment-${deployment.id}-changes`;
  const label = `deployment #${deployment.iid}`;
  return (
    <>
      <TableRow
        data-deployment={deployment.iid}
        sx={{ '& > td': { borderBottom: expanded ? 'none' : undefined } }}
      >
        <TableCell padding="checkbox">
          <IconButton
            size="small"
            aria-expanded={expanded}
            aria-controls={expanded ? detailsId : undefined}
            aria-label={`${expanded ? 'Hide' : 'Show'} what ${label} brought`}
            onClick={onToggle}
          >
            {expanded ? <KeyboardArrowDownIcon /> : <KeyboardArrowRightIcon />}
          </IconButton>
        </TableCell>
        <TableCell>
          <OptionalLink to={deployment.webUrl}>#{deployment.iid}</OptionalLink>
        </TableCell>
        <TableCell>
          <Chip
            size="small"
            variant="outlined"
            label={deployment.status}
            color={deploymentStatusColor(deployment.status)}
          />
        </TableCell>
        <TableCell>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
            {deployment.tag ? (
              <LocalOfferOutlinedIcon
                fontSize="inherit"
                titleAccess="tag"
                color="action"
              />
            ) : null}
            <span>{deployment.ref ?? '—'}</span>
            {deployment.sha ? (
              <OptionalLink to={`${projectUrl}/-/commit/${deployment.sha}`}>
                <code>{deployment.shortSha ?? shortSha(deployment.sha)}</code>
              </OptionalLink>
            ) : null}
          </Box>
          {deployment.commitTitle ? (
            <Typography
              variant="caption"
              color="text.secondary"
              component="div"
              sx={{ maxWidth: 320 }}
              noWrap
              title={deployment.commitTitle}
            >
              {deployment.commitTitle}
            </Typography>
          ) : null}
        </TableCell>
        <TableCell>
          {deployment.triggerer ? (
            <OptionalLink to={deployment.triggerer.webUrl}>
              {deployment.triggerer.name}
            </OptionalLink>
          ) : (
            '—'
          )}
        </TableCell>
        <TableCell>
          {job ? (
            <Box sx={{ display: 'flex', flexDirection: 'column' }}>
              <OptionalLink to={job.webUrl}>
                {job.name ?? 'job'} #{job.id}
              </OptionalLink>
              {job.pipeline ? (
                <OptionalLink to={job.pipeline.webUrl}>
                  pipeline #{job.pipeline.iid ?? job.pipeline.id}
                </OptionalLink>
              ) : null}
            </Box>
          ) : (
            '—'
          )}
        </TableCell>
        <TableCell>
          <time dateTime={deployment.createdAt}>
            {formatTime(deployment.createdAt) ?? '—'}
          </time>
        </TableCell>
        <TableCell>
          <time dateTime={deployment.finishedAt}>
            {formatTime(deployment.finishedAt) ?? '—'}
          </time>
        </TableCell>
        <TableCell>
          {formatDuration(deployment.durationSeconds) ?? '—'}
        </TableCell>
        <TableCell align="right">
          {rollback.shown ? (
            <RollbackButton
              label={`Roll back to ${label}`}
              reason={
                rollback.enabled ? undefined : rollback.reason ?? 'Not offered.'
              }
              onClick={onRollback}
            />
          ) : null}
        </TableCell>
      </TableRow>
      {expanded ? (
        <TableRow>
          <TableCell colSpan={10} id={detailsId} sx={{ pt: 0 }}>
            {details}
          </TableCell>
        </TableRow>
      ) : null}
    </>
  );
}
