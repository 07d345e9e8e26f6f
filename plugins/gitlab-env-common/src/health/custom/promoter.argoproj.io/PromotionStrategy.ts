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
 * GitOps Promoter PromotionStrategy (Argo CD's promoter.argoproj.io/PromotionStrategy):
 * reconciled, every environment with an active and proposed commit, the
 * first environment still promoting (Progressing), then up to date.
 * Argo CD answers Healthy when an up-to-date environment's active commit
 * statuses fail or are pending; here failing checks are Degraded and
 * pending ones Progressing, with Argo CD's message.
 */
export function promotionStrategyHealth(
  obj: KubernetesObject,
): HealthAssessment {
  const reconciled = promoterReconciled(obj, 'promotion strategy');
  if (reconciled) return reconciled;
  const environments = statusOf(obj).environments;
  if (!Array.isArray(environments) || environments.length === 0)
    return health(
      'Degraded',
      'Promotion strategy has no environments configured',
    );
  const envs = environments.filter(isRecord);
  for (const env of envs) {
    if (!drySha(env.active))
      return health(
        'Progressing',
        `The active commit DRY SHA is missing or empty in environment '${env.branch}'.`,
      );
    if (!drySha(env.proposed))
      return health(
        'Progressing',
        `The proposed commit DRY SHA is missing or empty in environment '${env.branch}'.`,
      );
  }
  const proposed = drySha(envs[0]?.proposed);
  if (envs.some(env => drySha(env.proposed) !== proposed))
    return health(
      'Progressing',
      'Not all environments have the same proposed commit SHA. This likely means the hydrator has not run for all environments yet.',
    );
  for (const env of envs) {
    if (drySha(env.proposed) === drySha(env.active)) continue;
    const counts = countCommitStatuses(
      isRecord(env.proposed) ? env.proposed.commitStatuses : undefined,
    );
    return health(
      'Progressing',
      `Promotion in progress for environment '${env.branch}' from '${shortSha(
        drySha(env.active),
      )}' to '${shortSha(drySha(env.proposed))}': ${describeCounts(counts)}`,
    );
  }
  const unsuccessful: string[] = [];
  let failing = false;
  for (const env of envs) {
    const counts = countCommitStatuses(
      isRecord(env.active) ? env.active.commitStatuses : undefined,
    );
    if (counts.failure.length > 0) failing = true;
    if (counts.pending.length > 0 || counts.failure.length > 0)
      unsuccessful.push(
        `${env.branch} (${counts.failure.length} failed, ${counts.pending.length} pending)`,
      );
  }
  if (unsuccessful.length > 0)
    return health(
      failing ? 'Degraded' : 'Progressing',
      `Environments are up-to-date, but some environments have non-successful commit statuses: ${unsuccessful.join(
        ', ',
      )}.`,
    );
  return health(
    'Healthy',
    `All environments are up-to-date on commit '${shortSha(proposed)}'.`,
  );
}
