import { KubeObject } from '../../scenario/types';
import { stableSuffix } from '../ids';
import { deepClone, simState } from '../objects';
import { buildPod, isPodReady, PodState, restatePod } from '../pods';
import {
  buildControllerRevision,
  nextRevision,
  podRevisionLabel,
  REVISION_HASH_LABEL,
  revisionTemplate,
} from '../revisions';
import { sameTemplate } from '../rollout';
import { ControllerKit } from './kit';

const REVISION_LABEL = REVISION_HASH_LABEL;

/** The daemonset controller (`pkg/controller/daemon`). */
export class DaemonSetController {
  constructor(
    private readonly kit: ControllerKit,
    private readonly syncEndpoints: (namespace: string) => void,
  ) {}

  /**
   * The DaemonSet controller: a pod per node at the current template
   * (`controller-revision-hash`); RollingUpdate replaces up to maxUnavailable
   * (default 1) old pods at a time, waiting for the new ones to be ready
   * (`pkg/controller/daemon/update.go`).
   */
  reconcileDaemonSet(ds: KubeObject) {
    for (let step = 0; step < 100; step++) {
      if (!this.daemonSetStep(ds)) break;
    }
    const fresh = this.kit.fresh(ds);
    if (!fresh) return;
    const hash = this.daemonSetRevision(fresh);
    const pods = this.kit.livePods(fresh);
    const ready = pods.filter(isPodReady).length;
    const updated = pods.filter(
      p => p.metadata.labels?.[REVISION_LABEL] === hash,
    );
    const nodes = this.kit.ctx().nodes.length;
    this.kit.store.upsert({
      ...fresh,
      status: {
        currentNumberScheduled: pods.length,
        desiredNumberScheduled: nodes,
        numberAvailable: ready,
        numberMisscheduled: 0,
        numberReady: ready,
        ...(nodes - ready > 0 ? { numberUnavailable: nodes - ready } : {}),
        observedGeneration: fresh.metadata.generation ?? 1,
        updatedNumberScheduled: updated.length,
      },
    });
    this.syncEndpoints(fresh.metadata.namespace!);
  }

  /**
   * The hash of the DaemonSet's current ControllerRevision
   * (`constructHistory` in pkg/controller/daemon/update.go): an equal
   * revision is reused and, when older, given the next revision number (a
   * rollback); else a new one is written (`snapshot`). Revisions no pod runs
   * beyond `revisionHistoryLimit` are deleted (`cleanupHistory`).
   */
  private daemonSetRevision(ds: KubeObject): string {
    const revisions = this.kit.children(ds, 'apps', 'ControllerRevision');
    const others = revisions.filter(
      r => !sameTemplate(revisionTemplate(r), ds.spec.template),
    );
    let current = revisions
      .filter(r => !others.includes(r))
      .sort((a, b) => (a.revision ?? 0) - (b.revision ?? 0))
      .pop();
    const wanted = nextRevision(others);
    if (!current) {
      current = this.kit.store.upsert(
        buildControllerRevision(
          ds,
          deepClone(ds.spec.template),
          wanted,
          new Date(),
          this.kit,
        ),
      );
    } else if ((current.revision ?? 0) < wanted) {
      current = this.kit.store.upsert({ ...current, revision: wanted });
    }
    this.kit.truncateRevisions(ds, [current.metadata.name]);
    return podRevisionLabel(current);
  }

  private daemonSetStep(ds: KubeObject): boolean {
    const fresh = this.kit.fresh(ds);
    if (!fresh) return false;
    const hash = this.daemonSetRevision(fresh);
    const ctx = this.kit.ctx();
    const pods = this.kit.children(fresh, '', 'Pod');
    const onNode = new Map(pods.map(p => [p.spec.nodeName, p]));
    let changed = false;
    ctx.nodes.forEach((node, i) => {
      if (onNode.has(node)) return;
      const name = `${fresh.metadata.name}-${stableSuffix(
        `${fresh.metadata.uid}/${node}/${Date.now()}/${this.kit.nextNonce()}`,
        5,
      )}`;
      const pod = buildPod({
        name,
        namespace: fresh.metadata.namespace!,
        template: fresh.spec.template,
        owner: fresh,
        extraLabels: {
          [REVISION_LABEL]: hash,
          'pod-template-generation': String(fresh.metadata.generation ?? 1),
        },
        state: 'running',
        created: ctx.now,
        ctx,
        incarnation: name,
      });
      pod.spec.nodeName = node;
      const state: PodState =
        simState(fresh) === 'crashloop' && i === 0 ? 'crashloop' : 'running';
      this.kit.createPod(
        state === 'running' ? pod : restatePod(pod, state, ctx),
        state,
      );
      this.kit.record(
        fresh,
        'Normal',
        'SuccessfulCreate',
        `Created pod: ${name}`,
        'daemonset-controller',
      );
      changed = true;
    });
    if (changed) return true;
    if ((fresh.spec.updateStrategy?.type ?? 'RollingUpdate') === 'OnDelete')
      return false;
    const maxUnavailable = Math.max(
      1,
      Number(fresh.spec.updateStrategy?.rollingUpdate?.maxUnavailable ?? 1) ||
        1,
    );
    const unavailable = pods.filter(
      p => !isPodReady(p) || p.metadata.deletionTimestamp,
    ).length;
    const budget = maxUnavailable - unavailable;
    const stale = pods
      .filter(
        p =>
          p.metadata.labels?.[REVISION_LABEL] !== hash &&
          !p.metadata.deletionTimestamp,
      )
      .slice(0, Math.max(0, budget));
    for (const pod of stale) {
      this.kit.removePod(
        fresh,
        pod.metadata.name,
        `Deleted pod: ${pod.metadata.name}`,
        'daemonset-controller',
      );
    }
    return stale.length > 0;
  }
}
