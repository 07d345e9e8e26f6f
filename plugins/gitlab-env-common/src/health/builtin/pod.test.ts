import { KubernetesObject } from '../../types';
import { computeHealth } from '../computeHealth';
import { meta } from '../__testUtils__/objects';

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

describe('the ignore-restart-policy annotation', () => {
  const running = (annotations: Record<string, string>) =>
    computeHealth({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'migrate', namespace: 'shop', annotations },
      spec: { restartPolicy: 'Never' },
      status: {
        phase: 'Running',
        conditions: [{ type: 'Ready', status: 'True' }],
      },
    })?.status;

  it('makes a run-to-completion pod long-running, unless it is a sync hook', () => {
    const ignore = { 'argocd.argoproj.io/ignore-restart-policy': 'true' };
    expect(running(ignore)).toBe('Healthy');
    expect(running({ ...ignore, 'argocd.argoproj.io/hook': 'PreSync' })).toBe(
      'Progressing',
    );
    expect(running({ ...ignore, 'helm.sh/hook': 'pre-install' })).toBe(
      'Progressing',
    );
    // Neither Skip nor a CRD install is a hook that runs.
    expect(running({ ...ignore, 'argocd.argoproj.io/hook': 'Skip' })).toBe(
      'Healthy',
    );
    expect(running({ ...ignore, 'helm.sh/hook': 'crd-install' })).toBe(
      'Healthy',
    );
  });
});
