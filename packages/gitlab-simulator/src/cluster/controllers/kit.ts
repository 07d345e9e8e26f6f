import { KubeObject } from '../../scenario/types';
import { ClusterKnobs } from '../../clusterKnobs';
import { buildEvent } from '../events';
import { isoSeconds } from '../ids';
import { ExpandContext, isControlledBy } from '../objects';
import { PodState, restatePod } from '../pods';
import {
  podRevisionLabel,
  REVISION_HASH_LABEL,
  revisionsBeyondLimit,
} from '../revisions';
import { ClusterStore } from '../store';

/**
 * What every simulated controller shares: the cluster's store and knobs,
 * owner lookups, Events, and the life of the pods they create and remove
 * (kubelet start-up after `podStartMs`, graceful termination after
 * `podTerminationMs`).
 */
export class ControllerKit {
  private nonce = 0;
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Kubelet reported a created pod running: its owner's controller runs again. */
  onPodStarted: (pod: KubeObject) => void = () => {};
  /** A terminating pod's grace period is over: it is deleted. */
  onGracePeriodOver: (pod: KubeObject) => void = () => {};

  constructor(
    readonly store: ClusterStore,
    readonly cluster: string,
    readonly knobs: () => ClusterKnobs,
  ) {}

  /** A number that makes generated names and uids unique within this cluster. */
  nextNonce(): number {
    return ++this.nonce;
  }

  /** Cancels pending pod start-ups (the simulator is closing). */
  dispose() {
    this.timers.forEach(clearTimeout);
    this.timers.clear();
  }

  later(ms: number, fn: () => void) {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }

  /**
   * Stores a pod a controller created. With `podStartMs` it first shows
   * Pending/ContainerCreating, then kubelet reports `state` and the owner's
   * controller runs again, as the next step of a rollout waits for readiness.
   */
  createPod(pod: KubeObject, state: PodState) {
    const delay = this.knobs().podStartMs;
    const scheduled = state !== 'pending';
    const ctx = this.ctx();
    const stored = this.store.upsert(
      delay > 0 && scheduled ? restatePod(pod, 'starting', ctx) : pod,
    );
    if (scheduled) {
      this.record(
        stored,
        'Normal',
        'Scheduled',
        `Successfully assigned ${stored.metadata.namespace}/${stored.metadata.name} to ${stored.spec.nodeName}`,
        'default-scheduler',
      );
    }
    if (delay > 0 && scheduled) {
      this.later(delay, () => this.podStarted(stored, state));
    } else {
      this.recordBackOff(stored);
    }
    return stored;
  }

  /**
   * The kubelet's BackOff event of a container it keeps restarting
   * (pkg/kubelet/kuberuntime/kuberuntime_manager.go, "Back-off restarting
   * failed container"), as a pod created in CrashLoopBackOff explains itself.
   */
  private recordBackOff(pod: KubeObject) {
    for (const status of pod.status?.containerStatuses ?? []) {
      if (status.state?.waiting?.reason !== 'CrashLoopBackOff') continue;
      this.record(
        pod,
        'Warning',
        'BackOff',
        `Back-off restarting failed container ${status.name} in pod ${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`,
        'kubelet',
      );
    }
  }

  podStarted(pod: KubeObject, state: PodState) {
    const podResource = this.resource('', 'Pod');
    const fresh = this.store.get(
      podResource,
      pod.metadata.namespace,
      pod.metadata.name,
    );
    if (!fresh || fresh.metadata.uid !== pod.metadata.uid) return;
    const started = this.store.upsert(restatePod(fresh, state, this.ctx()));
    for (const container of fresh.spec.containers ?? []) {
      this.record(
        fresh,
        'Normal',
        'Started',
        `Started container ${container.name}`,
        'kubelet',
      );
    }
    this.recordBackOff(started);
    this.onPodStarted(fresh);
  }

  ctx(): ExpandContext {
    const nodes = this.store
      .list(this.store.registry.forKind('', 'Node')!)
      .map(n => n.metadata.name);
    return {
      cluster: this.cluster,
      now: new Date(),
      nodes: nodes.length ? nodes : [`${this.cluster}-pool-1`],
    };
  }

