import * as React from 'react';
import { useState } from 'react';
import { useApi } from '@backstage/core-plugin-api';
import {
  ActionTarget,
  EnvironmentAction,
  EnvironmentActionResponse,
  KubernetesObject,
  TreeNode,
  fluxSourceOf,
  kubectlCommandFor,
  reconcilesWithSource,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import DialogContentText from '@mui/material/DialogContentText';
import FormControlLabel from '@mui/material/FormControlLabel';
import TextField from '@mui/material/TextField';
import { gitlabEnvApiRef } from '../../api';
import { GitlabEnvErrorPanel } from '../errors/GitlabEnvErrorPanel';
import { CommandBlock } from '../text/CommandBlock';
import { ACTION_TEXT } from './actionText';
import { ConfirmDialog } from './ConfirmDialog';
import { useEnvironmentScope } from './EnvironmentScope';
import { useEnvironmentObject } from '../drawer/useEnvironmentObject';

export interface ActionDialogProps {
  action: EnvironmentAction;
  target: ActionTarget;
  node: TreeNode;
  /** The node's object, when the caller read it; else the dialog reads it when it needs it. */
  object?: KubernetesObject;
  /** The HPA node that owns the replica count, for a scale. */
  autoscaler?: TreeNode;
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
  node,
  object: given,
  autoscaler,
  onClose,
  onDone,
}: ActionDialogProps) {
  const api = useApi(gitlabEnvApiRef);
  const scope = useEnvironmentScope();
  // A scale shows the replicas now and a reconcile the source: from the
  // object, read now unless the drawer did.
  const needsObject =
    !given && (action === 'workload.scale' || action === 'flux.reconcile');
  const read = useEnvironmentObject(needsObject ? node : undefined);
  const object = given ?? read.value?.object;
  const hpaSpec = useEnvironmentObject(autoscaler).value?.object?.spec;
  const current =
    typeof object?.spec?.replicas === 'number' ? object.spec.replicas : 1;
  const [replicasText, setReplicasText] = useState<string>();
  const shownReplicas = replicasText ?? (object ? String(current) : '');
  const source =
    action === 'flux.reconcile' &&
    object &&
    reconcilesWithSource(target.apiVersion, target.kind)
      ? fluxSourceOf(object)
      : undefined;
  const [withSource, setWithSource] = useState(false);

  const replicas = Number(shownReplicas);
  const replicasValid =
    /^\d+$/.test(shownReplicas) && replicas >= 0 && replicas <= MAX_REPLICAS;
  const command =
    action !== 'workload.scale' || replicasValid
      ? kubectlCommandFor(action, target, {
          replicas: action === 'workload.scale' ? replicas : undefined,
          source: withSource ? source : undefined,
        })
      : undefined;
  const text = ACTION_TEXT[action];

  const confirm = async () => {
    if (!scope) return;
    const response = await api.runAction(scope.entity, scope.environmentSlug, {
      action,
      target,
      ...(action === 'workload.scale' && { replicas }),
      ...(action === 'flux.reconcile' && source && { withSource }),
    });
    onDone(response);
  };

  return (
    <ConfirmDialog
      title={`${text.verb} ${target.kind} ${target.name}?`}
      confirmLabel={`${text.verb} ${target.name}`}
      confirmColor={action === 'pod.delete' ? 'error' : 'primary'}
      canConfirm={!!command && !!scope}
      failureTitle="The action failed"
      onConfirm={confirm}
      onClose={onClose}
    >
      <DialogContentText>
        In namespace {target.namespace}:{' '}
        {text.explain(target.kind, target.name)}
      </DialogContentText>
      {needsObject && read.error && !object ? (
        <Box sx={{ mt: 2 }}>
          <GitlabEnvErrorPanel
            error={read.error}
            onRetry={read.retry}
            title={`Could not read ${target.kind} ${target.name}`}
          />
        </Box>
      ) : null}
      {action === 'workload.scale' ? (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mt: 2 }}>
          <DialogContentText component="span">
            {object
              ? `Now ${current} replica${current === 1 ? '' : 's'} →`
              : 'Reading the replicas now…'}
          </DialogContentText>
          <TextField
            label="New replicas"
            size="small"
            type="number"
            value={shownReplicas}
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
          {typeof hpaSpec?.maxReplicas === 'number'
            ? ` (${
                typeof hpaSpec.minReplicas === 'number'
                  ? hpaSpec.minReplicas
                  : 1
              }–${hpaSpec.maxReplicas})`
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
    </ConfirmDialog>
  );
}
