import { Entity } from '@backstage/catalog-model';
import {
  DeploymentTier,
  EnvironmentResourcesResponse,
  OverviewHealthLine,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { GitlabEnvFailure } from '../errors';
import { HealthRead } from './healthReadOrder';
import { readHealthByAgent, readsByAgent } from './healthByAgent';

const entity: Entity = {
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: { name: 'search-indexer', namespace: 'default' },
};

function read(
  name: string,
  agent: string,
  tier: DeploymentTier = 'development',
  instance = 'gitlab.example.com',
): HealthRead {
  return {
    entity,
    instance,
    environment: {
      id: name,
      name,
      slug: name,
      tier,
      state: 'available',
      agent: { id: agent, name: `agent-${agent}` },
      namespace: name,
    },
  };
}

describe('readsByAgent', () => {
  it('groups by instance and agent, production first within each', () => {
    const groups = readsByAgent([
      read('review/a', '3'),
      read('production', '1', 'production'),
      read('staging', '3', 'staging'),
      read('other-instance', '3', 'testing', 'gitlab.other.com'),
      read('development', '5'),
    ]);
    expect(groups.map(g => g.map(r => r.environment.name))).toEqual([
      ['production'],
      ['staging', 'review/a'],
      ['other-instance'],
      ['development'],
    ]);
  });
});

const healthy = {
  health: { status: 'Healthy', total: 1 },
  errors: [],
} as unknown as EnvironmentResourcesResponse;

/** edge's reads never settle; the others are healthy. */
const answerOf = (slug: string) =>
  slug.startsWith('edge')
    ? new Promise<EnvironmentResourcesResponse>(() => undefined)
    : Promise.resolve(healthy);

describe('readHealthByAgent', () => {
  it("writes every other agent's lines while one agent's reads never settle", async () => {
    const written: OverviewHealthLine[] = [];
    // The read-ahead takes every row but `review` (as one it could not locate).
    const readAhead = jest.fn(async (group: HealthRead[]) =>
      group.map(({ environment }) =>
        environment.slug === 'review' ? undefined : answerOf(environment.slug),
      ),
    );
    const getEnvironmentResources = jest.fn((_: Entity, slug: string) =>
      answerOf(slug),
    );
    const reading = readHealthByAgent(
      { readAhead, getEnvironmentResources },
      [
        read('edge-a', '5', 'production'),
        read('edge-b', '5', 'production'),
        read('production', '1', 'production'),
        read('staging', '3', 'staging'),
        read('review', '3'),
      ],
      line => written.push(line),
      {
        concurrency: 1,
        signal: new AbortController().signal,
        stopped: () => false,
      },
    );
    await new Promise(resolve => setImmediate(resolve));
    await new Promise(resolve => setImmediate(resolve));
    expect(written.map(l => l.environmentId).sort()).toEqual([
      'production',
      'review',
      'staging',
    ]);
    expect(written.every(l => l.health?.status === 'Healthy')).toBe(true);
    expect(readAhead).toHaveBeenCalledTimes(3);
    // Rows the read-ahead took are written from its answers, not read again.
    expect(getEnvironmentResources.mock.calls.map(([, slug]) => slug)).toEqual(
      ['review'],
    );
    expect(
      await Promise.race([reading.then(() => 'done'), Promise.resolve('open')]),
    ).toBe('open');
  });

  it("writes a failed answer as the row's error", async () => {
    const written: OverviewHealthLine[] = [];
    await readHealthByAgent(
      {
        readAhead: async group =>
          group.map(() =>
            Promise.reject(
              new GitlabEnvFailure({
                code: 'AGENT_NOT_CONNECTED',
                message: 'agentk is not connected',
              }),
            ),
          ),
        getEnvironmentResources: () => Promise.reject(new Error('not asked')),
      },
      [read('production', '1', 'production')],
      line => written.push(line),
      {
        concurrency: 1,
        signal: new AbortController().signal,
        stopped: () => false,
      },
    );
    expect(written).toEqual([
      expect.objectContaining({
        environmentId: 'production',
        errors: [expect.objectContaining({ code: 'AGENT_NOT_CONNECTED' })],
      }),
    ]);
  });
});
