import { EnvironmentAction } from '@gitlab-env/backstage-plugin-gitlab-env-common';

/** How each action is named on buttons and menus, and what it does, for the confirmation. */
export const ACTION_TEXT: Record<
  EnvironmentAction,
  {
    label: string;
    verb: string;
    explain: (kind: string, name: string) => string;
  }
> = {
  'pod.delete': {
    label: 'Delete pod',
    verb: 'Delete',
    explain: (_kind, name) =>
      `Kubernetes stops pod ${name} (its containers get their grace period) and removes it. If a ReplicaSet, StatefulSet, DaemonSet or Job owns it, that controller starts a replacement; a pod nothing owns is gone for good.`,
  },
  'workload.restart': {
    label: 'Restart',
    verb: 'Restart',
    explain: (kind, name) =>
      `Sets the kubectl.kubernetes.io/restartedAt annotation on the pod template of ${kind} ${name}, as kubectl rollout restart does. The controller then replaces every pod following the rollout strategy${
        kind === 'Deployment' ? ' through a new ReplicaSet' : ''
      }.`,
  },
  'workload.scale': {
    label: 'Scale',
    verb: 'Scale',
    explain: (kind, name) =>
      `Sets the replica count of ${kind} ${name} through its scale subresource; the controller starts or stops pods to match.`,
  },
  'flux.reconcile': {
    label: 'Reconcile',
    verb: 'Reconcile',
    explain: (kind, name) =>
      `Sets the reconcile.fluxcd.io/requestedAt annotation on ${kind} ${name}, which asks Flux to reconcile it now instead of at its next interval.`,
  },
  'flux.suspend': {
    label: 'Suspend',
    verb: 'Suspend',
    explain: (kind, name) =>
      `Sets spec.suspend to true on ${kind} ${name}: Flux stops reconciling it (and stops undoing changes made by hand) until it is resumed.`,
  },
  'flux.resume': {
    label: 'Resume',
    verb: 'Resume',
    explain: (kind, name) =>
      `Sets spec.suspend to false on ${kind} ${name}: Flux reconciles it again at its interval.`,
  },
  'workload.rollback': {
    label: 'Roll back…',
    verb: 'Roll back',
    explain: (kind, name) =>
      `Puts the pod template of an earlier revision back on ${kind} ${name}, as kubectl rollout undo does; the controller then rolls it out like any change.`,
  },
};
