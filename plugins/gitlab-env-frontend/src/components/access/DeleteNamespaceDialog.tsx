import * as React from 'react';
import { StaleNamespace } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import Alert from '@mui/material/Alert';
import DialogContentText from '@mui/material/DialogContentText';
import { ConfirmDialog } from '../actions/ConfirmDialog';
import { CommandBlock } from '../text/CommandBlock';
import { describeContents } from './describe';

/**
 * Confirms a namespace deletion, naming what the namespace holds and the
 * kubectl command that does the same; the delete runs once, never retried.
 */
export function DeleteNamespaceDialog({
  namespace,
  onCancel,
  onDelete,
}: {
  namespace: StaleNamespace;
  onCancel: () => void;
  onDelete: () => Promise<void>;
}) {
  const { contents } = namespace;
  return (
    <ConfirmDialog
      title={`Delete namespace ${namespace.name}?`}
      confirmLabel={`Delete ${namespace.name}`}
      confirmColor="error"
      failureTitle={`Could not delete namespace ${namespace.name}`}
      onConfirm={onDelete}
      onClose={onCancel}
    >
      <DialogContentText>
        On agent {namespace.agent.name}, {namespace.name} holds{' '}
        {describeContents(contents)}
        {contents.runningWorkloads > 0
          ? `; ${contents.runningWorkloads} workload${
              contents.runningWorkloads === 1 ? ' is' : 's are'
            } still running`
          : ''}
        . Deleting the namespace deletes everything in it.
      </DialogContentText>
      {namespace.gitlabDeletes ? (
        <Alert severity="info" variant="outlined" sx={{ mt: 2 }}>
          GitLab created this namespace with delete_resources: on_stop and is
          expected to delete it itself.
        </Alert>
      ) : null}
      <DialogContentText sx={{ mt: 2 }}>
        The same from a terminal:
      </DialogContentText>
      <CommandBlock command={namespace.kubectl} label="kubectl command" />
    </ConfirmDialog>
  );
}
