import * as React from 'react';
import { CompoundEntityRef } from '@backstage/catalog-model';
import { useApi } from '@backstage/core-plugin-api';
import { DeploymentRecord } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import DialogContentText from '@mui/material/DialogContentText';
import { gitlabEnvHistoryApiRef } from '../../api';
import { shortSha } from '../../view/format';
import { ConfirmDialog } from '../actions/ConfirmDialog';
import { CommandBlock } from '../text/CommandBlock';

/**
 * Confirms GitLab's rollback: the deploy job of an earlier successful
 * deployment runs again, which deploys its commit again and makes a new
 * deployment. Names the job, the commit and the environment, and shows
 * the REST call that does the same.
 */
export function GitlabRollbackDialog({
  entity,
  environmentSlug,
  environmentName,
  deployment,
  onClose,
  onDone,
}: {
  entity: CompoundEntityRef;
  environmentSlug: string;
  environmentName: string;
  deployment: DeploymentRecord;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const api = useApi(gitlabEnvHistoryApiRef);
  const { job } = deployment;
  const what =
    [deployment.ref, shortSha(deployment.sha)].filter(Boolean).join(' at ') ||
    `deployment #${deployment.iid}`;
  return (
    <ConfirmDialog
      title={`Roll ${environmentName} back to deployment #${deployment.iid}?`}
      confirmLabel={`Re-run job #${job?.id ?? ''}`}
      canConfirm={Boolean(job)}
      failureTitle="GitLab refused the rollback"
      onConfirm={async () => {
        const response = await api.rollbackDeployment(
          entity,
          environmentSlug,
          deployment.id,
        );
        onDone(response.message);
      }}
      onClose={onClose}
    >
      <DialogContentText>
        GitLab runs job {job?.name ?? ''} #{job?.id}
        {job?.pipeline
          ? ` of pipeline #${job.pipeline.iid ?? job.pipeline.id}`
          : ''}{' '}
        again, as its “Rollback environment” does: it deploys {what} to{' '}
        {environmentName} once more, and GitLab records a new deployment.
        Whatever deployed after it stays in the history; the next pipeline that
        deploys to {environmentName} replaces it.
      </DialogContentText>
      {deployment.rollback?.command ? (
        <>
          <DialogContentText sx={{ mt: 2 }}>
            The same through GitLab’s API:
          </DialogContentText>
          <CommandBlock
            command={deployment.rollback.command}
            label="GitLab API command"
          />
        </>
      ) : null}
    </ConfirmDialog>
  );
}
