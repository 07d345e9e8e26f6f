import { KubernetesObject } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { GitlabEnvFailure } from '../errors';
import { containerToRead, logRequest, readLogsQuery } from './podLogs';

const pod: KubernetesObject = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web-1', namespace: 'prod' },
  spec: {
    initContainers: [{ name: 'migrate' }],
    containers: [{ name: 'web' }, { name: 'sidecar' }],
    ephemeralContainers: [{ name: 'debugger-x1' }],
  },
};
const limits = { maxTailLines: 5000, maxBytes: 1024 };

function codeOf(fn: () => unknown) {
  try {
    fn();
  } catch (error) {
    return (error as GitlabEnvFailure).detail.code;
  }
  return undefined;
}

describe('pod logs', () => {
  it('reads any container of the pod: regular, init or ephemeral', () => {
    expect(containerToRead(pod, 'migrate')).toBe('migrate');
    expect(containerToRead(pod, 'debugger-x1')).toBe('debugger-x1');
    expect(codeOf(() => containerToRead(pod, 'other'))).toBe(
      'LOGS_UNAVAILABLE',
    );
  });

  it('picks what kubectl picks without a container: the default-container annotation, else the first', () => {
    expect(containerToRead(pod, undefined)).toBe('web');
    expect(
      containerToRead(
        {
          ...pod,
          metadata: {
            ...pod.metadata,
            annotations: {
              'kubectl.kubernetes.io/default-container': 'sidecar',
            },
          },
        },
        undefined,
      ),
    ).toBe('sidecar');
  });

  it('caps the tail, asks limitBytes, and passes since, previous, timestamps and follow', () => {
    const capped = logRequest(pod, { pod: 'web-1', follow: true }, limits);
    expect(capped).toMatchObject({
      capped: true,
      tailLines: 5000,
      container: 'web',
    });
    expect(capped.path).toBe(
      '/api/v1/namespaces/prod/pods/web-1/log?container=web&tailLines=5000&follow=true',
    );
    const asked = logRequest(
      pod,
      {
        pod: 'web-1',
        container: 'migrate',
        tailLines: 20,
        sinceSeconds: 60,
        previous: true,
        timestamps: true,
      },
      limits,
    );
    expect(asked.capped).toBe(false);
    expect(asked.path).toBe(
      '/api/v1/namespaces/prod/pods/web-1/log?container=migrate&tailLines=20&limitBytes=1024&sinceSeconds=60&previous=true&timestamps=true',
    );
    expect(
      logRequest(pod, { pod: 'web-1', tailLines: 9000 }, limits).capped,
    ).toBe(true);
  });

  it('refuses query values that break their grammar', () => {
    expect(
      readLogsQuery({ pod: 'web-1', tailLines: '10', follow: 'true' }),
    ).toMatchObject({
      pod: 'web-1',
      tailLines: 10,
      follow: true,
    });
    for (const query of [
      { pod: '../x' },
      { pod: 'web-1', container: 'A/B' },
      { pod: 'web-1', tailLines: '1e3' },
      { pod: 'web-1', sinceSeconds: '0' },
      { pod: 'web-1', follow: 'yes' },
      { pod: 'web-1', namespace: 'kube system' },
      {},
    ])
      expect(codeOf(() => readLogsQuery(query))).toBe('INVALID_REQUEST');
  });
});
