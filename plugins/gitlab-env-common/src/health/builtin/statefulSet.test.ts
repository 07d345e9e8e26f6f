import { KubernetesObject } from '../../types';
import { computeHealth } from '../computeHealth';
import { meta } from '../__testUtils__/objects';

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
