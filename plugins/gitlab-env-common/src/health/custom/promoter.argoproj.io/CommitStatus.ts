import { HealthAssessment, KubernetesObject } from '../../../types';
import { health } from '../../conditions';
import { statusOf } from '../../../k8s/objects';
import { promoterReconciled } from './reconciled';

/**
 * GitOps Promoter CommitStatus (Argo CD's promoter.argoproj.io/CommitStatus):
 * reconciled, then the phase it reports for its commit. Argo CD answers
 * Healthy whatever the phase; here a failure is Degraded and a pending
 * check Progressing, with Argo CD's message.
 */
export function commitStatusHealth(obj: KubernetesObject): HealthAssessment {
  const reconciled = promoterReconciled(obj, 'commit status');
  if (reconciled) return reconciled;
  const { sha, phase } = statusOf(obj);
  if (typeof sha !== 'string' || typeof phase !== 'string')
    return health('Healthy', 'Commit status is healthy');
  const message = `Commit status for commit ${sha} reports ${phase}`;
  if (phase === 'failure') return health('Degraded', message);
  if (phase === 'pending') return health('Progressing', message);
  return health('Healthy', message);
}
