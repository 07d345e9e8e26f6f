import * as React from 'react';
import { useState } from 'react';
import { StaleNamespace } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
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
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const { contents } = namespace;
  const confirm = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await onDelete();
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  };
  return (
    <Dialog
      open
      onClose={busy ? undefined : onCancel}
      aria-labelledby="delete-namespace-title"
    >
      <DialogTitle id="delete-namespace-title">
        Delete namespace {namespace.name}?
      </DialogTitle>
      <DialogContent>
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
        {error ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {error}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <Button
          color="error"
          variant="contained"
          onClick={confirm}
          disabled={busy}
        >
          {busy ? 'Deleting…' : `Delete ${namespace.name}`}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
