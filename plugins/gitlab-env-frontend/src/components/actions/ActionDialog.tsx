import * as React from 'react';
import { useState } from 'react';
import { useApi } from '@backstage/core-plugin-api';
import {
  ActionTarget,
  EnvironmentAction,
  EnvironmentActionResponse,
  KubernetesObject,
  fluxSourceOf,
  kubectlCommandFor,
  reconcilesWithSource,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import TextField from '@mui/material/TextField';
import { gitlabEnvApiRef } from '../../api';
import { GitlabEnvErrorPanel } from '../errors/GitlabEnvErrorPanel';
import { CommandBlock } from '../text/CommandBlock';
import { ACTION_TEXT } from './actionText';
import { useEnvironmentScope } from './EnvironmentScope';

export interface ActionDialogProps {
  action: EnvironmentAction;
  target: ActionTarget;
  object?: KubernetesObject;
  /** The HPA that owns the replica count, for a scale. */
  autoscaler?: { name: string; minReplicas?: number; maxReplicas?: number };
  onClose: () => void;
  onDone: (response: EnvironmentActionResponse) => void;
}

const MAX_REPLICAS = 10_000;

/**
 * Confirms one action: names the object, says what will happen, and shows
 * the kubectl command that does the same, to copy. The action runs once;
 * a failure stays in the dialog with the backend's message and hint.
 */
export function ActionDialog({
  action,
  target,
  object,
  autoscaler,
  onClose,
  onDone,
}: ActionDialogProps) {
  const api = useApi(gitlabEnvApiRef);
  const scope = useEnvironmentScope();
  const current =
    typeof object?.spec?.replicas === 'number' ? object.spec.replicas : 1;
  const [replicasText, setReplicasText] = useState(String(current));
  const source =
    action === 'flux.reconcile' &&
    object &&
    reconcilesWithSource(target.apiVersion, target.kind)
      ? fluxSourceOf(object)
      : undefined;
  const [withSource, setWithSource] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error>();

  const replicas = Number(replicasText);
  const replicasValid =
    /^\d+$/.test(replicasText) && replicas >= 0 && replicas <= MAX_REPLICAS;
  const command =
    action !== 'workload.scale' || replicasValid
      ? kubectlCommandFor(action, target, {
          replicas: action === 'workload.scale' ? replicas : undefined,
          source: withSource ? source : undefined,
        })
      : undefined;
  const text = ACTION_TEXT[action];
  const titleId = 'gitlab-env-action-title';

  const confirm = async () => {
    if (!scope) return;
    setBusy(true);
    setError(undefined);
    try {
      const response = await api.runAction(
        scope.entity,
        scope.environmentSlug,
        {
          action,
          target,
          ...(action === 'workload.scale' && { replicas }),
          ...(action === 'flux.reconcile' && source && { withSource }),
        },
      );
      onDone(response);
    } catch (e) {
      setError(e as Error);
      setBusy(false);
    }
  };

  return (
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      aria-labelledby={titleId}
      maxWidth="sm"
      fullWidth
    >
      <DialogTitle id={titleId}>
        {text.verb} {target.kind} {target.name}?
      </DialogTitle>
      <DialogContent>
        <DialogContentText>
          In namespace {target.namespace}:{' '}
          {text.explain(target.kind, target.name)}
        </DialogContentText>
        {action === 'workload.scale' ? (
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mt: 2 }}>
            <DialogContentText component="span">
              Now {current} replica{current === 1 ? '' : 's'} →
            </DialogContentText>
            <TextField
              label="New replicas"
              size="small"
              type="number"
              value={replicasText}
              onChange={e => setReplicasText(e.target.value)}
              error={!replicasValid}
              helperText={
                replicasValid ? ' ' : `A whole number from 0 to ${MAX_REPLICAS}`
              }
              inputProps={{ min: 0, max: MAX_REPLICAS, step: 1 }}
            />
          </Box>
        ) : null}
        {action === 'workload.scale' && autoscaler ? (
          <Alert severity="warning" variant="outlined" sx={{ mt: 1 }}>
            HorizontalPodAutoscaler {autoscaler.name} owns the replica count
            {autoscaler.minReplicas !== undefined ||
            autoscaler.maxReplicas !== undefined
              ? ` (${autoscaler.minReplicas ?? 1}–${
                  autoscaler.maxReplicas ?? '?'
                })`
              : ''}
            : it will set it back at its next decision. Change the autoscaler’s
            bounds instead to keep a new count.
          </Alert>
        ) : null}
        {source ? (
          <FormControlLabel
            sx={{ mt: 1 }}
            control={
              <Checkbox
                checked={withSource}
                onChange={e => setWithSource(e.target.checked)}
              />
            }
            label={`Reconcile its source ${source.kind} ${source.name} first (fetch the latest revision)`}
          />
        ) : null}
        <DialogContentText sx={{ mt: 2 }}>
          The same from a terminal:
        </DialogContentText>
        {command ? (
          <CommandBlock command={command} label="kubectl command" />
        ) : null}
        {error ? (
          <Box sx={{ mt: 2 }}>
            <GitlabEnvErrorPanel error={error} title="The action failed" />
          </Box>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button
          variant="contained"
          color={action === 'pod.delete' ? 'error' : 'primary'}
          onClick={confirm}
          disabled={busy || !command || !scope}
        >
          {busy ? 'Working…' : `${text.verb} ${target.name}`}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
