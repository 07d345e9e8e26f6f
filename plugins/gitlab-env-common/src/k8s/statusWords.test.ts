import { statusWords } from './statusWords';

describe('statusWords', () => {
  it('speaks kubectl for workloads, pods and services', () => {
    expect(
      statusWords({
        kind: 'Deployment',
        spec: { replicas: 3 },
        status: { readyReplicas: 2 },
      }),
    ).toEqual(['2/3 ready']);
    expect(
      statusWords({
        kind: 'Pod',
        status: {
          phase: 'Running',
          containerStatuses: [
            { ready: true, restartCount: 1 },
            { ready: false, restartCount: 0 },
          ],
        },
      }),
    ).toEqual(['Running', '1/2 ready', '1 restart']);
    expect(
      statusWords({
        kind: 'Pod',
        status: {
          phase: 'Running',
          containerStatuses: [
            {
              ready: false,
              restartCount: 4,
              state: { waiting: { reason: 'CrashLoopBackOff' } },
            },
          ],
        },
      }),
    ).toEqual(['CrashLoopBackOff', '0/1 ready', '4 restarts']);
    expect(
      statusWords({
        kind: 'Service',
        spec: { type: 'LoadBalancer', ports: [{ port: 443 }] },
      }),
    ).toEqual(['LoadBalancer', '443/TCP']);
    expect(
      statusWords({
        kind: 'Kustomization',
        status: {
          conditions: [
            { type: 'Ready', status: 'False', reason: 'BuildFailed' },
          ],
        },
      }),
    ).toEqual(['BuildFailed']);
  });

  it('survives objects of the wrong shape', () => {
    expect(
      statusWords({ kind: 'Pod', status: { containerStatuses: 'x' } }),
    ).toEqual(['Pending']);
    expect(
      statusWords({
        kind: 'Service',
        spec: { ports: [{ port: { toString: 'no' } }, null] },
      }),
    ).toEqual(['ClusterIP', '?/TCP, ?/TCP']);
    expect(statusWords({ kind: 'Ingress', spec: { rules: [null, 7] } })).toEqual(
      [],
    );
    expect(statusWords(undefined)).toEqual(['not in cluster']);
  });
});
