import { KubeObject } from '../scenario/types';
import { buildEvent } from './events';
import { isoSeconds } from './ids';
import { endpointsForService } from './networking';
import { deepClone, ExpandContext, isControlledBy } from './objects';
import { ClusterStore } from './store';
import {
  buildClaim,
  buildReplicaSetPod,
  buildStatefulSetPod,
  deploymentPodState,
  deploymentRevision,
  deploymentStatus,
  replicaSetStatus,
  statefulSetStatus,
} from './workloads';

/**
 * The reactions of kube-controller-manager to API writes: replace deleted
 * pods, scale ReplicaSets and StatefulSets, garbage-collect dependents, and
 * keep EndpointSlices and statuses in step.
 */
export class Controllers {
  private nonce = 0;

  constructor(
    private readonly store: ClusterStore,
    private readonly cluster: string,
  ) {}

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
    if (object.kind === 'Namespace')
      this.deleteNamespaceContents(object.metadata.name);
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
   * The namespace controller deletes everything in a deleted namespace
   * (https://kubernetes.io/docs/concepts/overview/working-with-objects/namespaces/);
   * the real one does so while the namespace is Terminating, here at once.
   */
  private deleteNamespaceContents(namespace: string) {
    this.store
      .all()
      .filter(o => o.metadata.namespace === namespace)
      .forEach(o => this.deleteCascading(o));
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
      default:
    }
  }

  private reconcileDeployment(deployment: KubeObject) {
    const revision = String(deploymentRevision(deployment));
    const replicaSets = this.children(deployment, 'apps', 'ReplicaSet');
    const current = replicaSets.find(
      rs =>
        rs.metadata.annotations?.['deployment.kubernetes.io/revision'] ===
        revision,
    );
    if (current && current.spec.replicas !== deployment.spec.replicas) {
      const from = current.spec.replicas;
      const rs = deepClone(current);
      rs.spec.replicas = deployment.spec.replicas;
      rs.metadata.annotations = {
        ...rs.metadata.annotations,
        'deployment.kubernetes.io/desired-replicas': String(
          deployment.spec.replicas,
        ),
      };
      this.store.upsert(rs);
      this.record(
        deployment,
        'Normal',
        'ScalingReplicaSet',
        `Scaled ${rs.spec.replicas > from ? 'up' : 'down'} replica set ${
          rs.metadata.name
        } from ${from} to ${rs.spec.replicas}`,
        'deployment-controller',
      );
      this.reconcileReplicaSet(rs, false);
    }
    this.updateDeploymentStatus(deployment);
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
      rs => this.children(rs, '', 'Pod'),
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
    const pods = this.children(fresh, '', 'Pod');
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
      const pod = this.store.upsert(
        buildReplicaSetPod(
          fresh,
          state,
          `${Date.now()}-${++this.nonce}`,
          ctx.now,
          ctx,
        ),
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
      this.store.remove(
        this.resource('', 'Pod'),
        pod.metadata.namespace,
        pod.metadata.name,
      );
      this.record(
        fresh,
        'Normal',
        'SuccessfulDelete',
        `Deleted pod: ${pod.metadata.name}`,
        'replicaset-controller',
      );
    }
    this.store.upsert({
      ...fresh,
      status: replicaSetStatus(fresh, this.children(fresh, '', 'Pod')),
    });
    this.syncEndpoints(fresh.metadata.namespace!);
    if (deployment && updateOwner) {
      this.updateDeploymentStatus(deployment);
    }
  }

  private reconcileStatefulSet(sts: KubeObject) {
    const fresh =
      this.store.get(
        this.resource('apps', 'StatefulSet'),
        sts.metadata.namespace,
        sts.metadata.name,
      ) ?? sts;
    const revisionName =
      fresh.status?.updateRevision ?? `${fresh.metadata.name}-rev`;
    const desired = fresh.spec.replicas ?? 1;
    const ctx = this.ctx();
    const byName = new Map(
      this.children(fresh, '', 'Pod').map(p => [p.metadata.name, p]),
    );
    const claims = this.resource('', 'PersistentVolumeClaim');
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
        revisionName,
        i,
        ctx.now,
        ctx,
        `${Date.now()}-${++this.nonce}`,
      );
      this.store.upsert(pod);
      this.record(
        fresh,
        'Normal',
        'SuccessfulCreate',
        `create Pod ${pod.metadata.name} in StatefulSet ${fresh.metadata.name} successful`,
        'statefulset-controller',
      );
    }
    for (const [name, pod] of byName) {
      if (Number(name.slice(fresh.metadata.name.length + 1)) >= desired) {
        this.store.remove(
          this.resource('', 'Pod'),
          pod.metadata.namespace,
          name,
        );
        this.record(
          fresh,
          'Normal',
          'SuccessfulDelete',
          `delete Pod ${name} in StatefulSet ${fresh.metadata.name} successful`,
          'statefulset-controller',
        );
      }
    }
    const pods = this.children(fresh, '', 'Pod');
    this.store.upsert({
      ...fresh,
      status: statefulSetStatus(fresh, pods, revisionName),
    });
    this.syncEndpoints(fresh.metadata.namespace!);
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

  /** What Flux controllers do when asked to reconcile: note the request as handled. */
  afterPatch(before: KubeObject, after: KubeObject) {
    const requested = 'reconcile.fluxcd.io/requestedAt';
    const wanted = after.metadata.annotations?.[requested];
    if (
      wanted &&
      wanted !== before.metadata.annotations?.[requested] &&
      /fluxcd\.io$/.test(after.apiVersion.split('/')[0])
    ) {
      const fresh = this.store.get(
        this.store.registry.forObject(after)!,
        after.metadata.namespace,
        after.metadata.name,
      )!;
      this.store.upsert({
        ...fresh,
        status: { ...fresh.status, lastHandledReconcileAt: wanted },
      });
    }
    if (
      ['Deployment', 'ReplicaSet', 'StatefulSet'].includes(after.kind) &&
      before.spec?.replicas !== after.spec?.replicas
    ) {
      this.reconcile(after);
    }
  }
}
