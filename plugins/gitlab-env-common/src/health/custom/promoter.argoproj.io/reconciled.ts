import { HealthAssessment, KubernetesObject } from '../../../types';
import { health } from '../../conditions';
import { isRecord, statusOf } from '../../../k8s/objects';

/**
 * The first steps every GitOps Promoter script takes: no status yet, the
 * reconcile condition of an older generation, a reconciliation error.
 * `noun` is how Argo CD's messages name the kind ("promotion strategy").
 * Undefined when the object is reconciled and its own state decides.
 */
export function promoterReconciled(
  obj: KubernetesObject,
  noun: string,
  types: readonly string[] = ['Ready'],
  anyFalseFails = false,
): HealthAssessment | undefined {
  if (!isRecord(obj.status))
    return health('Progressing', `Initializing ${noun}`);
  const generation = obj.metadata?.generation;
  let found = false;
  const conditions = statusOf(obj).conditions;
  // Read raw: the promoter's conditions may carry a YAML boolean status.
  for (const c of Array.isArray(conditions) ? conditions : []) {
    if (!isRecord(c) || !types.includes(c.type)) continue;
    found = true;
    if (
      typeof c.observedGeneration === 'number' &&
      typeof generation === 'number' &&
      c.observedGeneration !== generation
    )
      return health(
        'Progressing',
        `Waiting for ${noun} spec update to be observed`,
      );
    if (c.status !== 'False') continue;
    const capitalized = noun[0].toUpperCase() + noun.slice(1);
    const message = typeof c.message === 'string' ? c.message : 'Unknown error';
    if (c.reason === 'ReconciliationError')
      return health(
        'Degraded',
        `${capitalized} reconciliation failed: ${message}`,
      );
    if (anyFalseFails)
      return health(
        'Degraded',
        `${capitalized} reconciliation failed (${
          typeof c.reason === 'string' ? c.reason : 'Unknown'
        }): ${message}`,
      );
  }
  if (!found)
    return health(
      'Progressing',
      `${noun[0].toUpperCase()}${noun.slice(1)} is not ready yet`,
    );
  return undefined;
}

export const shortSha = (sha: unknown) =>
  typeof sha === 'string' ? sha.slice(0, 7) : '';

export interface CommitStatusCounts {
  pending: string[];
  success: number;
  failure: string[];
}

/** pending / success / failure counts of a list of commit statuses (`{key, phase}`). */
export function countCommitStatuses(list: unknown): CommitStatusCounts {
  const counts: CommitStatusCounts = { pending: [], success: 0, failure: [] };
  if (!Array.isArray(list)) return counts;
  for (const status of list) {
    if (!isRecord(status)) continue;
    if (status.phase === 'pending') counts.pending.push(String(status.key));
    else if (status.phase === 'success') counts.success++;
    else if (status.phase === 'failure')
      counts.failure.push(String(status.key));
  }
  return counts;
}

/** "n pending, n successful, n failed. Pending commit statuses: ... " as Argo CD writes it. */
export function describeCounts(counts: CommitStatusCounts): string {
  let message = `${counts.pending.length} pending, ${counts.success} successful, ${counts.failure.length} failed. `;
  if (counts.pending.length > 0)
    message += `Pending commit statuses: ${counts.pending.join(', ')}. `;
  if (counts.failure.length > 0)
    message += `Failed commit statuses: ${counts.failure.join(', ')}. `;
  return message;
}

/** The dry commit SHA of `status.<side>`, or '' when it is missing. */
export function drySha(side: unknown): string {
  if (!isRecord(side) || !isRecord(side.dry)) return '';
  return typeof side.dry.sha === 'string' ? side.dry.sha : '';
}
