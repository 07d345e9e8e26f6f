import { HealthAssessment, KubernetesObject } from '../../../types';
import { health } from '../../conditions';
import { statusOf } from '../../../k8s/objects';
import { promoterReconciled } from './reconciled';

/** GitOps Promoter PullRequest (Argo CD's promoter.argoproj.io/PullRequest). */
export function pullRequestHealth(obj: KubernetesObject): HealthAssessment {
  const reconciled = promoterReconciled(
    obj,
    'pull request',
    ['Reconciled', 'Ready'],
    true,
  );
  if (reconciled) return reconciled;
  const { id, state } = statusOf(obj);
  if (id === undefined || id === null || typeof state !== 'string')
    return health('Healthy', 'Pull request is healthy');
  return health('Healthy', `Pull request is ${state} as PR ${String(id)}`);
}
