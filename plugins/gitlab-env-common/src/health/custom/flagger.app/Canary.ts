import {
  HealthAssessment,
  HealthStatus,
  KubernetesObject,
} from '../../../types';
import { conditionsOf, health } from '../../conditions';
import { isRecord, statusOf } from '../../../k8s/objects';

const SEP = ' --- ';
const PHASES: Record<string, HealthStatus> = {
  Failed: 'Degraded',
  Progressing: 'Progressing',
  Finalising: 'Progressing',
  Promoting: 'Progressing',
  Succeeded: 'Healthy',
  Initialized: 'Healthy',
};

/**
 * Flagger Canary (Argo CD's flagger.app/Canary): the phase, with the canary
 * weight and the conditions' messages; a phase Argo CD does not map (such
 * as Waiting) is Unknown.
 */
export function flaggerCanaryHealth(obj: KubernetesObject): HealthAssessment {
  if (!isRecord(obj.status)) return health('Unknown', 'No status');
  const status = statusOf(obj);
  const parts: string[] = [];
  const weight = Number(status.canaryWeight);
  if (weight > 0) parts.push(`Canary Weight: ${status.canaryWeight} %`);
  for (const c of conditionsOf(obj)) parts.push(c.message ?? '');
  const phase = typeof status.phase === 'string' ? status.phase : '';
  return health(PHASES[phase] ?? 'Unknown', `${phase}${SEP}${parts.join(SEP)}`);
}
