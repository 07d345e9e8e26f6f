import { computeHealth } from '../computeHealth';
import { condition, manifest } from '../testing/objects';

/** A CloudNativePG cluster: a custom resource no rule knows. */
const cluster = (spec: object, status?: object, generation = 1) =>
  manifest(
    'postgresql.cnpg.io/v1',
    'Cluster',
    { instances: 3, ...spec },
    status,
    { name: 'orders-db', generation },
  );

describe('any other custom resource', () => {
  it('follows a Ready condition', () => {
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
    ).toEqual({ status: 'Healthy', message: 'Cluster is Ready' });
    expect(
      computeHealth(
        cluster(
          {},
          { conditions: [condition('Ready', 'False', 'ClusterIsNotReady')] },
        ),
      ),
    ).toEqual({ status: 'Degraded', message: 'ClusterIsNotReady' });
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
    ).toEqual({ status: 'Progressing', message: 'Creating primary' });
  });
  it('falls back to an Available condition', () => {
    expect(
      computeHealth(
        cluster(
          {},
          {
            conditions: [
              condition('Available', 'True', 'MinimumReplicasAvailable'),
            ],
          },
        ),
      ),
    ).toEqual({ status: 'Healthy' });
  });
  it('waits for the controller to observe the latest generation', () => {
    expect(
      computeHealth(
        cluster(
          {},
          { observedGeneration: 1, conditions: [condition('Ready', 'True')] },
          2,
        ),
      ),
    ).toEqual({
      status: 'Progressing',
      message: 'Waiting for the controller to observe the latest generation',
    });
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
    ).toEqual({ status: 'Degraded', message: 'invalid spec' });
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
    ).toEqual({ status: 'Progressing', message: 'Progressing' });
  });
  it('is suspended when spec.suspend is set', () => {
    expect(computeHealth(cluster({ suspend: true }))).toEqual({
      status: 'Suspended',
      message: 'Cluster is suspended',
    });
  });
  it('carries no health when nothing tells', () => {
    expect(computeHealth(cluster({}))).toBeUndefined();
    expect(
      computeHealth(
        cluster({}, { phase: 'Cluster in healthy state', instances: 3 }),
      ),
    ).toBeUndefined();
  });
});
