import { KubeObject } from '../scenario/types';
import { ClusterKnobs, DEFAULT_CLUSTER_KNOBS } from '../clusterKnobs';
import { buildEvent } from './events';
import { isoSeconds, stableSuffix, stableUid } from './ids';
import { endpointsForService } from './networking';
import {
  controllerRef,
  deepClone,
  ExpandContext,
  isControlledBy,
  simState,
} from './objects';
import { buildPod, isPodReady, PodState, restatePod } from './pods';
import {
  canonicalJson,
  fenceposts,
  newReplicaSetReplicas,
  templatesEqualIgnoringHash,
} from './rollout';
import { ClusterStore } from './store';
import {
  buildClaim,
  buildReplicaSetPod,
  buildStatefulSetPod,
  deploymentPodState,
  deploymentRevision,
  deploymentStatus,
  replicaSetStatus,
  statefulSetPodState,
  statefulSetRevisionName,
  statefulSetStatus,
} from './workloads';

const REVISION = 'deployment.kubernetes.io/revision';
const SIM_REVISION = 'simulator.gitlab-env/revision';
const REVISION_LABEL = 'controller-revision-hash';
const FLUX_REQUESTED = 'reconcile.fluxcd.io/requestedAt';

/**
 * The reactions of kube-controller-manager to API writes: replace deleted
 * pods, scale ReplicaSets and StatefulSets, garbage-collect dependents, and
 * keep EndpointSlices and statuses in step.
 */
