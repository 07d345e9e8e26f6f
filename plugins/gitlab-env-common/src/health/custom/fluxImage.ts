import { HealthAssessment, KubernetesObject } from '../../types';
import { conditionsOf, health } from '../conditions';
import { kindOf, specOf, statusOf } from '../../k8s/objects';

const RECONCILING_REASONS: Record<string, string[] | 'any'> = {
  ImageRepository: ['NewGeneration', 'Scanning'],
  ImagePolicy: ['NewGeneration', 'AccessingRepository', 'ApplyingPolicy'],
  ImageUpdateAutomation: 'any',
};

/** ArgoCD's checks for Flux image automation (image.toolkit.fluxcd.io). */
export function fluxImageHealth(obj: KubernetesObject): HealthAssessment {
  const kind = kindOf(obj);
  if (kind !== 'ImagePolicy' && specOf(obj).suspend === true) {
    return health('Suspended', `${kind} is suspended`);
  }
  if (!Array.isArray(statusOf(obj).conditions))
    return health('Progressing', 'Status unknown');
  const notReady = kind === 'ImageUpdateAutomation' ? 'Unknown' : 'False';
  const reasons = RECONCILING_REASONS[kind] ?? 'any';
  let progressing = 0;
  let ok = 0;
  let message = '';
  for (const c of conditionsOf(obj)) {
    if (c.type === 'Ready') {
      if (c.status === 'True') ok += 1;
      if (c.status === notReady) progressing += 1;
      message = c.reason ?? '';
    } else if (
      c.type === 'Reconciling' &&
      c.status === 'True' &&
      (reasons === 'any' || reasons.includes(c.reason ?? ''))
    ) {
      progressing += 1;
    }
  }
  if (progressing === 2) return health('Progressing', message);
  return health(ok === 1 ? 'Healthy' : 'Degraded', message);
}
