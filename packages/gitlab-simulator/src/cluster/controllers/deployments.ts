import { KubeObject } from '../../scenario/types';
import { isoSeconds, stableSuffix, stableUid } from '../ids';
import { controllerRef, deepClone } from '../objects';
import { isPodReady } from '../pods';
import {
  canonicalJson,
  fenceposts,
  newReplicaSetReplicas,
  templatesEqualIgnoringHash,
} from '../rollout';
import {
  buildReplicaSetPod,
  deploymentPodState,
  deploymentRevision,
  deploymentStatus,
  replicaSetStatus,
} from '../workloads';
import {
  appendRevisionHistory,
  copyableAnnotations,
  DESIRED_REPLICAS,
  MAX_REPLICAS,
  REVISION,
  REVISION_HISTORY,
} from '../revisions';
import { ControllerKit } from './kit';

const SIM_REVISION = 'simulator.gitlab-env/revision';

/** The deployment and replicaset controllers (`pkg/controller/deployment`, `pkg/controller/replicaset`). */
export class DeploymentController {
  constructor(
    private readonly kit: ControllerKit,
    private readonly syncEndpoints: (namespace: string) => void,
  ) {}

  /**
   * The deployment controller: find or create the ReplicaSet whose template
   * equals the Deployment's (a new revision when the template changed, e.g.
   * `kubectl rollout restart`), then scale it up and the old ones down within
   * maxSurge/maxUnavailable, step by step as pods become ready
   * (`pkg/controller/deployment/sync.go`, `rolling.go`, `recreate.go`).
   */
  reconcileDeployment(deployment: KubeObject) {
    // Bounded: each step scales at least one ReplicaSet; with pods ready at once it converges.
    for (let step = 0; step < 100; step++) {
      const fresh = this.kit.fresh(deployment);
      if (!fresh || fresh.spec?.paused || !this.deploymentStep(fresh)) break;
    }
    this.updateDeploymentStatus(deployment);
    const fresh = this.kit.fresh(deployment);
    if (fresh && this.rolledOut(fresh)) this.cleanupOldReplicaSets(fresh);
  }

