import { KubeObject } from '../../scenario/types';
import { deepClone } from '../objects';
import { isPodReady } from '../pods';
import {
  buildControllerRevision,
  nextRevision,
  revisionTemplate,
} from '../revisions';
import { sameTemplate } from '../rollout';
import {
  buildClaim,
  buildStatefulSetPod,
  statefulSetPodState,
  statefulSetStatus,
} from '../workloads';
import { ControllerKit } from './kit';

const REVISION_LABEL = 'controller-revision-hash';

/** The statefulset controller (`pkg/controller/statefulset`). */
export class StatefulSetController {
  constructor(
    private readonly kit: ControllerKit,
    private readonly syncEndpoints: (namespace: string) => void,
  ) {}

  /**
   * The StatefulSet controller: create missing ordinals, remove surplus ones,
   * and for RollingUpdate replace the highest-ordinal pod still at an old
   * revision once every pod is Ready (OrderedReady), one at a time
   * (`pkg/controller/statefulset/stateful_set_control.go`).
   */
  reconcileStatefulSet(sts: KubeObject) {
    for (let step = 0; step < 100; step++) {
      if (!this.statefulSetStep(sts)) break;
    }
    const fresh = this.kit.fresh(sts);
    if (!fresh) return;
    const updateRevision = this.statefulSetRevision(fresh);
    const pods = this.kit.livePods(fresh);
    const updated = pods.filter(
      p => p.metadata.labels?.[REVISION_LABEL] === updateRevision,
    ).length;
    const desired = fresh.spec.replicas ?? 1;
    const done = updated === pods.length && pods.length === desired;
    const currentRevision = done
      ? updateRevision
      : fresh.status?.currentRevision ?? updateRevision;
    this.kit.store.upsert({
      ...fresh,
      status: {
        ...statefulSetStatus(fresh, pods, updateRevision),
        currentRevision,
        updateRevision,
        currentReplicas: pods.filter(
          p => p.metadata.labels?.[REVISION_LABEL] === currentRevision,
        ).length,
        updatedReplicas: updated,
      },
    });
    this.syncEndpoints(fresh.metadata.namespace!);
  }

  /**
   * The ControllerRevision of the StatefulSet's current template
   * (`getStatefulSetRevisions` in stateful_set_control.go): the newest one
   * if it matches; an older equal one gets the next revision number (a
   * rollback, e.g. `kubectl rollout undo`); else a new one is created. Then
   * the history is truncated to `revisionHistoryLimit`.
   */
  private statefulSetRevision(sts: KubeObject): string {
    const revisions = this.kit
      .children(sts, 'apps', 'ControllerRevision')
      .sort((a, b) => (a.revision ?? 0) - (b.revision ?? 0));
    const equal = revisions.filter(r =>
      sameTemplate(revisionTemplate(r), sts.spec.template),
    );
    const newest = revisions[revisions.length - 1];
    let update = equal[equal.length - 1];
    if (update && update !== newest) {
      update = this.kit.store.upsert({
        ...update,
        revision: nextRevision(revisions),
      });
    } else if (!update) {
      update = this.kit.store.upsert(
        buildControllerRevision(
          sts,
          deepClone(sts.spec.template),
          nextRevision(revisions),
          new Date(),
          this.kit,
        ),
      );
    }
    this.kit.truncateRevisions(sts, [
      update.metadata.name,
      ...(sts.status?.currentRevision ? [sts.status.currentRevision] : []),
    ]);
    return update.metadata.name;
  }

  private statefulSetStep(sts: KubeObject): boolean {
    const fresh = this.kit.fresh(sts);
    if (!fresh) return false;
    const updateRevision = this.statefulSetRevision(fresh);
    const desired = fresh.spec.replicas ?? 1;
    const ctx = this.kit.ctx();
    const pods = this.kit.children(fresh, '', 'Pod');
    const byName = new Map(pods.map(p => [p.metadata.name, p]));
    const ordinal = (name: string) =>
      Number(name.slice(fresh.metadata.name.length + 1));
    const claims = this.kit.resource('', 'PersistentVolumeClaim');
    let changed = false;
    for (let i = 0; i < desired; i++) {
      if (byName.has(`${fresh.metadata.name}-${i}`)) continue;
      // A new ordinal gets its claims; existing claims are kept and reused.
      for (const template of fresh.spec.volumeClaimTemplates ?? []) {
        if (
          !this.kit.store.get(
            claims,
            fresh.metadata.namespace,
            `${template.metadata.name}-${fresh.metadata.name}-${i}`,
          )
        ) {
          buildClaim(template, fresh, i, ctx.now, ctx).forEach(o =>
            this.kit.store.upsert(o),
          );
        }
      }
      // A recreated pod keeps its name but is a new object.
      const pod = buildStatefulSetPod(
        fresh,
        updateRevision,
        i,
        ctx.now,
        ctx,
        `${Date.now()}-${this.kit.nextNonce()}`,
      );
      this.kit.createPod(pod, statefulSetPodState(fresh, i));
      this.kit.record(
        fresh,
        'Normal',
        'SuccessfulCreate',
        `create Pod ${pod.metadata.name} in StatefulSet ${fresh.metadata.name} successful`,
        'statefulset-controller',
      );
      changed = true;
    }
    for (const [name] of byName) {
      if (
        ordinal(name) >= desired &&
        !byName.get(name)!.metadata.deletionTimestamp
      ) {
        this.deleteStatefulSetPod(fresh, name);
        changed = true;
      }
    }
    if (changed) return true;
    const strategy = fresh.spec.updateStrategy ?? { type: 'RollingUpdate' };
    if (strategy.type === 'OnDelete') return false;
    const partition = strategy.rollingUpdate?.partition ?? 0;
    const current = this.kit.children(fresh, '', 'Pod');
    // OrderedReady: one pod at a time, and only while all are Ready and none is terminating.
    if (!current.every(p => isPodReady(p) && !p.metadata.deletionTimestamp))
      return false;
    const stale = current
      .filter(
        p =>
          p.metadata.labels?.[REVISION_LABEL] !== updateRevision &&
          ordinal(p.metadata.name) >= partition,
      )
      .sort((a, b) => ordinal(b.metadata.name) - ordinal(a.metadata.name))[0];
    if (!stale) return false;
    this.deleteStatefulSetPod(fresh, stale.metadata.name);
    return true;
  }

  private deleteStatefulSetPod(sts: KubeObject, name: string) {
    this.kit.removePod(
      sts,
      name,
      `delete Pod ${name} in StatefulSet ${sts.metadata.name} successful`,
      'statefulset-controller',
    );
  }
}
