import { KubeObject } from '../scenario/types';
import { ClusterKnobs, DEFAULT_CLUSTER_KNOBS } from '../clusterKnobs';
import { DaemonSetController } from './controllers/daemonsets';
import { DeploymentController } from './controllers/deployments';
import { HpaController } from './controllers/hpa';
import { ControllerKit } from './controllers/kit';
import { StatefulSetController } from './controllers/statefulsets';
import { isoSeconds } from './ids';
import { endpointsForService } from './networking';
import { deepClone, isControlledBy, simState } from './objects';
import { isPodReady, restatePod } from './pods';
import { canonicalJson } from './rollout';
import { ClusterStore } from './store';

const FLUX_REQUESTED = 'reconcile.fluxcd.io/requestedAt';

/**
 * The reactions of kube-controller-manager (and kubelet, and Flux) to API
 * writes: workload controllers (`controllers/`), garbage collection, pod
 * deletion and crashes, EndpointSlices, and simulated time.
 */
export class Controllers {
  private readonly kit: ControllerKit;
  private readonly deployments: DeploymentController;
  private readonly statefulSets: StatefulSetController;
  private readonly daemonSets: DaemonSetController;
  private readonly autoscalers: HpaController;

  constructor(
    store: ClusterStore,
    cluster: string,
    knobs: () => ClusterKnobs = () => DEFAULT_CLUSTER_KNOBS,
  ) {
    this.kit = new ControllerKit(store, cluster, knobs);
    const syncEndpoints = (namespace: string) => this.syncEndpoints(namespace);
    this.deployments = new DeploymentController(this.kit, syncEndpoints);
    this.statefulSets = new StatefulSetController(this.kit, syncEndpoints);
    this.daemonSets = new DaemonSetController(this.kit, syncEndpoints);
    this.autoscalers = new HpaController(this.kit, (target, replicas) =>
      this.scale(target, replicas),
    );
    this.kit.onPodStarted = pod => this.reconcileOwnerOf(pod);
    this.kit.onGracePeriodOver = pod => this.deleteCascading(pod);
  }

  /** Cancels pending pod start-ups and terminations (the simulator is closing). */
  dispose() {
    this.kit.dispose();
  }

