import { KubeObject } from '../../scenario/types';
import { ControllerKit } from './kit';

/**
 * The horizontal pod autoscaler puts a scaled workload back to its own
 * recommendation at its next sync (`--horizontal-pod-autoscaler-sync-period`,
 * 15 s by default; https://kubernetes.io/docs/tasks/run-application/horizontal-pod-autoscale/):
 * a manual `kubectl scale` of an autoscaled Deployment does not last.
 */
export class HpaController {
  constructor(
    private readonly kit: ControllerKit,
    private readonly scale: (target: KubeObject, replicas: number) => void,
  ) {}

  /** The HPA whose scaleTargetRef names this workload, if any. */
  autoscalerOf(target: KubeObject): KubeObject | undefined {
    const hpas = this.kit.resource('autoscaling', 'HorizontalPodAutoscaler');
    return this.kit.store
      .list(hpas, target.metadata.namespace)
      .find(
        hpa =>
          hpa.spec?.scaleTargetRef?.kind === target.kind &&
          hpa.spec?.scaleTargetRef?.name === target.metadata.name,
      );
  }

  /** After the workload's replicas changed: at the next sync, the HPA restores its recommendation. */
  afterScale(target: KubeObject) {
    const hpa = this.autoscalerOf(target);
    if (!hpa) return;
    this.kit.later(this.kit.knobs().hpaSyncMs, () => {
      const fresh = this.kit.fresh(target);
      const current = this.kit.fresh(hpa);
      if (!fresh || !current) return;
      const min = current.spec?.minReplicas ?? 1;
      const max = current.spec?.maxReplicas ?? min;
      const recommended = Math.min(
        max,
        Math.max(min, current.status?.desiredReplicas ?? min),
      );
      const replicas = fresh.spec?.replicas ?? 1;
      if (replicas === recommended) return;
      this.kit.store.upsert({
        ...current,
        status: {
          ...current.status,
          currentReplicas: replicas,
          desiredReplicas: recommended,
          lastScaleTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
        },
      });
      this.kit.record(
        current,
        'Normal',
        'SuccessfulRescale',
        `New size: ${recommended}; reason: All metrics ${
          recommended < replicas ? 'below' : 'above'
        } target`,
        'horizontal-pod-autoscaler',
      );
      this.scale(fresh, recommended);
    });
  }
}
