import { HealthAssessment, KubernetesObject } from '../../../types';
import { health } from '../../conditions';
import { isRecord, specOf, statusOf } from '../../../k8s/objects';

/** Shared by OpenKruise's workload rules (CloneSet, Advanced StatefulSet and DaemonSet). */
export const WAITING = 'Waiting for initialization';

/** The controller has seen the latest spec: equal generations, as Argo CD compares them. */
export function observedCurrent(obj: KubernetesObject): boolean {
  const status = statusOf(obj);
  return (
    isRecord(obj.status) &&
    obj.metadata?.generation === status.observedGeneration
  );
}

/**
 * A partition as a number of pods: an integer, an integer in a string, or a
 * percentage of `total` (rounded up, as Kubernetes' intstr does for
 * partitions); absent means 0, as Argo CD's scripts read it.
 */
export function partitionOf(value: unknown, total: number): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value !== 'string') return 0;
  const percent = /^(\d+)%$/.exec(value.trim());
  if (percent) return Math.ceil((Number(percent[1]) * total) / 100);
  const n = Number(value);
  return Number.isFinite(n) ? n : 0;
}

/** `spec.updateStrategy.rollingUpdate` (Advanced StatefulSet / DaemonSet) as a record. */
export function rollingUpdateOf(obj: KubernetesObject): Record<string, any> {
  const strategy = specOf(obj).updateStrategy;
  return isRecord(strategy) && isRecord(strategy.rollingUpdate)
    ? strategy.rollingUpdate
    : {};
}

export const waiting = (): HealthAssessment => health('Progressing', WAITING);
