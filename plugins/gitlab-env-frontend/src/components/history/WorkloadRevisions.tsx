import * as React from 'react';
import { useState } from 'react';
import { CompoundEntityRef } from '@backstage/catalog-model';
import { useApi } from '@backstage/core-plugin-api';
import {
  EnvironmentActionResponse,
  WorkloadHistory,
  WorkloadRevision,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import useAsyncRetry from 'react-use/esm/useAsyncRetry';
import { gitlabEnvHistoryApiRef } from '../../api';
import {
  Decisions,
  refusalReason,
  useAllowedActionsOf,
} from '../actions/useAllowedActions';
import {
  GitlabEnvErrorPanel,
  PartialErrors,
} from '../errors/GitlabEnvErrorPanel';
import { CommandBlock } from '../text/CommandBlock';
import { MessageText } from '../text/MessageText';
import { COMPACT_TABLE_SX } from '../tableStyle';
import { formatTime } from '../../view/format';
import { WorkloadRollbackDialog } from './WorkloadRollbackDialog';
import { RollbackButton } from './RollbackButton';

/**
 * The revisions Kubernetes keeps of each Deployment, StatefulSet and
 * DaemonSet (`kubectl rollout history`), and the rollback to one of them.
 */
export function WorkloadRevisions({
  entity,
  environmentSlug,
}: {
  entity: CompoundEntityRef;
  environmentSlug: string;
}) {
  const api = useApi(gitlabEnvHistoryApiRef);
  const { value, loading, error, retry } = useAsyncRetry(
    () => api.getRevisions(entity, environmentSlug),
    [api, entity, environmentSlug],
  );
  const workloads = value?.workloads ?? [];
  // One question for every workload listed, not one per table.
  const allowed = useAllowedActionsOf(workloads.map(w => w.target));
  const [done, setDone] = useState<EnvironmentActionResponse[]>();
  return (
    <Box
      component="section"
      aria-label="Workload revisions"
      sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}
    >
      <Typography variant="h6" component="h3">
        Workload revisions
      </Typography>
      {loading && !value ? (
        <Skeleton
          variant="rounded"
          height={96}
          aria-label="Loading revisions"
        />
      ) : null}
      {error ? (
        <GitlabEnvErrorPanel
          error={error}
          onRetry={retry}
          title="Could not read the workloads’ revisions"
        />
      ) : null}
      {done ? (
        <Alert
          severity="success"
          variant="outlined"
          onClose={() => setDone(undefined)}
        >
          {done.map(response => (
            <div key={response.message}>{response.message}</div>
          ))}
        </Alert>
      ) : null}
      {value ? <PartialErrors errors={value.errors ?? []} /> : null}
      {value && value.workloads.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No Deployment, StatefulSet or DaemonSet in this environment keeps
          revisions.
        </Typography>
      ) : null}
      {workloads.map((workload, i) => (
        <WorkloadRevisionsTable
          key={`${workload.target.kind}/${workload.target.namespace}/${workload.target.name}`}
          workload={workload}
          allowed={{
            loading: allowed.loading,
            error: allowed.error,
            decisions: allowed.decisions?.[i],
          }}
          onDone={responses => {
            setDone(responses);
            retry();
          }}
        />
      ))}
    </Box>
  );
}

function WorkloadRevisionsTable({
  workload,
  allowed,
  onDone,
}: {
  workload: WorkloadHistory;
  /** What the user may do with this workload, from the list's one question. */
  allowed: { decisions?: Decisions; loading: boolean; error?: Error };
  onDone: (responses: EnvironmentActionResponse[]) => void;
}) {
  const { target } = workload;
  const [chosen, setChosen] = useState<WorkloadRevision>();
  const reason = refusalReason(
    { ...allowed, decision: allowed.decisions?.['workload.rollback'] },
    'You may not roll this workload back.',
  );
  const newestFirst = [...workload.revisions].sort(
    (a, b) => b.revision - a.revision,
  );
  const heading = `${target.kind} ${target.name}`;
  return (
    <Box
      role="group"
      aria-label={heading}
      sx={{ display: 'flex', flexDirection: 'column', gap: 0.5 }}
    >
      <Typography variant="subtitle2" component="h4">
        {heading}
        {workload.managedBy ? (
          <Chip
            size="small"
            variant="outlined"
            sx={{ ml: 1 }}
            label={
              workload.managedBy.by === 'flux'
                ? `applied by Flux ${workload.managedBy.object.kind} ${workload.managedBy.object.name}`
                : 'deployed by a GitLab pipeline'
            }
          />
        ) : null}
      </Typography>
      {workload.managedBy ? (
        <Typography variant="body2" color="text.secondary">
          <MessageText text={workload.managedBy.warning} />
        </Typography>
      ) : null}
      <Box
        component="table"
        aria-label={`Revisions of ${heading}`}
        sx={COMPACT_TABLE_SX}
      >
        <thead>
          <tr>
            <th>Revision</th>
            <th>Made</th>
            <th>Images</th>
            <th>Change cause</th>
            <th>Differs from now in</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {newestFirst.map(revision => (
            <tr key={revision.revision} data-revision={revision.revision}>
              <td>
                {revision.revision}
                {revision.current ? (
                  <Chip
                    size="small"
                    color="success"
                    label="running"
                    sx={{ ml: 1 }}
                  />
                ) : null}
              </td>
              <td>{formatTime(revision.createdAt) ?? '—'}</td>
              <td>
                {Object.entries(revision.images).map(([container, image]) => (
                  <div key={container}>
                    {container}: <code>{image}</code>
                  </div>
                ))}
              </td>
              <td>{revision.changeCause ?? '—'}</td>
              <td>
                {revision.current
                  ? '—'
                  : `${revision.diffFromCurrent.length} field${
                      revision.diffFromCurrent.length === 1 ? '' : 's'
                    }`}
              </td>
              <td>
                {revision.current ? null : (
                  <RollbackButton
                    label={`Roll back ${heading} to revision ${revision.revision}`}
                    reason={reason}
                    onClick={() => setChosen(revision)}
                  />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </Box>
      <CommandBlock
        command={workload.historyCommand}
        label="kubectl rollout history command"
      />
      {chosen ? (
        <WorkloadRollbackDialog
          workload={workload}
          revision={chosen}
          onClose={() => setChosen(undefined)}
          onDone={responses => {
            setChosen(undefined);
            onDone(responses);
          }}
        />
      ) : null}
    </Box>
  );
}