  private reconcileOwnerOf(pod: KubeObject) {
    const rs = this.kit.ownerOf(pod, 'apps', 'ReplicaSet');
    if (rs) {
      // The ReplicaSet counts the pod's readiness; its Deployment may take the next rollout step.
      this.deployments.reconcileReplicaSet(rs);
      const deployment = this.kit.ownerOf(rs, 'apps', 'Deployment');
      if (deployment) this.deployments.reconcileDeployment(deployment);
      return;
    }
    const sts = this.kit.ownerOf(pod, 'apps', 'StatefulSet');
    if (sts) this.statefulSets.reconcileStatefulSet(sts);
    const ds = this.kit.ownerOf(pod, 'apps', 'DaemonSet');
    if (ds) this.daemonSets.reconcileDaemonSet(ds);
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
    const podResource = this.kit.resource('', 'Pod');
    const pod = this.kit.store.get(podResource, namespace, name);
    if (!pod) return undefined;
    const now = new Date();
    const updated = deepClone(pod);
    const names: string[] = (pod.spec.containers ?? []).map((c: any) => c.name);
    const target = options.container ?? names[0];
    const crashed = restatePod(
      pod,
      options.loop === false ? 'running' : 'crashloop',
      this.kit.ctx(),
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
    const stored = this.kit.store.upsert(updated);
    this.kit.record(
      stored,
      'Warning',
      'BackOff',
      `Back-off restarting failed container ${target} in pod ${name}_${namespace}(${pod.metadata.uid})`,
      'kubelet',
    );
    this.reconcileOwnerOf(stored);
    return stored;
  }

  /** Deletes an object and, like the garbage collector, everything it owns. */
  deleteCascading(object: KubeObject): KubeObject | undefined {
    const resource = this.kit.store.registry.forObject(object)!;
    const deleted = this.kit.store.remove(
      resource,
      object.metadata.namespace,
      object.metadata.name,
    );
    if (!deleted) return undefined;
    if (object.kind === 'Namespace')
      this.deleteNamespaceContents(object.metadata.name);
    const dependents = this.kit.store
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
   * The namespace controller deletes everything in a deleted namespace
   * (https://kubernetes.io/docs/concepts/overview/working-with-objects/namespaces/);
   * the real one does so while the namespace is Terminating, here at once.
   */
  private deleteNamespaceContents(namespace: string) {
    this.kit.store
      .all()
      .filter(o => o.metadata.namespace === namespace)
      .forEach(o => this.deleteCascading(o));
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
    const terminating = this.kit.terminate(pod, graceMs);
    this.afterPodDeleted(terminating);
    return terminating;
  }

  private afterPodDeleted(pod: KubeObject) {
    const rs = this.kit.ownerOf(pod, 'apps', 'ReplicaSet');
    if (rs) {
      this.deployments.reconcileReplicaSet(rs);
      return;
    }
    const sts = this.kit.ownerOf(pod, 'apps', 'StatefulSet');
    if (sts) {
      this.statefulSets.reconcileStatefulSet(sts);
    }
    const ds = this.kit.ownerOf(pod, 'apps', 'DaemonSet');
    if (ds) {
      this.daemonSets.reconcileDaemonSet(ds);
    }
  }

  /** Sets `spec.replicas` of a Deployment, ReplicaSet or StatefulSet and lets the controllers converge. */
  scale(object: KubeObject, replicas: number): KubeObject {
    const updated = deepClone(object);
    if (updated.spec.replicas !== replicas) {
      updated.spec.replicas = replicas;
      updated.metadata.generation = (updated.metadata.generation ?? 1) + 1;
    }
    const stored = this.kit.store.upsert(updated);
    this.reconcile(stored);
    if (object.spec?.replicas !== replicas) this.autoscalers.afterScale(stored);
    // A Deployment owns its ReplicaSets' replica counts and puts them back.
    const owner = this.kit.ownerOf(stored, 'apps', 'Deployment');
    if (owner) this.deployments.reconcileDeployment(owner);
    return this.kit.store.get(
      this.kit.store.registry.forObject(stored)!,
      stored.metadata.namespace,
      stored.metadata.name,
    )!;
  }

  /** Brings the children and status of a workload in line with its spec. */
  reconcile(object: KubeObject) {
    switch (object.kind) {
      case 'Deployment':
        this.deployments.reconcileDeployment(object);
        break;
      case 'ReplicaSet':
        this.deployments.reconcileReplicaSet(object);
        break;
      case 'StatefulSet':
        this.statefulSets.reconcileStatefulSet(object);
        break;
      case 'DaemonSet':
        this.daemonSets.reconcileDaemonSet(object);
        break;
      default:
    }
  }

  /** Rewrites EndpointSlices and Endpoints of the namespace's Services that changed. */
  syncEndpoints(namespace: string) {
    const ctx = this.kit.ctx();
    const pods = this.kit.store.list(this.kit.resource('', 'Pod'), namespace);
    for (const service of this.kit.store.list(
      this.kit.resource('', 'Service'),
      namespace,
    )) {
      for (const desired of endpointsForService(service, pods, ctx)) {
        const resource = this.kit.store.registry.forObject(desired)!;
        const existing =
          resource.kind === 'EndpointSlice'
            ? this.kit.store
                .list(resource, namespace)
                .find(s => isControlledBy(s, service))
            : this.kit.store.get(resource, namespace, desired.metadata.name);
        const comparable = (o: KubeObject) =>
          JSON.stringify({ ...o, metadata: undefined });
        if (!existing) {
          this.kit.store.upsert(desired);
        } else if (comparable(existing) !== comparable(desired)) {
          this.kit.store.upsert({
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
    const podResource = this.kit.resource('', 'Pod');
    const eventResource = this.kit.resource('', 'Event');
    for (const pod of this.kit.store.list(podResource)) {
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
      this.kit.store.upsert(updated);
      for (const event of this.kit.store.list(
        eventResource,
        pod.metadata.namespace,
      )) {
        if (
          event.involvedObject?.uid === pod.metadata.uid &&
          event.reason === 'BackOff'
        ) {
          this.kit.store.upsert({
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
      if (before.spec?.replicas !== after.spec?.replicas)
        this.autoscalers.afterScale(after);
    }
  }

  private podsOfWorkload(workload: KubeObject): KubeObject[] {
    if (workload.kind !== 'Deployment')
      return this.kit.children(workload, '', 'Pod');
    return this.kit
      .children(workload, 'apps', 'ReplicaSet')
      .flatMap(rs => this.kit.children(rs, '', 'Pod'));
  }

  private reconcileFlux(object: KubeObject) {
    const fresh = this.kit.fresh(object);
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
    if (changed) this.kit.store.upsert({ ...fresh, status });
  }
}
