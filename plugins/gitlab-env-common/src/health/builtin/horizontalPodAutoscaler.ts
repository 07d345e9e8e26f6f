import { HealthAssessment, KubernetesObject } from '../../types';
import { Condition, conditionsOf, health } from '../conditions';
import { isRecord } from '../../k8s/objects';

const DEGRADED = new Set([
  'AbleToScale/FailedGetScale',
  'AbleToScale/FailedUpdateScale',
  'ScalingActive/FailedGetResourceMetric',
  'ScalingActive/FailedGetObjectMetric',
  'ScalingActive/FailedGetPodsMetric',
  'ScalingActive/FailedGetExternalMetric',
  'ScalingActive/FailedComputeMetricsReplicas',
  'ScalingActive/InvalidSelector',
]);

function hpaConditions(obj: KubernetesObject): Condition[] | 'invalid' {
  if (obj.apiVersion === 'autoscaling/v1') {
    const raw =
      obj.metadata?.annotations?.['autoscaling.alpha.kubernetes.io/conditions'];
    if (!raw) return [];
    try {
      const parsed = JSON.parse(raw);
      return Array.isArray(parsed)
        ? (parsed.filter(isRecord) as Condition[])
        : 'invalid';
    } catch {
      return 'invalid';
    }
  }
  return conditionsOf(obj);
}

/** ArgoCD's `health_hpa.go` (v1 reads its conditions from an annotation). */
export function horizontalPodAutoscalerHealth(
  obj: KubernetesObject,
): HealthAssessment {
  const conditions = hpaConditions(obj);
  if (conditions === 'invalid')
    return health('Unknown', 'invalid HPA conditions annotation');
  const degraded = conditions.find(c => DEGRADED.has(`${c.type}/${c.reason}`));
  if (degraded) return health('Degraded', degraded.message);
  const healthy = conditions.find(
    c =>
      (c.type === 'AbleToScale' || c.type === 'ScalingLimited') &&
      c.status === 'True',
  );
  if (healthy) return health('Healthy', healthy.message);
  return health('Progressing', 'Waiting to Autoscale');
}