export class Controllers {
  private nonce = 0;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly store: ClusterStore,
    private readonly cluster: string,
    private readonly knobs: () => ClusterKnobs = () => DEFAULT_CLUSTER_KNOBS,
  ) {}

  /** Cancels pending pod start-ups (the simulator is closing). */
  dispose() {
    this.timers.forEach(clearTimeout);
    this.timers.clear();
  }

  private later(ms: number, fn: () => void) {
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
  private createPod(pod: KubeObject, state: PodState) {
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
    }
    return stored;
  }

  private podStarted(pod: KubeObject, state: PodState) {
    const podResource = this.resource('', 'Pod');
    const fresh = this.store.get(
      podResource,
      pod.metadata.namespace,
      pod.metadata.name,
    );
    if (!fresh || fresh.metadata.uid !== pod.metadata.uid) return;
    this.store.upsert(restatePod(fresh, state, this.ctx()));
    for (const container of fresh.spec.containers ?? []) {
      this.record(
        fresh,
        'Normal',
        'Started',
        `Started container ${container.name}`,
        'kubelet',
      );
    }
    this.reconcileOwnerOf(fresh);
  }

  private reconcileOwnerOf(pod: KubeObject) {
    const rs = this.ownerOf(pod, 'apps', 'ReplicaSet');
    if (rs) {
      // The ReplicaSet counts the pod's readiness; its Deployment may take the next rollout step.
      this.reconcileReplicaSet(rs);
      const deployment = this.ownerOf(rs, 'apps', 'Deployment');
      if (deployment) this.reconcileDeployment(deployment);
      return;
    }
    const sts = this.ownerOf(pod, 'apps', 'StatefulSet');
    if (sts) this.reconcileStatefulSet(sts);
    const ds = this.ownerOf(pod, 'apps', 'DaemonSet');
    if (ds) this.reconcileDaemonSet(ds);
    if (pod.metadata.namespace) this.syncEndpoints(pod.metadata.namespace);
  }

  /**
   * A container of a running pod dies: kubelet restarts it with back-off
   * (`loop`: it keeps dying, CrashLoopBackOff) and reports the last
   * termination; the workload loses an available replica.
   */
  crashPod(
    namespace: string,
    name: string,
    options: { loop?: boolean; container?: string } = {},
  ): KubeObject | undefined {
    const podResource = this.resource('', 'Pod');
    const pod = this.store.get(podResource, namespace, name);
    if (!pod) return undefined;
    const now = new Date();
    const updated = deepClone(pod);
    const names: string[] = (pod.spec.containers ?? []).map((c: any) => c.name);
    const target = options.container ?? names[0];
    const crashed = restatePod(
      pod,
      options.loop === false ? 'running' : 'crashloop',
      this.ctx(),
    );
    updated.status = crashed.status;
    for (const status of updated.status.containerStatuses ?? []) {
      const before = (pod.status?.containerStatuses ?? []).find(
        (c: any) => c.name === status.name,
      );
      if (status.name !== target) {
        if (before) Object.assign(status, before);
        continue;
      }
      status.restartCount = (before?.restartCount ?? 0) + 1;
      status.lastState = {
        terminated: {
          exitCode: 1,
          reason: 'Error',
          startedAt: before?.state?.running?.startedAt ?? isoSeconds(now),
          finishedAt: isoSeconds(now),
          containerID: status.containerID,
        },
      };
    }
    const stored = this.store.upsert(updated);
    this.record(
      stored,
      'Warning',
      'BackOff',
      `Back-off restarting failed container ${target} in pod ${name}_${namespace}(${pod.metadata.uid})`,
      'kubelet',
    );
    this.reconcileOwnerOf(stored);
    return stored;
  }

  private ctx(): ExpandContext {
    const nodes = this.store
      .list(this.store.registry.forKind('', 'Node')!)
      .map(n => n.metadata.name);
    return {
      cluster: this.cluster,
      now: new Date(),
      nodes: nodes.length ? nodes : [`${this.cluster}-pool-1`],
    };
  }

  private resource(group: string, kind: string) {
    return this.store.registry.forKind(group, kind)!;
  }

  private children(
    owner: KubeObject,
    group: string,
    kind: string,
  ): KubeObject[] {
    return this.store
      .list(this.resource(group, kind), owner.metadata.namespace)
      .filter(o => isControlledBy(o, owner));
  }

  /** A controller's pods that are not terminating: the ones it counts. */
  private livePods(owner: KubeObject): KubeObject[] {
    return this.children(owner, '', 'Pod').filter(
      p => !p.metadata.deletionTimestamp,
    );
  }

  private ownerOf(
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

  private record(
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

  /** Deletes an object and, like the garbage collector, everything it owns. */
  deleteCascading(object: KubeObject): KubeObject | undefined {
    const resource = this.store.registry.forObject(object)!;
    const deleted = this.store.remove(
      resource,
      object.metadata.namespace,
      object.metadata.name,
    );
    if (!deleted) return undefined;
    const dependents = this.store
      .all()
      .filter(
        o =>
          o.kind !== 'Event' &&
          (o.metadata.ownerReferences ?? []).some(
            r => r.uid === object.metadata.uid,
          ),
      );
    dependents.forEach(d => this.deleteCascading(d));
    if (object.kind === 'Pod') {
      this.afterPodDeleted(deleted);
    }
    if (object.metadata.namespace) {
      this.syncEndpoints(object.metadata.namespace);
    }
    return deleted;
  }

  /**
   * Graceful pod deletion: the API server sets deletionTimestamp (the pod shows
   * Terminating, its ReplicaSet already replaces it), kubelet stops the
   * containers, and the pod is removed when the grace period ends
   * (https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#pod-termination).
   */
  deletePod(pod: KubeObject, graceMs: number): KubeObject | undefined {
    if (graceMs <= 0 || pod.metadata.deletionTimestamp) {
      return this.deleteCascading(pod);
    }
    const terminating = this.terminate(pod, graceMs);
    this.afterPodDeleted(terminating);
    return terminating;
  }

  /** Starts a pod's graceful termination (or removes it at once with no grace period). */
  private terminate(pod: KubeObject, graceMs: number): KubeObject {
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
      if (fresh) this.deleteCascading(fresh);
    });
    return terminating;
  }

  private afterPodDeleted(pod: KubeObject) {
    const rs = this.ownerOf(pod, 'apps', 'ReplicaSet');
    if (rs) {
      this.reconcileReplicaSet(rs);
      return;
    }
    const sts = this.ownerOf(pod, 'apps', 'StatefulSet');
    if (sts) {
      this.reconcileStatefulSet(sts);
    }
    const ds = this.ownerOf(pod, 'apps', 'DaemonSet');
    if (ds) {
      this.reconcileDaemonSet(ds);
    }
  }

  /** Sets `spec.replicas` of a Deployment, ReplicaSet or StatefulSet and lets the controllers converge. */
  scale(object: KubeObject, replicas: number): KubeObject {
    const updated = deepClone(object);
    if (updated.spec.replicas !== replicas) {
      updated.spec.replicas = replicas;
      updated.metadata.generation = (updated.metadata.generation ?? 1) + 1;
    }
    const stored = this.store.upsert(updated);
    this.reconcile(stored);
    // A Deployment owns its ReplicaSets' replica counts and puts them back.
    const owner = this.ownerOf(stored, 'apps', 'Deployment');
    if (owner) this.reconcileDeployment(owner);
    return this.store.get(
      this.store.registry.forObject(stored)!,
      stored.metadata.namespace,
      stored.metadata.name,
    )!;
  }

  /** Brings the children and status of a workload in line with its spec. */
  reconcile(object: KubeObject) {
    switch (object.kind) {
      case 'Deployment':
        this.reconcileDeployment(object);
        break;
      case 'ReplicaSet':
        this.reconcileReplicaSet(object);
        break;
      case 'StatefulSet':
        this.reconcileStatefulSet(object);
        break;
      case 'DaemonSet':
        this.reconcileDaemonSet(object);
        break;
      default:
    }
  }

  /**
   * The deployment controller: find or create the ReplicaSet whose template
   * equals the Deployment's (a new revision when the template changed, e.g.
   * `kubectl rollout restart`), then scale it up and the old ones down within
   * maxSurge/maxUnavailable, step by step as pods become ready
   * (`pkg/controller/deployment/sync.go`, `rolling.go`, `recreate.go`).
   */
  private reconcileDeployment(deployment: KubeObject) {
    // Bounded: each step scales at least one ReplicaSet; with pods ready at once it converges.
    for (let step = 0; step < 100; step++) {
      const fresh = this.fresh(deployment);
      if (!fresh || fresh.spec?.paused || !this.deploymentStep(fresh)) break;
    }
    this.updateDeploymentStatus(deployment);
  }

  private fresh(object: KubeObject): KubeObject | undefined {
    const found = this.store.get(
      this.store.registry.forObject(object)!,
      object.metadata.namespace,
      object.metadata.name,
    );
    return found?.metadata.uid === object.metadata.uid ? found : undefined;
  }

  private newReplicaSet(deployment: KubeObject, replicaSets: KubeObject[]) {
    const maxRevision = Math.max(
      0,
      ...replicaSets.map(rs =>
        Number(rs.metadata.annotations?.[REVISION] ?? 0),
      ),
    );
    let rs = replicaSets.find(r =>
      templatesEqualIgnoringHash(r.spec.template, deployment.spec.template),
    );
    const current = rs
      ? Number(rs.metadata.annotations?.[REVISION] ?? 0)
      : maxRevision + 1;
    // A rollback reuses the old ReplicaSet and gives it the next revision.
    const revision = rs && current === maxRevision ? current : maxRevision + 1;
    if (!rs) {
      const hash = stableSuffix(
        `${this.cluster}/${deployment.metadata.namespace}/${
          deployment.metadata.name
        }/${canonicalJson(deployment.spec.template)}`,
        10,
      );
      const template = deepClone(deployment.spec.template ?? {});
      template.metadata = {
        ...template.metadata,
        labels: { ...template.metadata?.labels, 'pod-template-hash': hash },
      };
      const name = `${deployment.metadata.name}-${hash}`;
      rs = this.store.upsert({
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: {
          name,
          namespace: deployment.metadata.namespace,
          uid: stableUid(
            `${this.cluster}/rs/${name}/${Date.now()}/${++this.nonce}`,
          ),
          creationTimestamp: isoSeconds(new Date()),
          generation: 1,
          labels: { ...template.metadata.labels },
          annotations: {
            'deployment.kubernetes.io/desired-replicas': String(
              deployment.spec.replicas ?? 1,
            ),
            'deployment.kubernetes.io/max-replicas': String(
              (deployment.spec.replicas ?? 1) + fenceposts(deployment).maxSurge,
            ),
            [REVISION]: String(revision),
          },
          ownerReferences: [controllerRef(deployment)],
        },
        spec: {
          replicas: 0,
          selector: {
            matchLabels: {
              ...deployment.spec.selector?.matchLabels,
              'pod-template-hash': hash,
            },
          },
          template,
        },
        status: { replicas: 0, observedGeneration: 1 },
      });
    } else if (revision !== current) {
      rs = this.store.upsert({
        ...rs,
        metadata: {
          ...rs.metadata,
          annotations: {
            ...rs.metadata.annotations,
            [REVISION]: String(revision),
          },
        },
      });
    }
    const annotations = deployment.metadata.annotations ?? {};
    if (annotations[REVISION] !== String(revision)) {
      this.store.upsert({
        ...deployment,
        metadata: {
          ...deployment.metadata,
          annotations: {
            ...annotations,
            [REVISION]: String(revision),
            // The simulator's own revision annotation would otherwise win over the controller's.
            ...(annotations[SIM_REVISION]
              ? { [SIM_REVISION]: String(revision) }
              : {}),
          },
        },
      });
    }
    return rs;
  }

  private scaleReplicaSet(deployment: KubeObject, rs: KubeObject, to: number) {
    const from = rs.spec.replicas ?? 0;
    if (from === to) return;
    const scaled = deepClone(rs);
    scaled.spec.replicas = to;
    scaled.metadata.annotations = {
      ...scaled.metadata.annotations,
      'deployment.kubernetes.io/desired-replicas': String(
        deployment.spec.replicas ?? 1,
      ),
    };
    this.store.upsert(scaled);
    this.record(
      deployment,
      'Normal',
      'ScalingReplicaSet',
      `Scaled ${to > from ? 'up' : 'down'} replica set ${
        rs.metadata.name
      } from ${from} to ${to}`,
      'deployment-controller',
    );
    this.reconcileReplicaSet(scaled, false);
  }

  /** One sync of the deployment controller; true when it scaled something. */
  private deploymentStep(deployment: KubeObject): boolean {
    const replicaSets = this.children(deployment, 'apps', 'ReplicaSet');
    const newRs = this.newReplicaSet(deployment, replicaSets);
    const fresh = this.fresh(deployment) ?? deployment;
    const olds = this.children(fresh, 'apps', 'ReplicaSet').filter(
      rs =>
        rs.metadata.uid !== newRs.metadata.uid && (rs.spec.replicas ?? 0) > 0,
    );
    const desired = fresh.spec.replicas ?? 1;
    const ready = (rs: KubeObject) =>
      this.livePods(rs).filter(isPodReady).length;
    if (fresh.spec.strategy?.type === 'Recreate') {
      if (olds.length) {
        olds.forEach(rs => this.scaleReplicaSet(fresh, rs, 0));
        return true;
      }
      if ((newRs.spec.replicas ?? 0) !== desired) {
        this.scaleReplicaSet(fresh, newRs, desired);
        return true;
      }
      return false;
    }
    const { maxSurge, maxUnavailable } = fenceposts(fresh);
    const all = [newRs, ...olds].reduce(
      (n, rs) => n + (rs.spec.replicas ?? 0),
      0,
    );
    const newReplicas = newRs.spec.replicas ?? 0;
    const target =
      olds.length === 0
        ? desired
        : newReplicaSetReplicas(desired, maxSurge, newReplicas, all);
    if (target !== newReplicas) {
      this.scaleReplicaSet(fresh, newRs, target);
      return true;
    }
    if (olds.length === 0) return false;
    // reconcileOldReplicaSets: never below minAvailable, counting the new ReplicaSet's unready pods.
    const minAvailable = desired - maxUnavailable;
    const newUnavailable = newReplicas - ready(newRs);
    let maxScaledDown = all - minAvailable - newUnavailable;
    if (maxScaledDown <= 0) return false;
    let changed = false;
    const oldest = [...olds].sort((a, b) =>
      String(a.metadata.creationTimestamp).localeCompare(
        String(b.metadata.creationTimestamp),
      ),
    );
    // cleanupUnhealthyReplicas first, then scale down available old replicas.
    for (const rs of oldest) {
      const unhealthy = (rs.spec.replicas ?? 0) - ready(rs);
      const cut = Math.min(unhealthy, maxScaledDown);
      if (cut > 0) {
        this.scaleReplicaSet(fresh, rs, rs.spec.replicas - cut);
        maxScaledDown -= cut;
        changed = true;
      }
    }
    const available = [newRs, ...olds]
      .map(rs => this.fresh(rs) ?? rs)
      .reduce((n, rs) => n + ready(rs), 0);
    let scaleDown = Math.min(available - minAvailable, maxScaledDown);
    for (const rs of oldest) {
      const current = this.fresh(rs) ?? rs;
      const cut = Math.min(current.spec.replicas ?? 0, scaleDown);
      if (cut > 0) {
        this.scaleReplicaSet(fresh, current, current.spec.replicas - cut);
        scaleDown -= cut;
        changed = true;
      }
    }
    return changed;
  }

  private updateDeploymentStatus(deployment: KubeObject) {
    const fresh = this.store.get(
      this.resource('apps', 'Deployment'),
      deployment.metadata.namespace,
      deployment.metadata.name,
    );
    if (!fresh) return;
    const replicaSets = this.children(fresh, 'apps', 'ReplicaSet');
    const status = deploymentStatus(
      fresh,
      replicaSets,
      rs => this.livePods(rs),
      isoSeconds(new Date()),
    );
    this.store.upsert({ ...fresh, status });
  }

  private reconcileReplicaSet(rs: KubeObject, updateOwner = true) {
    const fresh =
      this.store.get(
        this.resource('apps', 'ReplicaSet'),
        rs.metadata.namespace,
        rs.metadata.name,
      ) ?? rs;
    const deployment = this.ownerOf(fresh, 'apps', 'Deployment');
    // Terminating pods no longer count: the ReplicaSet replaces them at once.
    const pods = this.livePods(fresh);
    const desired = fresh.spec.replicas ?? 1;
    const ctx = this.ctx();
    const current = deployment
      ? fresh.metadata.annotations?.['deployment.kubernetes.io/revision'] ===
        String(deploymentRevision(deployment))
      : true;
    for (let i = pods.length; i < desired; i++) {
      const state = deployment
        ? deploymentPodState(deployment, current, i)
        : 'running';
      const pod = this.createPod(
        buildReplicaSetPod(
          fresh,
          state,
          `${Date.now()}-${++this.nonce}`,
          ctx.now,
          ctx,
        ),
        state,
      );
      this.record(
        fresh,
        'Normal',
        'SuccessfulCreate',
        `Created pod: ${pod.metadata.name}`,
        'replicaset-controller',
      );
    }
    // Scale down removes the newest pods first.
    const surplus = pods
      .sort((a, b) =>
        String(b.metadata.creationTimestamp).localeCompare(
          String(a.metadata.creationTimestamp),
        ),
      )
      .slice(0, Math.max(0, pods.length - desired));
    for (const pod of surplus) {
      this.removePod(
        fresh,
        pod.metadata.name,
        `Deleted pod: ${pod.metadata.name}`,
        'replicaset-controller',
      );
    }
    this.store.upsert({
      ...fresh,
      status: replicaSetStatus(fresh, this.livePods(fresh)),
    });
    this.syncEndpoints(fresh.metadata.namespace!);
    if (deployment && updateOwner) {
      this.updateDeploymentStatus(deployment);
    }
  }

  /** The ControllerRevision holding the StatefulSet's current template, created (next revision) when it changed. */
  private statefulSetRevision(sts: KubeObject): string {
    const revisions = this.children(sts, 'apps', 'ControllerRevision');
    const strip = (template: any) => {
      const { $patch: _patch, ...rest } = template ?? {};
      return canonicalJson(rest);
    };
    const wanted = strip(sts.spec.template);
    const existing = revisions.find(
      r => strip(r.data?.spec?.template) === wanted,
    );
    if (existing) return existing.metadata.name;
    const name = statefulSetRevisionName(
      { ...sts, spec: { ...sts.spec, template: JSON.parse(wanted) } },
      this.ctx(),
    );
    this.store.upsert({
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: {
        name,
        namespace: sts.metadata.namespace,
        uid: stableUid(`${this.cluster}/cr/${sts.metadata.namespace}/${name}`),
        creationTimestamp: isoSeconds(new Date()),
        labels: {
          ...sts.spec.selector?.matchLabels,
          'controller.kubernetes.io/hash': name.split('-').pop()!,
        },
        ownerReferences: [controllerRef(sts)],
      },
      revision: Math.max(0, ...revisions.map(r => r.revision ?? 0)) + 1,
      data: {
        spec: {
          template: { $patch: 'replace', ...deepClone(sts.spec.template) },
        },
      },
    });
    return name;
  }

  /**
   * The StatefulSet controller: create missing ordinals, remove surplus ones,
   * and for RollingUpdate replace the highest-ordinal pod still at an old
   * revision once every pod is Ready (OrderedReady), one at a time
   * (`pkg/controller/statefulset/stateful_set_control.go`).
   */
  private reconcileStatefulSet(sts: KubeObject) {
    for (let step = 0; step < 100; step++) {
      if (!this.statefulSetStep(sts)) break;
    }
    const fresh = this.fresh(sts);
    if (!fresh) return;
    const updateRevision = this.statefulSetRevision(fresh);
    const pods = this.livePods(fresh);
    const updated = pods.filter(
      p => p.metadata.labels?.[REVISION_LABEL] === updateRevision,
    ).length;
    const desired = fresh.spec.replicas ?? 1;
    const done = updated === pods.length && pods.length === desired;
    const currentRevision = done
      ? updateRevision
      : fresh.status?.currentRevision ?? updateRevision;
    this.store.upsert({
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

  private statefulSetStep(sts: KubeObject): boolean {
    const fresh = this.fresh(sts);
    if (!fresh) return false;
    const updateRevision = this.statefulSetRevision(fresh);
    const desired = fresh.spec.replicas ?? 1;
    const ctx = this.ctx();
    const pods = this.children(fresh, '', 'Pod');
    const byName = new Map(pods.map(p => [p.metadata.name, p]));
    const ordinal = (name: string) =>
      Number(name.slice(fresh.metadata.name.length + 1));
    const claims = this.resource('', 'PersistentVolumeClaim');
    let changed = false;
    for (let i = 0; i < desired; i++) {
      if (byName.has(`${fresh.metadata.name}-${i}`)) continue;
      // A new ordinal gets its claims; existing claims are kept and reused.
      for (const template of fresh.spec.volumeClaimTemplates ?? []) {
        if (
          !this.store.get(
            claims,
            fresh.metadata.namespace,
            `${template.metadata.name}-${fresh.metadata.name}-${i}`,
          )
        ) {
          buildClaim(template, fresh, i, ctx.now, ctx).forEach(o =>
            this.store.upsert(o),
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
        `${Date.now()}-${++this.nonce}`,
      );
      this.createPod(pod, statefulSetPodState(fresh, i));
      this.record(
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
    const current = this.children(fresh, '', 'Pod');
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
    this.removePod(
      sts,
      name,
      `delete Pod ${name} in StatefulSet ${sts.metadata.name} successful`,
      'statefulset-controller',
    );
  }

  /** A controller deletes one of its pods and records it, as each controller's SuccessfulDelete event. */
  private removePod(
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

  /**
   * The DaemonSet controller: a pod per node at the current template
   * (`controller-revision-hash`); RollingUpdate replaces up to maxUnavailable
   * (default 1) old pods at a time, waiting for the new ones to be ready
   * (`pkg/controller/daemon/update.go`).
   */
  private reconcileDaemonSet(ds: KubeObject) {
    for (let step = 0; step < 100; step++) {
      if (!this.daemonSetStep(ds)) break;
    }
    const fresh = this.fresh(ds);
    if (!fresh) return;
    const hash = daemonSetHash(fresh, this.cluster);
    const pods = this.livePods(fresh);
    const ready = pods.filter(isPodReady).length;
    const updated = pods.filter(
      p => p.metadata.labels?.[REVISION_LABEL] === hash,
    );
    const nodes = this.ctx().nodes.length;
    this.store.upsert({
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

  private daemonSetStep(ds: KubeObject): boolean {
    const fresh = this.fresh(ds);
    if (!fresh) return false;
    const hash = daemonSetHash(fresh, this.cluster);
    const ctx = this.ctx();
    const pods = this.children(fresh, '', 'Pod');
    const onNode = new Map(pods.map(p => [p.spec.nodeName, p]));
    let changed = false;
    ctx.nodes.forEach((node, i) => {
      if (onNode.has(node)) return;
      const name = `${fresh.metadata.name}-${stableSuffix(
        `${fresh.metadata.uid}/${node}/${Date.now()}/${++this.nonce}`,
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
      this.createPod(
        state === 'running' ? pod : restatePod(pod, state, ctx),
        state,
      );
      this.record(
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
      this.removePod(
        fresh,
        pod.metadata.name,
        `Deleted pod: ${pod.metadata.name}`,
        'daemonset-controller',
      );
    }
    return stale.length > 0;
  }

  /** Rewrites EndpointSlices and Endpoints of the namespace's Services that changed. */
  syncEndpoints(namespace: string) {
    const ctx = this.ctx();
    const pods = this.store.list(this.resource('', 'Pod'), namespace);
    for (const service of this.store.list(
      this.resource('', 'Service'),
      namespace,
    )) {
      for (const desired of endpointsForService(service, pods, ctx)) {
        const resource = this.store.registry.forObject(desired)!;
        const existing =
          resource.kind === 'EndpointSlice'
            ? this.store
                .list(resource, namespace)
                .find(s => isControlledBy(s, service))
            : this.store.get(resource, namespace, desired.metadata.name);
        const comparable = (o: KubeObject) =>
          JSON.stringify({ ...o, metadata: undefined });
        if (!existing) {
          this.store.upsert(desired);
        } else if (comparable(existing) !== comparable(desired)) {
          this.store.upsert({
            ...desired,
            metadata: {
              ...existing.metadata,
              annotations: desired.metadata.annotations,
            },
          });
        }
      }
    }
  }

  /**
   * Lets time pass: crash-looping containers restart once more and their
   * BackOff events count up, so watches see MODIFIED events in a quiet demo.
   */
  advance() {
    const now = new Date();
    const at = isoSeconds(now);
    const podResource = this.resource('', 'Pod');
    const eventResource = this.resource('', 'Event');
    for (const pod of this.store.list(podResource)) {
      const statuses: any[] = pod.status?.containerStatuses ?? [];
      if (!statuses.some(c => c.state?.waiting?.reason === 'CrashLoopBackOff'))
        continue;
      const updated = deepClone(pod);
      for (const status of updated.status.containerStatuses) {
        if (status.state?.waiting?.reason !== 'CrashLoopBackOff') continue;
        status.restartCount += 1;
        status.lastState = {
          terminated: {
            ...status.lastState?.terminated,
            startedAt: isoSeconds(new Date(now.getTime() - 3000)),
            finishedAt: at,
          },
        };
      }
      this.store.upsert(updated);
      for (const event of this.store.list(
        eventResource,
        pod.metadata.namespace,
      )) {
        if (
          event.involvedObject?.uid === pod.metadata.uid &&
          event.reason === 'BackOff'
        ) {
          this.store.upsert({
            ...event,
            count: (event.count ?? 1) + 1,
            lastTimestamp: at,
          });
        }
      }
    }
  }

  /**
   * What controllers do after an API write: Flux notes a reconcile request as
   * handled unless the object is suspended (`spec.suspend`, fluxcd.io docs
   * "Suspending and resuming", "Triggering a reconcile"); workload controllers
   * react to a new generation (replicas or pod template, e.g. `kubectl rollout restart`).
   */
  afterPatch(before: KubeObject, after: KubeObject) {
    if (/fluxcd\.io$/.test(after.apiVersion.split('/')[0])) {
      this.reconcileFlux(after);
    }
    const workload = ['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet'];
    if (
      workload.includes(after.kind) &&
      simState(after) === 'crashloop' &&
      simState(before) !== 'crashloop'
    ) {
      // The simulator's own steering annotation, set through the API (e.g. `kubectl annotate`):
      // the workload's running pods start crash-looping, as after a bad config change.
      this.podsOfWorkload(after)
        .filter(isPodReady)
        .forEach(pod =>
          this.crashPod(pod.metadata.namespace!, pod.metadata.name),
        );
    }
    if (
      workload.includes(after.kind) &&
      (before.spec?.replicas !== after.spec?.replicas ||
        canonicalJson(before.spec?.template) !==
          canonicalJson(after.spec?.template) ||
        before.spec?.paused !== after.spec?.paused)
    ) {
      this.reconcile(after);
    }
  }

  private podsOfWorkload(workload: KubeObject): KubeObject[] {
    if (workload.kind !== 'Deployment')
      return this.children(workload, '', 'Pod');
    return this.children(workload, 'apps', 'ReplicaSet').flatMap(rs =>
      this.children(rs, '', 'Pod'),
    );
  }

  private reconcileFlux(object: KubeObject) {
    const fresh = this.fresh(object);
    if (!fresh || fresh.spec?.suspend === true) return;
    const wanted = fresh.metadata.annotations?.[FLUX_REQUESTED];
    const status = { ...fresh.status };
    let changed = false;
    if (wanted && status.lastHandledReconcileAt !== wanted) {
      status.lastHandledReconcileAt = wanted;
      changed = true;
    }
    const generation = fresh.metadata.generation;
    if (generation !== undefined && status.observedGeneration !== generation) {
      // A resumed (or edited) object is reconciled: its new generation is observed.
      status.observedGeneration = generation;
      changed = true;
    }
    if (changed) this.store.upsert({ ...fresh, status });
  }
}

/** The DaemonSet's `controller-revision-hash` for its current template (as the expander computes it). */
function daemonSetHash(ds: KubeObject, cluster: string): string {
  return stableSuffix(
    `${cluster}/${JSON.stringify(ds.spec?.template ?? {})}`,
    10,
  );
}
