import { HealthAssessment, KubernetesObject } from '../../types';
import { findCondition, health } from '../conditions';
import { isRecord, specOf, statusOf, str } from '../../k8s/objects';

function containerStatuses(value: unknown): Record<string, any>[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

const isFailingWait = (reason: string) =>
  reason.startsWith('Err') ||
  reason.endsWith('Error') ||
  reason.endsWith('BackOff');

/** The message of a failed pod: its own, or the first terminated container's. */
function failedMessage(status: Record<string, any>): string | undefined {
  if (str(status.message)) return status.message;
  const all = [
    ...containerStatuses(status.initContainerStatuses),
    ...containerStatuses(status.containerStatuses),
  ];
  for (const container of all) {
    const terminated = isRecord(container.state)
      ? container.state.terminated
      : undefined;
    if (!isRecord(terminated)) continue;
    if (str(terminated.message)) return terminated.message;
    if (terminated.reason === 'OOMKilled') return 'OOMKilled';
    if (typeof terminated.exitCode === 'number' && terminated.exitCode !== 0) {
      return `container "${container.name ?? ''}" failed with exit code ${
        terminated.exitCode
      }`;
    }
  }
  return undefined;
}

// The checks below run for every Pod, so they loop over the statuses in
// place rather than building filtered and mapped copies.

/**
 * The messages of the containers waiting for a failing reason (crash loop,
 * image pull error), joined by `, `; undefined when none is.
 */
function failingWaitMessages(statuses: unknown): string | undefined {
  if (!Array.isArray(statuses)) return undefined;
  let messages: string | undefined;
  for (const container of statuses) {
    if (!isRecord(container) || !isRecord(container.state)) continue;
    const waiting = container.state.waiting;
    if (!isRecord(waiting) || typeof waiting.reason !== 'string') continue;
    if (!isFailingWait(waiting.reason)) continue;
    const message = str(waiting.message) ?? '';
    messages = messages === undefined ? message : `${messages}, ${message}`;
  }
  return messages;
}

/** Whether a container terminated before its current run. */
function restartedAfterTermination(statuses: unknown): boolean {
  if (!Array.isArray(statuses)) return false;
  for (const container of statuses) {
    if (
      isRecord(container) &&
      isRecord(container.lastState) &&
      isRecord(container.lastState.terminated)
    )
      return true;
  }
  return false;
}

/**
 * A sync hook as ArgoCD tells one: an Argo CD hook annotation other than
 * only `Skip`, or a Helm hook other than `crd-install`.
 */
function isHook(annotations: Record<string, unknown>): boolean {
  const argo = annotations['argocd.argoproj.io/hook'];
  if (typeof argo === 'string') {
    const types = argo.split(',').map(t => t.trim());
    if (types.some(t => t !== 'Skip')) return true;
  }
  const helm = annotations['helm.sh/hook'];
  return typeof helm === 'string' && helm.trim() !== 'crd-install';
}

/**
 * Whether a pod is judged as long-running: `restartPolicy: Always`, or the
 * ignore-restart-policy annotation on a pod that is not a sync hook (a hook
 * must keep finishing as a run-to-completion pod).
 */
function isLongRunning(obj: KubernetesObject): boolean {
  if (specOf(obj).restartPolicy === 'Always') return true;
  const annotations = obj.metadata?.annotations;
  if (!isRecord(annotations)) return false;
  return (
    annotations['argocd.argoproj.io/ignore-restart-policy'] === 'true' &&
    !isHook(annotations)
  );
}

/**
 * ArgoCD's `health_pod.go`: crash loops and image pull failures degrade
 * long-running pods whatever their phase; run-to-completion pods are never
 * Healthy while they run.
 */
export function podHealth(obj: KubernetesObject): HealthAssessment {
  const spec = specOf(obj);
  const status = statusOf(obj);
  const longRunning = isLongRunning(obj);
  if (longRunning) {
    const messages = failingWaitMessages(status.containerStatuses);
    if (messages !== undefined) return health('Degraded', messages);
  }
  const message = str(status.message);
  switch (status.phase) {
    case 'Pending':
      return health('Progressing', message);
    case 'Succeeded':
      return health('Healthy', message);
    case 'Failed':
      return health('Degraded', failedMessage(status));
    case 'Running':
      if (longRunning) {
        if (findCondition(obj, 'Ready')?.status === 'True')
          return health('Healthy', message);
        if (restartedAfterTermination(status.containerStatuses)) {
          return health('Degraded', message);
        }
        return health('Progressing', message);
      }
      if (
        spec.restartPolicy === 'OnFailure' ||
        spec.restartPolicy === 'Never'
      ) {
        return health('Progressing', message);
      }
      return health('Unknown', message);
    default:
      return health('Unknown', message);
  }
}