  resource(group: string, kind: string) {
    return this.store.registry.forKind(group, kind)!;
  }

  children(owner: KubeObject, group: string, kind: string): KubeObject[] {
    return this.store
      .list(this.resource(group, kind), owner.metadata.namespace)
      .filter(o => isControlledBy(o, owner));
  }

  /** A controller's pods that are not terminating: the ones it counts. */
  livePods(owner: KubeObject): KubeObject[] {
    return this.children(owner, '', 'Pod').filter(
      p => !p.metadata.deletionTimestamp,
    );
  }

  ownerOf(
    object: KubeObject,
    group: string,
    kind: string,
  ): KubeObject | undefined {
    const ref = object.metadata.ownerReferences?.find(
      r => r.controller && r.kind === kind,
    );
    if (!ref) return undefined;
    const owner = this.store.get(
      this.resource(group, kind),
      object.metadata.namespace,
      ref.name,
    );
    return owner?.metadata.uid === ref.uid ? owner : undefined;
  }

  fresh(object: KubeObject): KubeObject | undefined {
    const found = this.store.get(
      this.store.registry.forObject(object)!,
      object.metadata.namespace,
      object.metadata.name,
    );
    return found?.metadata.uid === object.metadata.uid ? found : undefined;
  }

  record(
    involved: KubeObject,
    type: 'Normal' | 'Warning',
    reason: string,
    message: string,
    component: string,
  ) {
    this.store.upsert(
      buildEvent(
        { involved, type, reason, message, component, first: new Date() },
        { ...this.ctx(), cluster: `${this.cluster}/${++this.nonce}` },
      ),
    );
  }

  /** Starts a pod's graceful termination (or removes it at once with no grace period). */
  terminate(pod: KubeObject, graceMs: number): KubeObject {
    if (graceMs <= 0) {
      return this.store.remove(
        this.resource('', 'Pod'),
        pod.metadata.namespace,
        pod.metadata.name,
      )!;
    }
    const terminating = this.store.upsert({
      ...pod,
      metadata: {
        ...pod.metadata,
        deletionTimestamp: isoSeconds(new Date(Date.now() + graceMs)),
        deletionGracePeriodSeconds: Math.ceil(graceMs / 1000),
      },
    });
    for (const container of pod.spec?.containers ?? []) {
      this.record(
        terminating,
        'Normal',
        'Killing',
        `Stopping container ${container.name}`,
        'kubelet',
      );
    }
    this.later(graceMs, () => {
      const fresh = this.fresh(terminating);
      if (fresh) this.onGracePeriodOver(fresh);
    });
    return terminating;
  }

  /**
   * Deletes a StatefulSet's or DaemonSet's ControllerRevisions beyond its
   * `revisionHistoryLimit` (default 10), keeping `keep` and the revisions
   * its pods still run (`truncateHistory`, `cleanupHistory`).
   */
  truncateRevisions(workload: KubeObject, keep: string[]) {
    const revisions = this.children(workload, 'apps', 'ControllerRevision');
    const running = new Set(
      this.children(workload, '', 'Pod').map(
        p => p.metadata.labels?.[REVISION_HASH_LABEL],
      ),
    );
    const live = new Set([
      ...keep,
      ...revisions
        .filter(r => running.has(podRevisionLabel(r)))
        .map(r => r.metadata.name),
    ]);
    for (const old of revisionsBeyondLimit(
      revisions,
      live,
      workload.spec?.revisionHistoryLimit ?? 10,
    )) {
      this.store.remove(
        this.resource('apps', 'ControllerRevision'),
        old.metadata.namespace,
        old.metadata.name,
      );
    }
  }

  /** A controller deletes one of its pods and records it, as each controller's SuccessfulDelete event. */
  removePod(
    owner: KubeObject,
    name: string,
    message: string,
    component: string,
  ) {
    const pod = this.store.get(
      this.resource('', 'Pod'),
      owner.metadata.namespace,
      name,
    );
    if (!pod || pod.metadata.deletionTimestamp) return;
    this.terminate(pod, this.knobs().podTerminationMs);
    this.record(owner, 'Normal', 'SuccessfulDelete', message, component);
  }
}
