import { Entity } from '@backstage/catalog-model';
import {
  DeploymentTier,
  EnvironmentResourcesResponse,
  OverviewHealthLine,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { GitlabEnvFailure } from '../errors';
import { HealthRead } from './healthReadOrder';
import { HealthReads, readsByAgent } from './healthByAgent';

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

const options = {
  concurrency: 1,
  signal: new AbortController().signal,
  stopped: () => false,
};

/** A gathering whose close is recorded. */
function gathering() {
  const close = jest.fn();
  return { close, gatherReads: () => ({ close }) };
}

describe('HealthReads', () => {
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
    const health = new HealthReads(
      { readAhead, getEnvironmentResources, ...gathering() },
      line => written.push(line),
      options,
    );
    health.add([
      read('edge-a', '5', 'production'),
      read('edge-b', '5', 'production'),
      read('production', '1', 'production'),
      read('staging', '3', 'staging'),
      read('review', '3'),
    ]);
    const reading = health.finish();
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
    expect(getEnvironmentResources.mock.calls.map(([, slug]) => slug)).toEqual([
      'review',
    ]);
    expect(
      await Promise.race([reading.then(() => 'done'), Promise.resolve('open')]),
    ).toBe('open');
  });

  it("writes a failed answer as the row's error", async () => {
    const written: OverviewHealthLine[] = [];
    const health = new HealthReads(
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
        ...gathering(),
      },
      line => written.push(line),
      options,
    );
    health.add([read('production', '1', 'production')]);
    await health.finish();
    expect(written).toEqual([
      expect.objectContaining({
        environmentId: 'production',
        errors: [expect.objectContaining({ code: 'AGENT_NOT_CONNECTED' })],
      }),
    ]);
  });

  it('reads each batch as it is added, in one gathering closed once every batch is in', async () => {
    const written: OverviewHealthLine[] = [];
    const { close, gatherReads } = gathering();
    const gatherings: unknown[] = [];
    const readAhead = jest.fn(
      async (group: HealthRead[], used?: { gathering?: unknown }) => {
        gatherings.push(used?.gathering);
        return group.map(() => Promise.resolve(healthy));
      },
    );
    const health = new HealthReads(
      {
        readAhead,
        getEnvironmentResources: () => Promise.reject(new Error('not asked')),
        gatherReads,
      },
      line => written.push(line),
      options,
    );
    health.add([read('production', '1', 'production')]);
    await new Promise(resolve => setImmediate(resolve));
    // The first entity's row is read and written before the next is listed.
    expect(written.map(l => l.environmentId)).toEqual(['production']);
    expect(close).not.toHaveBeenCalled();
    health.add([read('staging', '1', 'staging'), read('review', '3')]);
    await health.finish();
    expect(close).toHaveBeenCalledTimes(1);
    expect(written.map(l => l.environmentId).sort()).toEqual([
      'production',
      'review',
      'staging',
    ]);
    expect(readAhead).toHaveBeenCalledTimes(3);
    expect(new Set(gatherings).size).toBe(1);
    expect(gatherings[0]).toBeDefined();
  });

  it('writes an UPSTREAM_TIMEOUT line for a row still read when the stream reaches its deadline', async () => {
    const written: OverviewHealthLine[] = [];
    const deadline = new AbortController();
    const health = new HealthReads(
      {
        // Started ahead, never settles.
        readAhead: async group =>
          group.map(({ environment }) => answerOf(environment.slug)),
        getEnvironmentResources: () => Promise.reject(new Error('not asked')),
        ...gathering(),
      },
      line => written.push(line),
      { ...options, signal: deadline.signal },
    );
    health.add([read('edge-a', '5', 'production'), read('production', '1')]);
    const finished = health.finish();
    await new Promise(resolve => setImmediate(resolve));
    deadline.abort();
    await finished;
    expect(
      written.map(l => [l.environmentId, l.errors.map(e => e.code)]),
    ).toEqual([
      ['production', []],
      ['edge-a', ['UPSTREAM_TIMEOUT']],
    ]);
  });
});
