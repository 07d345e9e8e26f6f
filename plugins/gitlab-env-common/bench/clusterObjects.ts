import { KubernetesObject } from '../src';
import { isRecord } from '../src/k8s/objects';
import { generateEnvironment } from '../src/graph/testing/generateEnvironment';

// The engine's benchmarks measure it on objects as a cluster serves them,
// not on the lean ones the golden graphs are built from: the figures are
// ratios to JSON.parse of the same objects, and a lean object makes parsing
// cheap and the engine's share look larger than a read's, a padded one the
// reverse. So the generated environment keeps its graph (every reference,
// selector, owner and inventory entry, so the graph, its health and roll-up
// are the same) and gets what the API server, the controllers and the
// appliers add, shaped after the simulator's objects
// (packages/gitlab-simulator/src/cluster) and `kubectl get -o json` of real
// ones:
//
// - metadata: resourceVersion, creationTimestamp, generation, the
//   recommended app.kubernetes.io labels (and pod-template-hash,
//   controller-revision-hash), controllers' annotations, finalizers, and
//   managedFields for each manager that wrote the object (its applier,
//   kube-controller-manager, kubelet for Pods, kube-scheduler for claims);
// - the applier: even apps are deployed from CI with `kubectl apply`
//   through the agent (client-side apply: the last-applied-configuration
//   annotation), odd apps by Flux's kustomize-controller (server-side apply:
//   no annotation), GitLab's two ways to deploy through the agent;
// - full specs as they come back with the API server's defaults (a Pod's
//   probes, resources, security context, the service account token volume,
//   tolerations) and full statuses (conditions with times, container
//   statuses with images and ids, IPs).
//
// The backend drops managedFields and the last-applied copy before the
// engine sees an object (reading/objects.ts, normalizeObject; it keeps the
// entries of foreign managers as evidence of drift, none here), so the
// engine is given the objects as normalizeObject leaves them, parsed from
// the JSON the cluster sent.
//
// As served, a Pod comes out at about 7 KB of JSON (4 KB as the engine
// keeps it), a Deployment at 7 KB, a Service at 1.7 KB; 4.6 KB per object
// on average, 2.3 KB as kept. That is the fuller end of what clusters send
// (a Pod without probes, resources or env is nearer 4 KB), so the benchmark
// also sets the engine against parsing only what it keeps.

const CREATED = '2026-02-11T08:41:27Z';
const STARTED = '2026-02-11T08:41:39Z';
const IMAGE_DIGEST =
  'sha256:5f0c6d6a2c4b8e9f1a3d7c2b6e8f0a1c3e5d7b9f2a4c6e8d0b2f4a6c8e0d2b4f';
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** What `environmentAsServed` gives: the JSON a read parses, and the objects the engine gets. */
export interface ServedEnvironment {
  /** The objects as the API server sends them (managedFields and all), as JSON. */
  served: string;
  /** The same objects parsed from `served` and normalized as the backend does (see above). */
  objects: KubernetesObject[];
  /** `objects` as JSON: what parsing would cost if the cluster sent no more than the engine keeps. */
  normalized: string;
}

/** A stable hex string of `length` from a number. */
function hex(seed: number, length: number): string {
  let text = '';
  let state = (seed * 2654435761) >>> 0;
  while (text.length < length) {
    state = (Math.imul(state ^ (state >>> 13), 1274126177) + 0x9e3779b9) >>> 0;
    text += state.toString(16).padStart(8, '0');
  }
  return text.slice(0, length);
}

