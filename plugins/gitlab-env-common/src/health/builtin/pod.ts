import { HealthAssessment, KubernetesObject } from '../../types';
import {
  findCondition,
  health,
  isRecord,
  specOf,
  statusOf,
  str,
} from '../conditions';

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

/**
 * ArgoCD's `health_pod.go`: crash loops and image pull failures degrade
 * long-running pods whatever their phase; run-to-completion pods are never
 * Healthy while they run.
 */
export function podHealth(obj: KubernetesObject): HealthAssessment {
  const spec = specOf(obj);
  const status = statusOf(obj);
  const longRunning =
    spec.restartPolicy === 'Always' ||
    obj.metadata?.annotations?.['argocd.argoproj.io/ignore-restart-policy'] ===
      'true';
  const containers = containerStatuses(status.containerStatuses);
  if (longRunning) {
    const messages = containers
      .map(c =>
        isRecord(c.state) && isRecord(c.state.waiting)
          ? c.state.waiting
          : undefined,
      )
      .filter(
        (w): w is Record<string, any> =>
          !!w && typeof w.reason === 'string' && isFailingWait(w.reason),
      )
      .map(w => str(w.message) ?? '');
    if (messages.length > 0) return health('Degraded', messages.join(', '));
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
        if (
          containers.some(
            c => isRecord(c.lastState) && isRecord(c.lastState.terminated),
          )
        ) {
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
