import { computeHealth } from '../computeHealth';
import { condition, manifest } from '../__testUtils__/objects';

/** A database cluster of an operator no rule knows. */
const cluster = (spec: object, status?: object, generation = 1) =>
  manifest(
    'databases.example.com/v1',
    'Cluster',
    { instances: 3, ...spec },
    status,
    { name: 'orders-db', generation },
  );

const generic = (status: string, message?: string) =>
  message === undefined
    ? { status, origin: 'generic' }
    : { status, message, origin: 'generic' };

describe('any other custom resource (generic rule)', () => {
  it('follows a Ready condition, marked as the generic rule', () => {
    expect(
      computeHealth(
        cluster(
          {},
          {
            observedGeneration: 1,
            conditions: [
              condition('Ready', 'True', 'ClusterIsReady', 'Cluster is Ready'),
            ],
          },
        ),
      ),
    ).toEqual(generic('Healthy', 'Cluster is Ready'));
    expect(
      computeHealth(
        cluster(
          {},
          { conditions: [condition('Ready', 'False', 'ClusterIsNotReady')] },
        ),
      ),
    ).toEqual(generic('Degraded', 'ClusterIsNotReady'));
    expect(
      computeHealth(
        cluster(
          {},
          {
            conditions: [
              condition('Ready', 'Unknown', 'Progressing', 'Creating primary'),
            ],
          },
        ),
      ),
    ).toEqual(generic('Progressing', 'Creating primary'));
  });

  it('reads the other summary conditions when there is no Ready', () => {
    const withCondition = (
      type: string,
      status: 'True' | 'False' | 'Unknown',
    ) =>
      computeHealth(cluster({}, { conditions: [condition(type, status, 'R')] }))
        ?.status;
    for (const type of [
      'Succeeded',
      'Available',
      'Synced',
      'Established',
      'Healthy',
    ]) {
      expect(withCondition(type, 'True')).toBe('Healthy');
      expect(withCondition(type, 'False')).toBe('Degraded');
      expect(withCondition(type, 'Unknown')).toBe('Progressing');
    }
  });

  it('prefers Ready over the other summary conditions', () => {
    expect(
      computeHealth(
        cluster(
          {},
          {
            conditions: [
              condition('Synced', 'True'),
              condition('Ready', 'False', 'BucketAlreadyExists', 'name taken'),
            ],
          },
        ),
      ),
    ).toEqual(generic('Degraded', 'name taken'));
  });

  it('reads a False summary condition whose reason or severity says "on its way" as Progressing', () => {
    const notReady = (extra: object) =>
      computeHealth(
        cluster(
          {},
          { conditions: [{ type: 'Ready', status: 'False', ...extra }] },
        ),
      )?.status;
    expect(notReady({ reason: 'Creating' })).toBe('Progressing');
    expect(
      notReady({ reason: 'WaitingForBootstrapData', severity: 'Info' }),
    ).toBe('Progressing');
    expect(notReady({ reason: 'ReconcileInProgress' })).toBe('Progressing');
    expect(notReady({ reason: 'AuthorizationFailed', severity: 'Error' })).toBe(
      'Degraded',
    );
  });

  it('covers custom resources in groups under k8s.io, which are not Kubernetes’ own', () => {
    expect(
      computeHealth(
        manifest(
          'scheduling.sigs.k8s.io/v1alpha1',
          'PodGroup',
          {},
          {
            conditions: [condition('Ready', 'True')],
          },
        ),
      ),
    ).toEqual(generic('Healthy'));
    expect(
      computeHealth(
        manifest('rbac.authorization.k8s.io/v1', 'Role', {}, { x: 1 }),
      ),
    ).toBeUndefined();
  });

  it('waits for the controller to observe the latest generation', () => {
    const expected = generic(
      'Progressing',
      'Waiting for the controller to observe generation 2',
    );
    expect(
      computeHealth(
        cluster(
          {},
          { observedGeneration: 1, conditions: [condition('Ready', 'True')] },
          2,
        ),
      ),
    ).toEqual(expected);
    expect(
      computeHealth(
        cluster(
          {},
          {
            conditions: [
              { ...condition('Ready', 'True'), observedGeneration: 1 },
            ],
          },
          2,
        ),
      ),
    ).toEqual(expected);
  });

  it('reads kstatus Stalled and Reconciling before Ready', () => {
    expect(
      computeHealth(
        cluster(
          {},
          {
            conditions: [
              condition('Ready', 'True'),
              condition('Stalled', 'True', 'InvalidSpec', 'invalid spec'),
            ],
          },
        ),
      ),
    ).toEqual(generic('Degraded', 'invalid spec'));
    expect(
      computeHealth(
        cluster(
          {},
          {
            conditions: [
              condition('Ready', 'False'),
              condition('Reconciling', 'True', 'Progressing'),
            ],
          },
        ),
      ),
    ).toEqual(generic('Progressing', 'Progressing'));
  });

  it('reads an operator-style Degraded condition before Available', () => {
    expect(
      computeHealth(
        cluster(
          {},
          {
            conditions: [
              condition('Available', 'True'),
              condition('Degraded', 'True', 'SyncFailed', 'cannot sync'),
            ],
          },
        ),
      ),
    ).toEqual(generic('Degraded', 'cannot sync'));
  });

  it('maps well-known phases and nothing else', () => {
    const phase = (value: string) =>
      computeHealth(cluster({}, { phase: value }));
    expect(phase('Running')).toEqual(generic('Healthy', 'Phase Running'));
    expect(phase('Provisioning')).toEqual(
      generic('Progressing', 'Phase Provisioning'),
    );
    expect(phase('Failed')).toEqual(generic('Degraded', 'Phase Failed'));
    expect(phase('Cluster in healthy state')).toEqual(
      generic(
        'Unknown',
        "No health rule for Cluster, and its phase 'Cluster in healthy state' is not one the generic rule knows. Add a rule in gitlabEnv.health.rules to assess it.",
      ),
    );
  });

  it('is Unknown with the reason when the status says nothing it can read', () => {
    expect(
      computeHealth(
        cluster({}, { conditions: [condition('BackupSucceeded', 'True')] }),
      ),
    ).toEqual(
      generic(
        'Unknown',
        'No health rule for Cluster, and its conditions (BackupSucceeded) are none the generic rule reads. Add a rule in gitlabEnv.health.rules to assess it.',
      ),
    );
    expect(computeHealth(cluster({}, { instances: 3 }))?.status).toBe(
      'Unknown',
    );
  });

  it('is suspended when spec.suspend or spec.paused is set', () => {
    expect(computeHealth(cluster({ suspend: true }))).toEqual(
      generic('Suspended', 'Cluster is suspended'),
    );
    expect(computeHealth(cluster({ paused: true }))?.status).toBe('Suspended');
  });

  it('carries no health without a status, like a ConfigMap', () => {
    expect(computeHealth(cluster({}))).toBeUndefined();
    expect(computeHealth(cluster({}, {}))).toBeUndefined();
  });

  it('reads a Gateway API policy from its ancestors (policy attachment)', () => {
    const policy = (ancestors: object[], generation = 2) =>
      computeHealth(
        manifest(
          'gateway.networking.k8s.io/v1alpha2',
          'BackendLBPolicy',
          { targetRefs: [{ kind: 'Service', name: 'web' }] },
          { ancestors },
          { generation },
        ),
      );
    const ancestor = (
      name: string,
      status: string,
      observedGeneration = 2,
      reason = 'Accepted',
    ) => ({
      ancestorRef: { kind: 'Gateway', name },
      controllerName: 'example.io/gateway',
      conditions: [
        {
          type: 'Accepted',
          status,
          reason,
          message: `${reason} by ${name}`,
          observedGeneration,
        },
      ],
    });
    expect(policy([ancestor('main', 'True')])).toEqual(
      generic('Healthy', 'BackendLBPolicy is accepted'),
    );
    expect(
      policy([
        ancestor('main', 'True'),
        ancestor('edge', 'False', 2, 'Conflicted'),
      ]),
    ).toEqual(generic('Degraded', 'Ancestor edge: Conflicted by edge'));
    expect(policy([ancestor('main', 'True', 1)])).toEqual(
      generic('Progressing', 'Waiting for ancestors to accept BackendLBPolicy'),
    );
  });
});