function uuidOf(seed: number): string {
  const h = hex(seed, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(
    16,
    20,
  )}-${h.slice(20)}`;
}

/**
 * The FieldsV1 set of a value, as the API server records what a manager
 * owns: `f:` per field, `k:` per keyed list item, `v:` per set member.
 */
function fieldsOf(value: unknown, top = true): Record<string, unknown> {
  if (Array.isArray(value)) {
    const set: Record<string, unknown> = {};
    value.forEach((item, index) => {
      if (!isRecord(item)) {
        set[`v:${JSON.stringify(item)}`] = {};
        return;
      }
      let key: string;
      if (typeof item.name === 'string')
        key = `k:${JSON.stringify({ name: item.name })}`;
      else if (typeof item.type === 'string')
        key = `k:${JSON.stringify({ type: item.type })}`;
      else if (typeof item.containerPort === 'number')
        key = `k:${JSON.stringify({
          containerPort: item.containerPort,
          protocol: 'TCP',
        })}`;
      else if (typeof item.port === 'number')
        key = `k:${JSON.stringify({ port: item.port, protocol: 'TCP' })}`;
      else key = `i:${index}`;
      set[key] = fieldsOf(item, false);
    });
    return set;
  }
  if (!isRecord(value)) return {};
  const set: Record<string, unknown> = top ? {} : { '.': {} };
  for (const [key, field] of Object.entries(value))
    set[`f:${key}`] =
      isRecord(field) || Array.isArray(field) ? fieldsOf(field, false) : {};
  return set;
}

function managed(
  manager: string,
  operation: 'Apply' | 'Update',
  apiVersion: string,
  fields: Record<string, unknown>,
  subresource?: string,
) {
  return {
    manager,
    operation,
    apiVersion,
    time: subresource ? STARTED : CREATED,
    fieldsType: 'FieldsV1',
    fieldsV1: fieldsOf(fields),
    ...(subresource ? { subresource } : {}),
  };
}

/** A controller's entry for the status subresource it writes. */
function statusManager(manager: string, apiVersion: string, status: unknown) {
  return managed(manager, 'Update', apiVersion, { status }, 'status');
}

function container(app: string, database: boolean, base: any = {}) {
  const port = database ? 5432 : 8080;
  return {
    ...base,
    name: base.name ?? 'app',
    image: database
      ? 'registry.gitlab.example.com/platform/images/postgres:16.4-alpine'
      : `registry.gitlab.example.com/acme/shop/${app}:1.24.3`,
    imagePullPolicy: 'IfNotPresent',
    ports: [
      {
        name: database ? 'postgres' : 'http',
        containerPort: port,
        protocol: 'TCP',
      },
    ],
    env: [
      { name: 'PORT', value: String(port) },
      { name: 'LOG_LEVEL', value: 'info' },
    ],
    resources: {
      limits: { cpu: '1', memory: database ? '1Gi' : '512Mi' },
      requests: { cpu: '100m', memory: database ? '512Mi' : '256Mi' },
    },
    livenessProbe: {
      failureThreshold: 3,
      ...(database
        ? { tcpSocket: { port } }
        : { httpGet: { path: '/healthz', port: 'http', scheme: 'HTTP' } }),
      initialDelaySeconds: 10,
      periodSeconds: 10,
      successThreshold: 1,
      timeoutSeconds: 1,
    },
    readinessProbe: {
      failureThreshold: 3,
      ...(database
        ? { exec: { command: ['pg_isready', '-U', 'postgres'] } }
        : { httpGet: { path: '/ready', port: 'http', scheme: 'HTTP' } }),
      periodSeconds: 5,
      successThreshold: 1,
      timeoutSeconds: 1,
    },
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
    volumeMounts: [
      { mountPath: '/etc/app', name: 'cfg', readOnly: true },
      ...(database
        ? [{ mountPath: '/var/lib/postgresql/data', name: 'data' }]
        : []),
    ],
  };
}

/** A pod template's spec: the generator's volumes and references, the rest as the API server defaults it. */
function podTemplateSpec(app: string, database: boolean, base: any = {}) {
  return {
    ...base,
    containers: (base.containers ?? [{}]).map((c: any) =>
      container(app, database, c),
    ),
    dnsPolicy: 'ClusterFirst',
    restartPolicy: 'Always',
    schedulerName: 'default-scheduler',
    securityContext: {
      fsGroup: 10001,
      seccompProfile: { type: 'RuntimeDefault' },
    },
    serviceAccountName: app,
    terminationGracePeriodSeconds: 30,
  };
}

/** A workload's pod template spec: the volume and references its Pods carry (see generateEnvironment). */
function workloadPodSpec(app: string, database: boolean) {
  return podTemplateSpec(app, database, {
    volumes: [
      { name: 'cfg', configMap: { name: `${app}-config`, defaultMode: 420 } },
    ],
    containers: [{ envFrom: [{ secretRef: { name: `${app}-env` } }] }],
  });
}

function recommendedLabels(app: string, database: boolean, namespace: string) {
  return {
    'app.kubernetes.io/name': database ? `${app}-db` : app,
    'app.kubernetes.io/instance': `${app}-production`,
    'app.kubernetes.io/version': database ? '16.4' : '1.24.3',
    'app.kubernetes.io/component': database ? 'database' : 'api',
    'app.kubernetes.io/part-of': namespace,
  };
}

function condition(
  type: string,
  status: boolean,
  reason?: string,
  message?: string,
) {
  return {
    type,
    status: status ? 'True' : 'False',
    lastTransitionTime: STARTED,
    ...(reason ? { reason } : {}),
    ...(message ? { message } : {}),
  };
}

/** Names like `app-12-7c9b-0` belong to app `app-12`. */
const APP = /^(?:data-)?(app-\d+)/;

/** The uids the API server gave: unique (the generator's repeat across kinds of one name). */
interface Uids {
  /** By the generator's uid of an owner (Deployment, ReplicaSet, StatefulSet). */
  owners: Map<unknown, string>;
  /** By `namespace/name` of a Service, its EndpointSlice's owner. */
  services: Map<string, string>;
}

/** Dresses one generated object as the cluster serves it. */
function dress(
  object: KubernetesObject,
  index: number,
  uids: Uids,
): KubernetesObject {
  const lean = object.metadata!;
  const namespace = lean.namespace as string;
  const name = lean.name as string;
  const app = APP.exec(name)?.[1] ?? name;
  const appNumber = Number(app.slice(4)) || 0;
  const database = name.includes('-db');
  const byCi = appNumber % 2 === 0;
  const resourceVersion = String(48_213_000 + index * 7);
  const recommended = recommendedLabels(app, database, namespace);
  const fluxLabels = {
    'kustomize.toolkit.fluxcd.io/name': namespace,
    'kustomize.toolkit.fluxcd.io/namespace': 'flux-system',
  };
  const applier = byCi ? 'kubectl-client-side-apply' : 'kustomize-controller';
  /** The metadata fields and managedFields entry of an object its applier applied. */
  const applied = (
    kind: string,
    rest: Record<string, unknown>,
    more: { generation?: number; annotations?: Record<string, string> } = {},
  ) => {
    // The object as its manifest in the repository says it.
    const manifest = {
      apiVersion: object.apiVersion,
      kind,
      metadata: {
        labels: { ...recommended, ...(lean.labels ?? {}) },
        name,
        namespace,
      },
      ...rest,
    };
    const annotations = byCi
      ? { ...more.annotations, [LAST_APPLIED]: `${JSON.stringify(manifest)}\n` }
      : more.annotations;
    return {
      fields: {
        generation: more.generation,
        labels: byCi
          ? manifest.metadata.labels
          : { ...manifest.metadata.labels, ...fluxLabels },
        annotations,
      },
      manager: managed(
        applier,
        byCi ? 'Update' : 'Apply',
        object.apiVersion as string,
        { metadata: { labels: manifest.metadata.labels }, ...rest },
      ),
    };
  };
  const metadata = (
    fields: {
      generation?: number;
      labels?: Record<string, string>;
      annotations?: Record<string, string>;
      generateName?: string;
      finalizers?: string[];
      ownerReferences?: unknown[];
    },
    managedFields: unknown[],
  ) => {
    const owners: unknown[] | undefined =
      fields.ownerReferences ?? lean.ownerReferences;
    return {
      name,
      ...(fields.generateName ? { generateName: fields.generateName } : {}),
      namespace,
      uid: uuidOf(index),
      resourceVersion,
      ...(fields.generation ? { generation: fields.generation } : {}),
      creationTimestamp: CREATED,
      ...(fields.labels ? { labels: fields.labels } : {}),
      ...(fields.annotations ? { annotations: fields.annotations } : {}),
      ...(owners
        ? {
            ownerReferences: owners.map((owner: any) => ({
              ...owner,
              uid: uids.owners.get(owner.uid) ?? owner.uid,
              blockOwnerDeletion: true,
            })),
          }
        : {}),
      ...(fields.finalizers ? { finalizers: fields.finalizers } : {}),
      managedFields,
    };
  };
  const spec: any = object.spec ?? {};
  const status: any = object.status ?? {};
  const identity = { apiVersion: object.apiVersion, kind: object.kind };

  switch (object.kind) {
    case 'Deployment': {
      const template = {
        metadata: { labels: { ...recommended, ...spec.selector.matchLabels } },
        spec: workloadPodSpec(app, false),
      };
      const fullSpec = {
        progressDeadlineSeconds: 600,
        replicas: spec.replicas,
        revisionHistoryLimit: 10,
        selector: spec.selector,
        strategy: {
          rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' },
          type: 'RollingUpdate',
        },
        template,
      };
      const apply = applied(
        'Deployment',
        { spec: fullSpec },
        {
          generation: lean.generation as number,
          annotations: { 'deployment.kubernetes.io/revision': '2' },
        },
      );
      const fullStatus = {
        ...status,
        conditions: [
          condition(
            'Available',
            true,
            'MinimumReplicasAvailable',
            'Deployment has minimum availability.',
          ),
          condition(
            'Progressing',
            true,
            'NewReplicaSetAvailable',
            `ReplicaSet "${app}-7c9b" has successfully progressed.`,
          ),
        ].map(c => ({ ...c, lastUpdateTime: STARTED })),
      };
      return {
        ...identity,
        metadata: metadata(apply.fields, [
          apply.manager,
          managed('kube-controller-manager', 'Update', 'apps/v1', {
            metadata: {
              annotations: { 'deployment.kubernetes.io/revision': '2' },
            },
          }),
          statusManager('kube-controller-manager', 'apps/v1', fullStatus),
        ]),
        spec: fullSpec,
        status: fullStatus,
      };
    }
    case 'ReplicaSet': {
      const hash = name.slice(app.length + 1);
      const labels = {
        ...recommended,
        ...lean.labels,
        'pod-template-hash': hash,
      };
      const fullSpec = {
        replicas: spec.replicas,
        selector: { matchLabels: { app, 'pod-template-hash': hash } },
        template: {
          metadata: { labels },
          spec: workloadPodSpec(app, false),
        },
      };
      const fullStatus = {
        ...status,
        replicas: spec.replicas,
        ...(spec.replicas > 0
          ? {
              fullyLabeledReplicas: spec.replicas,
              readyReplicas: spec.replicas,
            }
          : {}),
        observedGeneration: 1,
      };
      const annotations = {
        'deployment.kubernetes.io/desired-replicas': '3',
        'deployment.kubernetes.io/max-replicas': '4',
        'deployment.kubernetes.io/revision': spec.replicas > 0 ? '2' : '1',
      };
      return {
        ...identity,
        metadata: metadata({ generation: 1, labels, annotations }, [
          managed('kube-controller-manager', 'Update', 'apps/v1', {
            metadata: {
              annotations,
              labels,
              ownerReferences: lean.ownerReferences,
            },
            spec: fullSpec,
          }),
          statusManager('kube-controller-manager', 'apps/v1', fullStatus),
        ]),
        spec: fullSpec,
        status: fullStatus,
      };
    }
    case 'Pod': {
      const owner = (lean.ownerReferences as any[])[0];
      const labels = database
        ? {
            ...recommended,
            ...lean.labels,
            'apps.kubernetes.io/pod-index': name.slice(-1),
            'controller-revision-hash': `${app}-db-6d4f8b9c7`,
            'statefulset.kubernetes.io/pod-name': name,
          }
        : {
            ...recommended,
            ...lean.labels,
            'pod-template-hash': owner.name.slice(app.length + 1),
          };
      const tokenVolume = `kube-api-access-${hex(index, 5)}`;
      const base = podTemplateSpec(app, database, spec);
      const fullSpec = {
        ...base,
        containers: base.containers.map((c: any) => ({
          ...c,
          volumeMounts: [
            ...c.volumeMounts,
            {
              mountPath: '/var/run/secrets/kubernetes.io/serviceaccount',
              name: tokenVolume,
              readOnly: true,
            },
          ],
        })),
        enableServiceLinks: true,
        nodeName: `gke-prod-eu-pool-1-${hex(index % 7, 8)}-${hex(
          index % 7,
          4,
        )}`,
        preemptionPolicy: 'PreemptLowerPriority',
        priority: 0,
        serviceAccount: app,
        tolerations: [
          {
            effect: 'NoExecute',
            key: 'node.kubernetes.io/not-ready',
            operator: 'Exists',
            tolerationSeconds: 300,
          },
          {
            effect: 'NoExecute',
            key: 'node.kubernetes.io/unreachable',
            operator: 'Exists',
            tolerationSeconds: 300,
          },
        ],
        volumes: [
          ...spec.volumes,
          {
            name: tokenVolume,
            projected: {
              defaultMode: 420,
              sources: [
                {
                  serviceAccountToken: {
                    expirationSeconds: 3607,
                    path: 'token',
                  },
                },
                {
                  configMap: {
                    items: [{ key: 'ca.crt', path: 'ca.crt' }],
                    name: 'kube-root-ca.crt',
                  },
                },
                {
                  downwardAPI: {
                    items: [
                      {
                        fieldRef: {
                          apiVersion: 'v1',
                          fieldPath: 'metadata.namespace',
                        },
                        path: 'namespace',
                      },
                    ],
                  },
                },
              ],
            },
          },
        ],
      };
      const ready = !(status.containerStatuses ?? []).some(
        (s: any) => s.state?.waiting,
      );
      const podIP = `10.42.${(index >> 8) & 255}.${index & 255}`;
      const image = fullSpec.containers[0].image;
      const fullStatus = {
        conditions: [
          condition('PodReadyToStartContainers', true),
          condition('Initialized', true),
          condition(
            'Ready',
            ready,
            ready ? undefined : 'ContainersNotReady',
            ready ? undefined : 'containers with unready status: [app]',
          ),
          condition(
            'ContainersReady',
            ready,
            ready ? undefined : 'ContainersNotReady',
            ready ? undefined : 'containers with unready status: [app]',
          ),
          condition('PodScheduled', true),
        ].map(c => ({ ...c, lastProbeTime: null })),
        containerStatuses: (status.containerStatuses ?? []).map((s: any) => ({
          containerID: `containerd://${hex(index * 3 + 1, 64)}`,
          image,
          imageID: `${image.split(':')[0]}@${IMAGE_DIGEST}`,
          lastState: s.state?.waiting
            ? {
                terminated: {
                  containerID: `containerd://${hex(index * 3 + 2, 64)}`,
                  exitCode: 1,
                  finishedAt: STARTED,
                  reason: 'Error',
                  startedAt: STARTED,
                },
              }
            : {},
          started: !s.state?.waiting,
          ...s,
          ...(s.state?.running
            ? { state: { running: { startedAt: STARTED } } }
            : {}),
        })),
        hostIP: `10.0.${index % 7}.12`,
        hostIPs: [{ ip: `10.0.${index % 7}.12` }],
        phase: status.phase,
        podIP,
        podIPs: [{ ip: podIP }],
        qosClass: 'Burstable',
        startTime: STARTED,
      };
      // What the ReplicaSet or StatefulSet controller sent: the scheduler
      // binds the node, admission adds the token volume and tolerations.
      const {
        nodeName: _node,
        tolerations: _tolerations,
        serviceAccount: _serviceAccount,
        ...sent
      } = fullSpec;
      const controllerSpec = {
        ...sent,
        containers: base.containers,
        volumes: spec.volumes,
      };
      return {
        ...identity,
        metadata: metadata(
          {
            generateName: `${owner.name}-`,
            labels,
          },
          [
            managed('kube-controller-manager', 'Update', 'v1', {
              metadata: {
                generateName: owner.name,
                labels,
                ownerReferences: lean.ownerReferences,
              },
              spec: controllerSpec,
            }),
            managed(
              'kubelet',
              'Update',
              'v1',
              // containerStatuses is an atomic list: one field.
              { status: { ...fullStatus, containerStatuses: 0 } },
              'status',
            ),
          ],
        ),
        spec: fullSpec,
        status: fullStatus,
      };
    }
    case 'Service': {
      const fullSpec = {
        clusterIP: `10.96.${(index >> 8) & 255}.${index & 255}`,
        clusterIPs: [`10.96.${(index >> 8) & 255}.${index & 255}`],
        internalTrafficPolicy: 'Cluster',
        ipFamilies: ['IPv4'],
        ipFamilyPolicy: 'SingleStack',
        ports: [
          { name: 'http', port: 80, protocol: 'TCP', targetPort: 'http' },
        ],
        selector: spec.selector,
        sessionAffinity: 'None',
        type: 'ClusterIP',
      };
      const apply = applied('Service', {
        spec: { ports: fullSpec.ports, selector: spec.selector },
      });
      return {
        ...identity,
        metadata: metadata(apply.fields, [apply.manager]),
        spec: fullSpec,
        status: { loadBalancer: {} },
      };
    }
    case 'EndpointSlice': {
      const labels = {
        ...recommended,
        'endpointslice.kubernetes.io/managed-by':
          'endpointslice-controller.k8s.io',
        ...lean.labels,
      };
      const annotations = {
        'endpoints.kubernetes.io/last-change-trigger-time': STARTED,
      };
      const ownerReferences = [
        {
          apiVersion: 'v1',
          kind: 'Service',
          name: app,
          uid: uids.services.get(`${namespace}/${app}`),
          controller: true,
        },
      ];
      const endpoints = [0, 1, 2].map(p => ({
        addresses: [`10.42.${p}.${index & 255}`],
        conditions: { ready: true, serving: true, terminating: false },
        nodeName: `gke-prod-eu-pool-1-${hex(p, 8)}-${hex(p, 4)}`,
        targetRef: {
          kind: 'Pod',
          name: `${app}-7c9b-${p}`,
          namespace,
          uid: uuidOf(index * 5 + p),
        },
      }));
      const ports = [{ name: 'http', port: 8080, protocol: 'TCP' }];
      return {
        ...identity,
        metadata: metadata(
          {
            generateName: `${app}-`,
            generation: 4,
            labels,
            annotations,
            ownerReferences,
          },
          [
            managed(
              'kube-controller-manager',
              'Update',
              'discovery.k8s.io/v1',
              {
                addressType: 'IPv4',
                endpoints,
                metadata: {
                  annotations,
                  generateName: app,
                  labels,
                  ownerReferences,
                },
                ports,
              },
            ),
          ],
        ),
        addressType: 'IPv4',
        endpoints,
        ports,
      };
    }
    case 'Ingress': {
      const host = `${app}.shop.example.com`;
      const fullSpec = {
        ingressClassName: 'nginx',
        rules: [
          {
            host,
            http: {
              paths: [
                {
                  backend: {
                    service: {
                      name: spec.rules[0].http.paths[0].backend.service.name,
                      port: { number: 80 },
                    },
                  },
                  path: '/',
                  pathType: 'Prefix',
                },
              ],
            },
          },
        ],
        tls: [{ hosts: [host], secretName: `${app}-tls` }],
      };
      const apply = applied(
        'Ingress',
        { spec: fullSpec },
        {
          generation: 1,
          annotations: {
            'cert-manager.io/cluster-issuer': 'letsencrypt',
            'nginx.ingress.kubernetes.io/proxy-body-size': '8m',
          },
        },
      );
      return {
        ...identity,
        metadata: metadata(apply.fields, [
          apply.manager,
          statusManager(
            'nginx-ingress-controller',
            'networking.k8s.io/v1',
            status,
          ),
        ]),
        spec: fullSpec,
        status,
      };
    }
    case 'HorizontalPodAutoscaler': {
      const fullSpec = {
        maxReplicas: 10,
        metrics: [
          {
            resource: {
              name: 'cpu',
              target: { averageUtilization: 70, type: 'Utilization' },
            },
            type: 'Resource',
          },
        ],
        minReplicas: 3,
        scaleTargetRef: spec.scaleTargetRef,
      };
      const fullStatus = {
        conditions: [
          ...status.conditions.map((c: any) =>
            condition(
              c.type,
              c.status === 'True',
              'ReadyForNewScale',
              'recommended size matches current size',
            ),
          ),
          condition(
            'ScalingActive',
            true,
            'ValidMetricFound',
            'the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)',
          ),
          condition(
            'ScalingLimited',
            false,
            'DesiredWithinRange',
            'the desired count is within the acceptable range',
          ),
        ],
        currentMetrics: [
          {
            resource: {
              current: { averageUtilization: 23, averageValue: '23m' },
              name: 'cpu',
            },
            type: 'Resource',
          },
        ],
        currentReplicas: 3,
        desiredReplicas: 3,
      };
      const apply = applied(
        'HorizontalPodAutoscaler',
        { spec: fullSpec },
        { generation: 1 },
      );
      return {
        ...identity,
        metadata: metadata(apply.fields, [
          apply.manager,
          statusManager(
            'kube-controller-manager',
            'autoscaling/v2',
            fullStatus,
          ),
        ]),
        spec: fullSpec,
        status: fullStatus,
      };
    }
    case 'ConfigMap': {
      const data = {
        'application.yaml': [
          'server:',
          '  port: 8080',
          '  shutdown: graceful',
          'management:',
          '  endpoints:',
          '    web:',
          '      exposure:',
          '        include: health,info,prometheus',
          'logging:',
          '  level:',
          '    root: INFO',
          `    com.example.${app.replace('-', '')}: DEBUG`,
          'cache:',
          '  ttl: 300s',
          `  redis: redis://redis.${namespace}.svc.cluster.local:6379/0`,
          '',
        ].join('\n'),
        FEATURE_FLAGS: 'checkout-v2,new-search,-legacy-cart',
        LOG_FORMAT: 'json',
      };
      const apply = applied('ConfigMap', { data });
      return {
        ...identity,
        metadata: metadata(apply.fields, [apply.manager]),
        data,
      };
    }
    case 'Secret': {
      const data = {
        DATABASE_URL: Buffer.from(
          `postgres://${app}:${hex(
            index,
            24,
          )}@${app}-db.${namespace}.svc:5432/${app}`,
        ).toString('base64'),
        API_KEY: Buffer.from(hex(index + 1, 40)).toString('base64'),
        SESSION_SECRET: Buffer.from(hex(index + 2, 64)).toString('base64'),
      };
      const apply = applied('Secret', { data, type: 'Opaque' });
      return {
        ...identity,
        metadata: metadata(apply.fields, [apply.manager]),
        data,
        type: 'Opaque',
      };
    }
    case 'StatefulSet': {
      const selectorLabels = { app: name };
      const fullSpec = {
        persistentVolumeClaimRetentionPolicy: {
          whenDeleted: 'Retain',
          whenScaled: 'Retain',
        },
        podManagementPolicy: 'OrderedReady',
        replicas: spec.replicas,
        revisionHistoryLimit: 10,
        selector: { matchLabels: selectorLabels },
        serviceName: name,
        template: {
          metadata: { labels: { ...recommended, ...selectorLabels } },
          spec: workloadPodSpec(app, true),
        },
        updateStrategy: {
          rollingUpdate: { partition: 0 },
          type: 'RollingUpdate',
        },
        volumeClaimTemplates: spec.volumeClaimTemplates.map((t: any) => ({
          apiVersion: 'v1',
          kind: 'PersistentVolumeClaim',
          metadata: { name: t.metadata.name },
          spec: {
            accessModes: ['ReadWriteOnce'],
            resources: { requests: { storage: '10Gi' } },
            storageClassName: 'standard-rwo',
            volumeMode: 'Filesystem',
          },
          status: { phase: 'Pending' },
        })),
      };
      const fullStatus = {
        availableReplicas: spec.replicas,
        collisionCount: 0,
        currentReplicas: status.currentReplicas,
        currentRevision: status.currentRevision,
        observedGeneration: status.observedGeneration,
        readyReplicas: status.readyReplicas,
        replicas: spec.replicas,
        updateRevision: status.updateRevision,
        updatedReplicas: spec.replicas,
      };
      const apply = applied(
        'StatefulSet',
        { spec: fullSpec },
        { generation: lean.generation as number },
      );
      return {
        ...identity,
        metadata: metadata(apply.fields, [
          apply.manager,
          statusManager('kube-controller-manager', 'apps/v1', fullStatus),
        ]),
        spec: fullSpec,
        status: fullStatus,
      };
    }
    case 'PersistentVolumeClaim': {
      const volumeName = `pvc-${uuidOf(index)}`;
      const annotations = {
        'pv.kubernetes.io/bind-completed': 'yes',
        'pv.kubernetes.io/bound-by-controller': 'yes',
        'volume.beta.kubernetes.io/storage-provisioner':
          'pd.csi.storage.gke.io',
        'volume.kubernetes.io/selected-node': `gke-prod-eu-pool-1-${hex(
          index % 7,
          8,
        )}-${hex(index % 7, 4)}`,
        'volume.kubernetes.io/storage-provisioner': 'pd.csi.storage.gke.io',
      };
      const labels = { ...recommended, app: `${app}-db` };
      const fullSpec = {
        accessModes: ['ReadWriteOnce'],
        resources: { requests: { storage: '10Gi' } },
        storageClassName: 'standard-rwo',
        volumeMode: 'Filesystem',
        volumeName,
      };
      const fullStatus = {
        accessModes: ['ReadWriteOnce'],
        capacity: { storage: '10Gi' },
        phase: status.phase,
      };
      return {
        ...identity,
        metadata: metadata(
          {
            labels,
            annotations,
            finalizers: ['kubernetes.io/pvc-protection'],
          },
          [
            managed('kube-controller-manager', 'Update', 'v1', {
              metadata: { annotations, labels },
              spec: fullSpec,
            }),
            managed('kube-scheduler', 'Update', 'v1', {
              metadata: {
                annotations: {
                  'volume.kubernetes.io/selected-node':
                    annotations['volume.kubernetes.io/selected-node'],
                },
              },
            }),
            statusManager('kube-controller-manager', 'v1', fullStatus),
          ],
        ),
        spec: fullSpec,
        status: fullStatus,
      };
    }
    default:
      // The Flux Kustomization: its inventory is already most of it.
      return {
        ...object,
        metadata: metadata(
          { generation: 3, finalizers: ['finalizers.fluxcd.io'] },
          [
            managed(
              'kustomize-controller',
              'Update',
              object.apiVersion as string,
              {
                status: { conditions: status.conditions, inventory: {} },
              },
              'status',
            ),
          ],
        ),
        spec: {
          force: false,
          interval: '10m0s',
          path: `./deploy/${namespace}/production`,
          prune: true,
          sourceRef: { kind: 'GitRepository', name: namespace },
          timeout: '5m0s',
        },
        status: {
          ...status,
          conditions: status.conditions.map((c: any) => ({
            ...c,
            lastTransitionTime: STARTED,
            message:
              'Applied revision: main@sha1:4d9c2e1f7a3b5c6d8e9f0a1b2c3d4e5f6a7b8c9d',
            observedGeneration: 3,
          })),
          lastAppliedRevision:
            'main@sha1:4d9c2e1f7a3b5c6d8e9f0a1b2c3d4e5f6a7b8c9d',
          lastAttemptedRevision:
            'main@sha1:4d9c2e1f7a3b5c6d8e9f0a1b2c3d4e5f6a7b8c9d',
          observedGeneration: 3,
        },
      };
  }
}

