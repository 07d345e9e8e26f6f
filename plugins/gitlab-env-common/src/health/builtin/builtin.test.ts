import { KubernetesObject } from '../../types';
import { computeHealth } from '../computeHealth';

const meta = (name: string, extra: object = {}) => ({
  name,
  namespace: 'shop',
  uid: `uid-${name}`,
  ...extra,
});

function deployment(
  spec: object,
  status: object,
  generation = 2,
): KubernetesObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta('web', { generation }),
    spec: { replicas: 3, ...spec },
    status: {
      observedGeneration: 2,
      replicas: 3,
      updatedReplicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      ...status,
    },
  };
}

describe('Deployment', () => {
  it.each([
    ['healthy', deployment({}, {}), { status: 'Healthy' }],
    [
      'paused',
      deployment({ paused: true }, {}),
      { status: 'Suspended', message: 'Deployment is paused' },
    ],
    [
      'generation not observed',
      deployment({}, {}, 3),
      {
        status: 'Progressing',
        message:
          'Waiting for rollout to finish: observed deployment generation less than desired generation',
      },
    ],
    [
      'progress deadline exceeded',
      deployment(
        {},
        {
          updatedReplicas: 1,
          conditions: [
            {
              type: 'Progressing',
              status: 'False',
              reason: 'ProgressDeadlineExceeded',
            },
          ],
        },
      ),
      {
        status: 'Degraded',
        message: 'Deployment "web" exceeded its progress deadline',
      },
    ],
    [
      'rolling out',
      deployment({}, { updatedReplicas: 1 }),
      {
        status: 'Progressing',
        message:
          'Waiting for rollout to finish: 1 out of 3 new replicas have been updated...',
      },
    ],
    [
      'old replicas terminating',
      deployment({}, { replicas: 4 }),
      {
        status: 'Progressing',
        message:
          'Waiting for rollout to finish: 1 old replicas are pending termination...',
      },
    ],
    [
      'not yet available',
      deployment({}, { availableReplicas: 2 }),
      {
        status: 'Progressing',
        message:
          'Waiting for rollout to finish: 2 of 3 updated replicas are available...',
      },
    ],
  ])('%s', (_name, object, expected) => {
    expect(computeHealth(object)).toEqual(expected);
  });
});

describe('StatefulSet', () => {
  const sts = (spec: object, status: object): KubernetesObject => ({
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: meta('db', { generation: 1 }),
    spec: { replicas: 3, updateStrategy: { type: 'RollingUpdate' }, ...spec },
    status: {
      observedGeneration: 1,
      replicas: 3,
      readyReplicas: 3,
      currentReplicas: 3,
      updatedReplicas: 3,
      currentRevision: 'db-7d',
      updateRevision: 'db-7d',
      ...status,
    },
  });
  it('is healthy when the rolling update completed', () => {
    expect(computeHealth(sts({}, {}))).toEqual({
      status: 'Healthy',
      message:
        'statefulset rolling update complete 3 pods at revision db-7d...',
    });
  });
  it('waits for pods to be ready', () => {
    expect(computeHealth(sts({}, { readyReplicas: 1 }))).toEqual({
      status: 'Progressing',
      message: 'Waiting for 2 pods to be ready...',
    });
  });
  it('follows a partitioned roll out', () => {
    const partitioned = sts(
      {
        updateStrategy: {
          type: 'RollingUpdate',
          rollingUpdate: { partition: 1 },
        },
      },
      { updatedReplicas: 1 },
    );
    expect(computeHealth(partitioned)).toEqual({
      status: 'Progressing',
      message:
        'Waiting for partitioned roll out to finish: 1 out of 2 new pods have been updated...',
    });
  });
  it('reports OnDelete as healthy with its ready pods', () => {
    expect(
      computeHealth(
        sts(
          { updateStrategy: { type: 'OnDelete' } },
          { updateRevision: 'db-8e' },
        ),
      ),
    ).toEqual({
      status: 'Healthy',
      message: 'statefulset has 3 ready pods',
    });
  });
});

