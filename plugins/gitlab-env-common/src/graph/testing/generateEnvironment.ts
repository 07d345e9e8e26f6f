import { KubernetesObject } from '../../types';

/**
 * A realistic environment of about `size` objects: per application a
 * Deployment with its current and previous ReplicaSets and three Pods, a
 * Service with its EndpointSlice, an Ingress, an HPA, a ConfigMap and a
 * Secret the Pods read, and a StatefulSet with two Pods and their claims;
 * one Flux Kustomization whose inventory names the top-level objects.
 */
export function generateEnvironment(
  size: number,
  namespace = 'shop',
): KubernetesObject[] {
  const objects: KubernetesObject[] = [];
  const inventory: Array<{ id: string; v: string }> = [];
  const meta = (name: string, extra: object = {}) => ({
    name,
    namespace,
    uid: `${namespace}-${name}-${objects.length}`,
    ...extra,
  });
  const owner = (kind: string, o: KubernetesObject) => ({
    ownerReferences: [
      {
        apiVersion: 'apps/v1',
        kind,
        name: o.metadata!.name,
        uid: o.metadata!.uid,
        controller: true,
      },
    ],
  });
  const podOf = (
    name: string,
    rs: KubernetesObject,
    kind: string,
    labels: Record<string, string>,
    crash: boolean,
    claim?: string,
  ): KubernetesObject => ({
    apiVersion: 'v1',
    kind: 'Pod',
    // A label every pod shares, as Helm charts add, so Service selectors
    // must not degrade into a pass over all pods.
    metadata: meta(name, {
      labels: { ...labels, 'app.kubernetes.io/part-of': namespace },
      ...owner(kind, rs),
    }),
    spec: {
      restartPolicy: 'Always',
      volumes: [
        { name: 'cfg', configMap: { name: `${labels.app}-config` } },
        ...(claim
          ? [{ name: 'data', persistentVolumeClaim: { claimName: claim } }]
          : []),
      ],
      containers: [
        {
          name: 'app',
          envFrom: [{ secretRef: { name: `${labels.app}-env` } }],
        },
      ],
    },
    status: crash
      ? {
          phase: 'Running',
          containerStatuses: [
            {
              name: 'app',
              restartCount: 9,
              state: {
                waiting: { reason: 'CrashLoopBackOff', message: 'back-off' },
              },
            },
          ],
        }
      : {
          phase: 'Running',
          conditions: [{ type: 'Ready', status: 'True' }],
          containerStatuses: [
            {
              name: 'app',
              ready: true,
              restartCount: 0,
              state: { running: {} },
            },
          ],
        },
  });

  for (let app = 0; objects.length < size; app++) {
    const name = `app-${app}`;
    const labels = { app: name };
    const deployment: KubernetesObject = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: meta(name, { generation: 2, labels }),
      spec: { replicas: 3, selector: { matchLabels: labels } },
      status: {
        observedGeneration: 2,
        replicas: 3,
        updatedReplicas: 3,
        readyReplicas: 3,
        availableReplicas: 3,
      },
    };
    const current: KubernetesObject = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: meta(`${name}-7c9b`, {
        labels,
        ...owner('Deployment', deployment),
      }),
      spec: { replicas: 3 },
      status: { availableReplicas: 3 },
    };
    const old: KubernetesObject = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: meta(`${name}-5d8f`, {
        labels,
        ...owner('Deployment', deployment),
      }),
      spec: { replicas: 0 },
      status: {},
    };
    objects.push(deployment, current, old);
    for (let p = 0; p < 3; p++)
      objects.push(
        podOf(
          `${name}-7c9b-${p}`,
          current,
          'ReplicaSet',
          labels,
          app % 10 === 0 && p === 0,
        ),
      );
    objects.push(
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: meta(name),
        spec: {
          selector: { ...labels, 'app.kubernetes.io/part-of': namespace },
          ports: [{ port: 80 }],
        },
      },
      {
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: meta(`${name}-x7k2p`, {
          labels: { 'kubernetes.io/service-name': name },
        }),
      },
      {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'Ingress',
        metadata: meta(name),
        spec: {
          rules: [{ http: { paths: [{ backend: { service: { name } } }] } }],
        },
        status: { loadBalancer: { ingress: [{ ip: '10.0.0.1' }] } },
      },
      {
        apiVersion: 'autoscaling/v2',
        kind: 'HorizontalPodAutoscaler',
        metadata: meta(name),
        spec: {
          scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name },
        },
        status: { conditions: [{ type: 'AbleToScale', status: 'True' }] },
      },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: meta(`${name}-config`) },
      { apiVersion: 'v1', kind: 'Secret', metadata: meta(`${name}-env`) },
    );
    const sts: KubernetesObject = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: meta(`${name}-db`, { generation: 1 }),
      spec: {
        replicas: 2,
        volumeClaimTemplates: [{ metadata: { name: 'data' } }],
      },
      status: {
        observedGeneration: 1,
        readyReplicas: 2,
        currentReplicas: 2,
        currentRevision: 'r1',
        updateRevision: 'r1',
      },
    };
    objects.push(sts);
    for (let p = 0; p < 2; p++) {
      objects.push(
        podOf(
          `${name}-db-${p}`,
          sts,
          'StatefulSet',
          { app: `${name}-db` },
          false,
          `data-${name}-db-${p}`,
        ),
      );
      objects.push({
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: meta(`data-${name}-db-${p}`),
        status: { phase: 'Bound' },
      });
    }
    for (const [group, kind, n] of [
      ['apps', 'Deployment', name],
      ['', 'Service', name],
      ['networking.k8s.io', 'Ingress', name],
      ['apps', 'StatefulSet', `${name}-db`],
    ]) {
      inventory.push({ id: `${namespace}_${n}_${group}_${kind}`, v: 'v1' });
    }
  }
  objects.push({
    apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
    kind: 'Kustomization',
    metadata: {
      name: namespace,
      namespace: 'flux-system',
      uid: `ks-${namespace}`,
    },
    status: {
      conditions: [
        { type: 'Ready', status: 'True', reason: 'ReconciliationSucceeded' },
      ],
      inventory: { entries: inventory },
    },
  });
  return objects;
}