/** As reading/objects.ts hands an object to the engine: without managedFields and the last-applied copy. */
function normalize(item: Record<string, any>): KubernetesObject {
  const { managedFields: _managed, ...metadata } = item.metadata;
  if (metadata.annotations && LAST_APPLIED in metadata.annotations) {
    const { [LAST_APPLIED]: _lastApplied, ...annotations } =
      metadata.annotations;
    metadata.annotations = annotations;
  }
  return { ...item, apiVersion: item.apiVersion, kind: item.kind, metadata };
}

/** An environment of about `size` objects as a cluster serves it and as the engine gets it. */
export function environmentAsServed(size: number): ServedEnvironment {
  const lean = generateEnvironment(size);
  const uids: Uids = { owners: new Map(), services: new Map() };
  lean.forEach(({ kind, metadata }, index) => {
    if (kind === 'Service')
      uids.services.set(
        `${metadata!.namespace}/${metadata!.name}`,
        uuidOf(index),
      );
    else if (['Deployment', 'ReplicaSet', 'StatefulSet'].includes(kind!))
      uids.owners.set(metadata!.uid, uuidOf(index));
  });
  const served = JSON.stringify(
    lean.map((object, index) => dress(object, index, uids)),
  );
  const objects = (JSON.parse(served) as Record<string, any>[]).map(normalize);
  return { served, objects, normalized: JSON.stringify(objects) };
}

/** The lean generated environment the golden graphs use, parsed from JSON. */
export function leanEnvironment(size: number): KubernetesObject[] {
  return JSON.parse(JSON.stringify(generateEnvironment(size)));
}
