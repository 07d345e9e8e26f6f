import { LiveMessage } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import {
  environmentSlug,
  RunningSimulator,
} from '@gitlab-env/gitlab-simulator';
import { AddressInfo } from 'net';
import {
  storefrontComponent,
  startBackendOnSimulator,
  startTestSimulator,
} from '../__testUtils__/backendOnSimulator';
import { openLiveStream, ReceivedEvent } from '../__testUtils__/liveStream';
import {
  stagingRelease,
  STOREFRONT_ENTITY_PATH,
  storefrontWeb,
} from '../__testUtils__/storefrontTargets';

jest.setTimeout(20_000);

const STAGING = 'component:default/storefront/staging';

function upserted(kind: string, name: string) {
  return (e: ReceivedEvent) => {
    const message = e.message as LiveMessage;
    return (
      message.type === 'patch' &&
      message.patch.objectsUpserted.some(
        o => o.kind === kind && o.metadata?.name === name,
      )
    );
  };
}

describe('a write refreshes the live stream at once', () => {
  let simulator: RunningSimulator;

  beforeAll(async () => {
    simulator = await startTestSimulator();
  });
  afterAll(() => simulator.close());

  it('shows a scaled Deployment and a suspended HelmRelease long before their next poll', async () => {
    // One watch per agent (pods take it): Deployments and the Flux object
    // are polled every 10 minutes, so only the refresh can show the writes.
    const { server } = await startBackendOnSimulator(simulator, {
      entities: [storefrontComponent()],
      gitlabEnv: {
        requestTimeoutMs: 5000,
        live: { maxWatchesPerAgent: 1, pollIntervalSeconds: 600 },
      },
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const stream = await openLiveStream(url, [STAGING]);
    try {
      await stream.next(e => e.message.type === 'snapshot');
      const act = (body: object) =>
        fetch(
          `${url}${STOREFRONT_ENTITY_PATH}/environments/${environmentSlug(
            'staging',
          )}/actions`,
          {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          },
        );

      let from = stream.events.length;
      expect(
        (
          await act({
            action: 'workload.scale',
            target: { ...storefrontWeb, namespace: 'storefront-staging' },
            replicas: 4,
          })
        ).status,
      ).toBe(200);
      const scaled = await stream.next(
        upserted('Deployment', 'storefront-web'),
        {
          from,
          timeoutMs: 5000,
        },
      );
      const deployment = (scaled.message as any).patch.objectsUpserted.find(
        (o: any) => o.kind === 'Deployment',
      );
      expect(deployment.spec.replicas).toBe(4);

      from = stream.events.length;
      expect(
        (await act({ action: 'flux.suspend', target: stagingRelease })).status,
      ).toBe(200);
      const suspended = await stream.next(
        upserted('HelmRelease', 'storefront-staging'),
        { from, timeoutMs: 5000 },
      );
      expect(
        (suspended.message as any).patch.objectsUpserted.find(
          (o: any) => o.kind === 'HelmRelease',
        ).spec.suspend,
      ).toBe(true);
    } finally {
      await stream.close();
    }
  });
});
