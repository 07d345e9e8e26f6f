import * as React from 'react';
import { useState } from 'react';
import { useApi } from '@backstage/core-plugin-api';
import {
  EnvironmentActionResponse,
  WorkloadHistory,
  WorkloadRevision,
  kubectlCommandFor,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import DialogContentText from '@mui/material/DialogContentText';
import FormControlLabel from '@mui/material/FormControlLabel';
import { gitlabEnvApiRef } from '../../api';
import { useEnvironmentScope } from '../actions/EnvironmentScope';
import { useAllowedActions } from '../actions/useAllowedActions';
import { ACTION_TEXT } from '../actions/actionText';
import { ConfirmDialog } from '../actions/ConfirmDialog';
import { CommandList } from '../text/CommandBlock';
import { MessageText } from '../text/MessageText';
import { COMPACT_TABLE_SX } from '../tableStyle';
import { fieldValueText, formatTime } from '../../view/format';

/**
 * Confirms `kubectl rollout undo --to-revision`: the pod template's fields
 * that change, who will revert it (Flux at its next reconcile, the next
 * GitLab deployment) with the offer to suspend the Flux object first, and
 * the commands that do the same.
 */
export function WorkloadRollbackDialog({
  workload,
  revision,
  onClose,
  onDone,
}: {
  workload: WorkloadHistory;
  revision: WorkloadRevision;
  onClose: () => void;
  onDone: (responses: EnvironmentActionResponse[]) => void;
}) {
  const api = useApi(gitlabEnvApiRef);
  const scope = useEnvironmentScope();
  const { target, managedBy } = workload;
  const flux =
    managedBy?.by === 'flux' && !managedBy.suspended
      ? managedBy.object
      : undefined;
  const fluxDecisions = useAllowedActions(flux);
  const maySuspend = Boolean(
    fluxDecisions.decisions?.['flux.suspend']?.allowed,
  );
  const [suspendFirst, setSuspendFirst] = useState(false);
  /** Suspended by this dialog: said if the rollback then fails, and not asked again on a retry. */
  const [suspended, setSuspended] = useState<EnvironmentActionResponse>();
  const commands = [
    ...(suspendFirst && flux ? [kubectlCommandFor('flux.suspend', flux)] : []),
    kubectlCommandFor('workload.rollback', target, {
      toRevision: revision.revision,
    }),
  ];

  const confirm = async () => {
    if (!scope) return;
    const responses: EnvironmentActionResponse[] = [];
    if (suspendFirst && flux) {
      const suspend =
        suspended ??
        (await api.runAction(scope.entity, scope.environmentSlug, {
          action: 'flux.suspend',
          target: flux,
        }));
      setSuspended(suspend);
      responses.push(suspend);
    }
    responses.push(
      await api.runAction(scope.entity, scope.environmentSlug, {
        action: 'workload.rollback',
        target,
        toRevision: revision.revision,
      }),
    );
    onDone(responses);
  };

  return (
    <ConfirmDialog
      title={`Roll ${target.kind} ${target.name} back to revision ${revision.revision}?`}
      confirmLabel={`Roll back to revision ${revision.revision}`}
      canConfirm={Boolean(scope)}
      failureTitle="The rollback failed"
      maxWidth="md"
      onConfirm={confirm}
      onClose={onClose}
    >
      <DialogContentText>
        In namespace {target.namespace}:{' '}
        {ACTION_TEXT['workload.rollback'].explain(target.kind, target.name)}{' '}
        Revision {revision.revision} is {revision.source.kind}{' '}
        {revision.source.name}
        {revision.createdAt ? `, made ${formatTime(revision.createdAt)}` : ''}.
      </DialogContentText>
      {revision.diffFromCurrent.length > 0 ? (
        <Box
          component="table"
          aria-label="Pod template changes"
          sx={{
            ...COMPACT_TABLE_SX,
            mt: 2,
            '& td': { wordBreak: 'break-all' },
          }}
        >
          <thead>
            <tr>
              <th>Field of the pod template</th>
              <th>Now</th>
              <th>After the rollback</th>
            </tr>
          </thead>
          <tbody>
            {revision.diffFromCurrent.map(change => (
              <tr key={change.path}>
                <td>
                  <code>{change.path}</code>
                </td>
                <td>
                  <code>{fieldValueText(change.before)}</code>
                </td>
                <td>
                  <code>{fieldValueText(change.after)}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </Box>
      ) : (
        <Alert severity="info" variant="outlined" sx={{ mt: 2 }}>
          This revision’s pod template is the one running now: Kubernetes skips
          the rollback and says so.
        </Alert>
      )}
      {managedBy ? (
        <Alert severity="warning" variant="outlined" sx={{ mt: 2 }}>
          <MessageText text={managedBy.warning} />
        </Alert>
      ) : null}
      {flux ? (
        <FormControlLabel
          sx={{ mt: 1 }}
          control={
            <Checkbox
              checked={suspendFirst}
              onChange={e => setSuspendFirst(e.target.checked)}
              disabled={!maySuspend}
            />
          }
          label={`Suspend ${flux.kind} ${
            flux.name
          } first, so Flux keeps the rollback until it is resumed${
            maySuspend || fluxDecisions.loading
              ? ''
              : ` (${
                  fluxDecisions.decisions?.['flux.suspend']?.reason ??
                  'you may not suspend it'
                })`
          }`}
        />
      ) : null}
      {suspended && flux ? (
        <Alert severity="warning" sx={{ mt: 2 }}>
          {flux.kind} {flux.name} is suspended now: Flux leaves the workload
          alone until it is resumed, whether or not the rollback succeeds.
        </Alert>
      ) : null}
      <DialogContentText sx={{ mt: 2 }}>
        The same from a terminal:
      </DialogContentText>
      <CommandList commands={commands} label="kubectl commands" />
    </ConfirmDialog>
  );
}