describe('Pod', () => {
  const pod = (
    restartPolicy: string | undefined,
    status: object,
  ): KubernetesObject => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: meta('web-5d8f-abcde'),
    spec: { restartPolicy, containers: [{ name: 'app', image: 'shop:1' }] },
    status,
  });
  it('is degraded by CrashLoopBackOff even while Running', () => {
    const crashing = pod('Always', {
      phase: 'Running',
      containerStatuses: [
        {
          name: 'app',
          ready: false,
          restartCount: 12,
          state: {
            waiting: {
              reason: 'CrashLoopBackOff',
              message:
                'back-off 5m0s restarting failed container=app pod=web-5d8f-abcde_shop',
            },
          },
          lastState: { terminated: { exitCode: 1, reason: 'Error' } },
        },
      ],
    });
    expect(computeHealth(crashing)).toEqual({
      status: 'Degraded',
      message:
        'back-off 5m0s restarting failed container=app pod=web-5d8f-abcde_shop',
    });
  });
  it('is degraded by ImagePullBackOff', () => {
    const pulling = pod('Always', {
      phase: 'Pending',
      containerStatuses: [
        {
          name: 'app',
          state: {
            waiting: {
              reason: 'ImagePullBackOff',
              message: 'Back-off pulling image "shop:404"',
            },
          },
        },
      ],
    });
    expect(computeHealth(pulling)).toEqual({
      status: 'Degraded',
      message: 'Back-off pulling image "shop:404"',
    });
  });
  it('is healthy when ready, progressing when not yet', () => {
    expect(
      computeHealth(
        pod('Always', {
          phase: 'Running',
          conditions: [{ type: 'Ready', status: 'True' }],
        }),
      ),
    ).toEqual({ status: 'Healthy' });
    expect(
      computeHealth(
        pod('Always', {
          phase: 'Running',
          conditions: [{ type: 'Ready', status: 'False' }],
        }),
      ),
    ).toEqual({ status: 'Progressing' });
  });
  it('never calls a running run-to-completion pod healthy', () => {
    expect(
      computeHealth(
        pod('Never', {
          phase: 'Running',
          conditions: [{ type: 'Ready', status: 'True' }],
        }),
      ),
    ).toEqual({ status: 'Progressing' });
    expect(computeHealth(pod(undefined, { phase: 'Running' }))).toEqual({
      status: 'Unknown',
    });
  });
  it('explains a failed pod by its container', () => {
    expect(
      computeHealth(
        pod('Never', {
          phase: 'Failed',
          containerStatuses: [
            { name: 'migrate', state: { terminated: { exitCode: 2 } } },
          ],
        }),
      ),
    ).toEqual({
      status: 'Degraded',
      message: 'container "migrate" failed with exit code 2',
    });
    expect(
      computeHealth(
        pod('Never', {
          phase: 'Failed',
          containerStatuses: [
            {
              name: 'app',
              state: { terminated: { exitCode: 137, reason: 'OOMKilled' } },
            },
          ],
        }),
      ),
    ).toEqual({ status: 'Degraded', message: 'OOMKilled' });
  });
});

describe('Services, ingresses, claims', () => {
  it('waits for a LoadBalancer address', () => {
    const svc = (status: object): KubernetesObject => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: meta('web'),
      spec: { type: 'LoadBalancer' },
      status,
    });
    expect(computeHealth(svc({ loadBalancer: {} }))).toEqual({
      status: 'Progressing',
    });
    expect(
      computeHealth(
        svc({ loadBalancer: { ingress: [{ ip: '203.0.113.7' }] } }),
      ),
    ).toEqual({ status: 'Healthy' });
  });
  it('reads an Ingress address and a claim phase', () => {
    expect(
      computeHealth({
        apiVersion: 'networking.k8s.io/v1',
        kind: 'Ingress',
        metadata: meta('web'),
        status: { loadBalancer: {} },
      }),
    ).toEqual({ status: 'Progressing' });
    expect(
      computeHealth({
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: meta('data'),
        status: { phase: 'Lost' },
      }),
    ).toEqual({ status: 'Degraded' });
  });
});

