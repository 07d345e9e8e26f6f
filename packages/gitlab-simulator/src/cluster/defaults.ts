import { KubeObject } from '../scenario/types';

/**
 * The API server's defaulting of workload specs (`pkg/apis/apps/v1/defaults.go`):
 * clients such as `kubectl rollout status` rely on these fields being set.
 */
export function withWorkloadDefaults(object: KubeObject): KubeObject {
  const spec = object.spec ?? {};
  switch (object.kind) {
    case 'Deployment':
      return {
        ...object,
        spec: {
          replicas: 1,
          revisionHistoryLimit: 10,
          progressDeadlineSeconds: 600,
          strategy: {
            type: 'RollingUpdate',
            rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' },
          },
          ...spec,
        },
      };
    case 'ReplicaSet':
      return { ...object, spec: { replicas: 1, ...spec } };
    case 'StatefulSet':
      return {
        ...object,
        spec: {
          replicas: 1,
          podManagementPolicy: 'OrderedReady',
          revisionHistoryLimit: 10,
          updateStrategy: {
            type: 'RollingUpdate',
            rollingUpdate: { partition: 0 },
          },
          persistentVolumeClaimRetentionPolicy: {
            whenDeleted: 'Retain',
            whenScaled: 'Retain',
          },
          ...spec,
        },
      };
    case 'DaemonSet':
      return {
        ...object,
        spec: {
          revisionHistoryLimit: 10,
          updateStrategy: {
            type: 'RollingUpdate',
            rollingUpdate: { maxSurge: 0, maxUnavailable: 1 },
          },
          ...spec,
        },
      };
    default:
      return object;
  }
}
