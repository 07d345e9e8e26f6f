import { Entity } from '@backstage/catalog-model';
import {
  DeploymentTier,
  EnvironmentResourcesResponse,
  OverviewHealthLine,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
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

describe('readHealthByAgent', () => {
  it("writes every other agent's lines while one agent's reads never settle", async () => {
    const written: OverviewHealthLine[] = [];
    const readAhead = jest.fn(async () => undefined);
    const service = {
      readAhead,
      getEnvironmentResources: (_: Entity, slug: string) =>
        slug.startsWith('edge')
          ? new Promise<EnvironmentResourcesResponse>(() => undefined)
          : Promise.resolve({
              health: { status: 'Healthy', total: 1 },
              errors: [],
            } as unknown as EnvironmentResourcesResponse),
    };
    const reading = readHealthByAgent(
      service,
      [
        read('edge-a', '5', 'production'),
        read('edge-b', '5', 'production'),
        read('production', '1', 'production'),
        read('staging', '3', 'staging'),
        read('review', '3'),
      ],
      line => written.push(line),
      // One read at a time per agent: edge's first read holds edge's second only.
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
    expect(readAhead).toHaveBeenCalledTimes(3);
    expect(
      await Promise.race([reading.then(() => 'done'), Promise.resolve('open')]),
    ).toBe('open');
  });
});