describe('Jobs and CronJobs', () => {
  it('reads Job conditions', () => {
    const job = (conditions: object[]): KubernetesObject => ({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: meta('reindex'),
      status: { conditions },
    });
    expect(computeHealth(job([]))).toEqual({ status: 'Progressing' });
    expect(
      computeHealth(
        job([
          {
            type: 'Failed',
            status: 'True',
            message: 'Job has reached the specified backoff limit',
          },
        ]),
      ),
    ).toEqual({
      status: 'Degraded',
      message: 'Job has reached the specified backoff limit',
    });
    expect(
      computeHealth(
        job([{ type: 'Suspended', status: 'True', message: 'Job suspended' }]),
      ),
    ).toEqual({ status: 'Suspended', message: 'Job suspended' });
  });
  it('keeps a suspended CronJob healthy, as ArgoCD does', () => {
    const cron = (spec: object, status?: object): KubernetesObject => ({
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: meta('nightly'),
      spec,
      status,
    });
    expect(computeHealth(cron({ suspend: true }))).toEqual({
      status: 'Healthy',
      message: 'CronJob is Suspended',
    });
    expect(
      computeHealth(
        cron(
          {},
          {
            lastScheduleTime: '2026-11-22T02:00:00Z',
            lastSuccessfulTime: '2026-11-21T02:04:00Z',
          },
        ),
      ),
    ).toEqual({
      status: 'Degraded',
      message: 'CronJob has not completed its last execution successfully',
    });
  });
});

describe('HorizontalPodAutoscaler', () => {
  it('is degraded when it cannot read metrics', () => {
    expect(
      computeHealth({
        apiVersion: 'autoscaling/v2',
        kind: 'HorizontalPodAutoscaler',
        metadata: meta('web'),
        status: {
          conditions: [
            {
              type: 'AbleToScale',
              status: 'True',
              reason: 'SucceededGetScale',
              message:
                "the HPA controller was able to get the target's current scale",
            },
            {
              type: 'ScalingActive',
              status: 'False',
              reason: 'FailedGetResourceMetric',
              message: 'unable to get metrics for resource cpu',
            },
          ],
        },
      }),
    ).toEqual({
      status: 'Degraded',
      message: 'unable to get metrics for resource cpu',
    });
  });
  it('waits to autoscale without conditions', () => {
    expect(
      computeHealth({
        apiVersion: 'autoscaling/v1',
        kind: 'HorizontalPodAutoscaler',
        metadata: meta('web'),
      }),
    ).toEqual({
      status: 'Progressing',
      message: 'Waiting to Autoscale',
    });
  });
});

describe('pipeline', () => {
  it('reports pending deletion before any rule', () => {
    expect(
      computeHealth({
        ...deployment({ paused: true }, {}),
        metadata: meta('web', { deletionTimestamp: '2026-11-22T10:00:00Z' }),
      }),
    ).toEqual({
      status: 'Progressing',
      message: 'Pending deletion',
    });
  });
  it('gives no health to kinds that carry none', () => {
    for (const kind of ['ConfigMap', 'Secret', 'ServiceAccount', 'Endpoints']) {
      expect(
        computeHealth({ apiVersion: 'v1', kind, metadata: meta('x') }),
      ).toBeUndefined();
    }
    expect(
      computeHealth({
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'Role',
        metadata: meta('x'),
      }),
    ).toBeUndefined();
  });
  it('dispatches on group and kind, not kind alone', () => {
    expect(
      computeHealth({
        apiVersion: 'example.com/v1',
        kind: 'Deployment',
        metadata: meta('x'),
        spec: { paused: true },
      }),
    ).toBeUndefined();
  });
});
