import { HealthAssessment, KubernetesObject } from '../../../types';
import { health } from '../../conditions';
import { isRecord, statusOf } from '../../../k8s/objects';
import {
  countCommitStatuses,
  describeCounts,
  drySha,
  promoterReconciled,
  shortSha,
} from './reconciled';

/**
 * GitOps Promoter ChangeTransferPolicy (Argo CD's
 * promoter.argoproj.io/ChangeTransferPolicy): one environment's
 * promotion. Failing active commit statuses are Degraded and pending ones
 * Progressing (Argo CD: Healthy), with Argo CD's message.
 */
export function changeTransferPolicyHealth(
  obj: KubernetesObject,
): HealthAssessment {
  const reconciled = promoterReconciled(obj, 'change transfer policy');
  if (reconciled) return reconciled;
  const status = statusOf(obj);
  const active = drySha(status.active);
  const proposed = drySha(status.proposed);
  if (!active)
    return health(
      'Progressing',
      'The active commit DRY SHA is missing or empty.',
    );
  if (!proposed)
    return health(
      'Progressing',
      'The proposed commit DRY SHA is missing or empty.',
    );
  if (proposed !== active) {
    const counts = countCommitStatuses(
      isRecord(status.proposed) ? status.proposed.commitStatuses : undefined,
    );
    return health(
      'Progressing',
      `Promotion in progress from '${shortSha(active)}' to '${shortSha(
        proposed,
      )}': ${describeCounts(counts)}`,
    );
  }
  const counts = countCommitStatuses(
    isRecord(status.active) ? status.active.commitStatuses : undefined,
  );
  if (counts.pending.length > 0 || counts.failure.length > 0)
    return health(
      counts.failure.length > 0 ? 'Degraded' : 'Progressing',
      `Environment is up-to-date, but there are non-successful active commit statuses: ${describeCounts(
        counts,
      )}`,
    );
  return health(
    'Healthy',
    `Environment is up-to-date on commit ${shortSha(active)}.`,
  );
}