  /**
   * `getNewReplicaSet` (pkg/controller/deployment/sync.go): the ReplicaSet
   * whose template equals the Deployment's, created when none does. It
   * takes the Deployment's annotations and, unless it already has the
   * highest, the next revision; a reused ReplicaSet (a rollback) records
   * its former revision in `revision-history` (`SetNewReplicaSetAnnotations`,
   * pkg/controller/deployment/util/deployment_util.go). The Deployment
   * carries the new ReplicaSet's revision (`SetDeploymentRevision`).
   */
  private newReplicaSet(deployment: KubeObject, replicaSets: KubeObject[]) {
    const revisionOf = (rs: KubeObject) =>
      Number(rs.metadata.annotations?.[REVISION] ?? 0);
    let rs = replicaSets.find(r =>
      templatesEqualIgnoringHash(r.spec.template, deployment.spec.template),
    );
    const newRevision =
      Math.max(0, ...replicaSets.filter(r => r !== rs).map(revisionOf)) + 1;
    if (!rs) {
      const hash = stableSuffix(
        `${this.kit.cluster}/${deployment.metadata.namespace}/${
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
      rs = this.kit.store.upsert({
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: {
          name,
          namespace: deployment.metadata.namespace,
          uid: stableUid(
            `${
              this.kit.cluster
            }/rs/${name}/${Date.now()}/${this.kit.nextNonce()}`,
          ),
          creationTimestamp: isoSeconds(new Date()),
          generation: 1,
          labels: { ...template.metadata.labels },
          annotations: {
            ...copyableAnnotations(deployment),
            [DESIRED_REPLICAS]: String(deployment.spec.replicas ?? 1),
            [MAX_REPLICAS]: String(
              (deployment.spec.replicas ?? 1) + fenceposts(deployment).maxSurge,
            ),
            [REVISION]: String(newRevision),
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
    } else {
      const annotations: Record<string, string> = {
        ...rs.metadata.annotations,
        ...copyableAnnotations(deployment),
      };
      const oldRevision = rs.metadata.annotations?.[REVISION];
      if (revisionOf(rs) < newRevision) {
        annotations[REVISION] = String(newRevision);
        if (oldRevision !== undefined) {
          const history = appendRevisionHistory(
            rs.metadata.annotations?.[REVISION_HISTORY],
            oldRevision,
          );
          if (history) annotations[REVISION_HISTORY] = history;
        }
      }
      if (
        JSON.stringify(annotations) !== JSON.stringify(rs.metadata.annotations)
      ) {
        rs = this.kit.store.upsert({
          ...rs,
          metadata: { ...rs.metadata, annotations },
        });
      }
    }
    const revision = rs.metadata.annotations![REVISION];
    const annotations = deployment.metadata.annotations ?? {};
    if (annotations[REVISION] !== revision) {
      this.kit.store.upsert({
        ...deployment,
        metadata: {
          ...deployment.metadata,
          annotations: {
            ...annotations,
            [REVISION]: revision,
            // The simulator's own revision annotation would otherwise win over the controller's.
            ...(annotations[SIM_REVISION] ? { [SIM_REVISION]: revision } : {}),
          },
        },
      });
    }
    return rs;
  }

  /**
   * `cleanupDeployment` (sync.go): once a rollout is complete, old
   * ReplicaSets scaled to zero beyond `revisionHistoryLimit` are deleted,
   * lowest revision first.
   */
  private cleanupOldReplicaSets(deployment: KubeObject) {
    const limit = deployment.spec?.revisionHistoryLimit;
    if (limit === undefined || limit === null) return;
    const revision = deployment.metadata.annotations?.[REVISION];
    const olds = this.kit
      .children(deployment, 'apps', 'ReplicaSet')
      .filter(
        rs =>
          rs.metadata.annotations?.[REVISION] !== revision &&
          !rs.metadata.deletionTimestamp,
      )
      .sort(
        (a, b) =>
          Number(a.metadata.annotations?.[REVISION] ?? 0) -
          Number(b.metadata.annotations?.[REVISION] ?? 0),
      );
    for (const rs of olds.slice(0, Math.max(0, olds.length - limit))) {
      if ((rs.spec.replicas ?? 0) !== 0 || (rs.status?.replicas ?? 0) !== 0)
        continue;
      this.kit.store.remove(
        this.kit.resource('apps', 'ReplicaSet'),
        rs.metadata.namespace,
        rs.metadata.name,
      );
    }
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
    this.kit.store.upsert(scaled);
    this.kit.record(
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
    const replicaSets = this.kit.children(deployment, 'apps', 'ReplicaSet');
    const newRs = this.newReplicaSet(deployment, replicaSets);
    const fresh = this.kit.fresh(deployment) ?? deployment;
    const olds = this.kit
      .children(fresh, 'apps', 'ReplicaSet')
      .filter(
        rs =>
          rs.metadata.uid !== newRs.metadata.uid && (rs.spec.replicas ?? 0) > 0,
      );
    const desired = fresh.spec.replicas ?? 1;
    const ready = (rs: KubeObject) =>
      this.kit.livePods(rs).filter(isPodReady).length;
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
      .map(rs => this.kit.fresh(rs) ?? rs)
      .reduce((n, rs) => n + ready(rs), 0);
    let scaleDown = Math.min(available - minAvailable, maxScaledDown);
    for (const rs of oldest) {
      const current = this.kit.fresh(rs) ?? rs;
      const cut = Math.min(current.spec.replicas ?? 0, scaleDown);
      if (cut > 0) {
        this.scaleReplicaSet(fresh, current, current.spec.replicas - cut);
        scaleDown -= cut;
        changed = true;
      }
    }
    return changed;
  }

  /** `DeploymentComplete`: every replica updated and available, no old ones left. */
  private rolledOut(deployment: KubeObject): boolean {
    const desired = deployment.spec?.replicas ?? 1;
    const status = deployment.status ?? {};
    return (
      (status.updatedReplicas ?? 0) === desired &&
      (status.replicas ?? 0) === desired &&
      (status.availableReplicas ?? 0) === desired &&
      (status.observedGeneration ?? 0) >= (deployment.metadata.generation ?? 1)
    );
  }

  private updateDeploymentStatus(deployment: KubeObject) {
    const fresh = this.kit.store.get(
      this.kit.resource('apps', 'Deployment'),
      deployment.metadata.namespace,
      deployment.metadata.name,
    );
    if (!fresh) return;
    const replicaSets = this.kit.children(fresh, 'apps', 'ReplicaSet');
    const status = deploymentStatus(
      fresh,
      replicaSets,
      rs => this.kit.livePods(rs),
      isoSeconds(new Date()),
    );
    this.kit.store.upsert({ ...fresh, status });
  }

  reconcileReplicaSet(rs: KubeObject, updateOwner = true) {
    const fresh =
      this.kit.store.get(
        this.kit.resource('apps', 'ReplicaSet'),
        rs.metadata.namespace,
        rs.metadata.name,
      ) ?? rs;
    const deployment = this.kit.ownerOf(fresh, 'apps', 'Deployment');
    // Terminating pods no longer count: the ReplicaSet replaces them at once.
    const pods = this.kit.livePods(fresh);
    const desired = fresh.spec.replicas ?? 1;
    const ctx = this.kit.ctx();
    const current = deployment
      ? fresh.metadata.annotations?.['deployment.kubernetes.io/revision'] ===
        String(deploymentRevision(deployment))
      : true;
    for (let i = pods.length; i < desired; i++) {
      const state = deployment
        ? deploymentPodState(deployment, current, i)
        : 'running';
      const pod = this.kit.createPod(
        buildReplicaSetPod(
          fresh,
          state,
          `${Date.now()}-${this.kit.nextNonce()}`,
          ctx.now,
          ctx,
        ),
        state,
      );
      this.kit.record(
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
      this.kit.removePod(
        fresh,
        pod.metadata.name,
        `Deleted pod: ${pod.metadata.name}`,
        'replicaset-controller',
      );
    }
    this.kit.store.upsert({
      ...fresh,
      status: replicaSetStatus(fresh, this.kit.livePods(fresh)),
    });
    this.syncEndpoints(fresh.metadata.namespace!);
    if (deployment && updateOwner) {
      this.updateDeploymentStatus(deployment);
    }
  }
}
