import { HEALTH_STATUSES, HealthAssessment, KubernetesObject } from '../types';
import { groupOf, isRecord } from './conditions';
import { genericHealth } from './custom/generic';
import { healthRuleOf } from './rules';

const VALID = new Set<string>(HEALTH_STATUSES);

/** Built-in groups whose kinds without a rule carry no health (ConfigMap, Secret, Role, ...). */
function isBuiltinGroup(group: string): boolean {
  return group === '' || !group.includes('.') || group.endsWith('.k8s.io');
}

/**
 * An object's health as ArgoCD assesses it: pending deletion first, then the
 * rule for its group and kind, then (custom resources only) the common
 * status conventions. Undefined for kinds that carry no health. Never
 * throws, whatever JSON it is given.
 *
 * @public
 */
export function computeHealth(
  object: KubernetesObject,
): HealthAssessment | undefined {
  if (!isRecord(object) || typeof object.kind !== 'string') return undefined;
  const metadata = isRecord(object.metadata) ? object.metadata : {};
  try {
    if (metadata.deletionTimestamp) {
      const finalizers = Array.isArray(metadata.finalizers)
        ? metadata.finalizers
        : [];
      if (!finalizers.includes('argocd.argoproj.io/hook-finalizer')) {
        return { status: 'Progressing', message: 'Pending deletion' };
      }
    }
    const group = groupOf(object);
    const rule = healthRuleOf(group, object.kind);
    let result: HealthAssessment | undefined;
    if (rule) result = rule(object);
    else if (!isBuiltinGroup(group)) result = genericHealth(object);
    if (!result) return undefined;
    if (!VALID.has(result.status))
      return {
        status: 'Unknown',
        message: 'Lua returned an invalid health status',
      };
    if (result.message !== undefined && typeof result.message !== 'string') {
      return { status: result.status };
    }
    return result;
  } catch (error) {
    // ArgoCD turns a failing check into Unknown with the error's text.
    return {
      status: 'Unknown',
      message: error instanceof Error ? error.message : String(error),
    };
  }
}
