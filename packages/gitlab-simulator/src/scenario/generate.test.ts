import {
  benchEnvironmentNames,
  DEMO_TOKEN,
  generateScenario,
  scenarioCatalogEntities,
} from './generate';
import { graphql, kasJson, useSimulator } from '../testing/harness';

describe('generateScenario', () => {
  it('builds N projects x M environments x K objects', () => {
    const scenario = generateScenario({
      projects: 12,
      environmentsPerProject: 4,
      objectsPerEnvironment: 20,
    });
    const apps = scenario.projects.filter(p =>
      p.fullPath.startsWith('bench/project-'),
    );
    expect(apps).toHaveLength(12);
    expect(apps[0].environments.map(e => e.name)).toEqual([
      'production',
      'staging',
      'review/feature-1',
      'review/feature-2',
    ]);
    const objects = scenario.clusters[0].objects;
    const namespaced = objects.filter(
      o => o.metadata.namespace === 'project-3-review-feature-1',
    );
    expect(namespaced).toHaveLength(20);
    expect(objects.filter(o => o.kind === 'Namespace')).toHaveLength(
      12 * 4 + 2,
    );
    expect(scenario.tokens[0].token).toBe(DEMO_TOKEN);
  });

  it('is reproducible for a seed', () => {
    const uids = (seed: number) =>
      generateScenario({
        projects: 2,
        environmentsPerProject: 2,
        objectsPerEnvironment: 12,
        seed,
      }).clusters[0].objects.map(o => o.metadata.uid);
    expect(uids(7)).toEqual(uids(7));
  });

  it('names environments production, staging, then review apps', () => {
    expect(benchEnvironmentNames(3)).toEqual([
      'production',
      'staging',
      'review/feature-1',
    ]);
  });

  it('derives a catalog with one component per project', () => {
    const scenario = generateScenario({
      projects: 3,
      environmentsPerProject: 1,
      objectsPerEnvironment: 6,
    });
    expect(scenarioCatalogEntities(scenario)).toEqual(
      [1, 2, 3].map(i => ({
        apiVersion: 'backstage.io/v1alpha1',
        kind: 'Component',
        metadata: {
          name: `project-${i}`,
          title: `project-${i}`,
          annotations: {
            'gitlab.com/project-slug': `bench/project-${i}`,
            'gitlab.com/instance': 'gitlab.example.com',
          },
        },
        spec: {
          type: 'service',
          lifecycle: 'production',
          owner: 'team-platform',
        },
      })),
    );
  });

  describe('served', () => {
    const sim = useSimulator({
      scenario: generateScenario({
        projects: 5,
        environmentsPerProject: 3,
        objectsPerEnvironment: 12,
      }),
    });

    it('answers GraphQL and KAS for the generated world', async () => {
      const { body } = await graphql(
        sim(),
        '{ project(fullPath: "bench/project-4") { environments { nodes { name kubernetesNamespace clusterAgent { id } } } } }',
      );
      expect(body.data.project.environments.nodes).toEqual([
        {
          name: 'production',
          kubernetesNamespace: 'project-4-production',
          clusterAgent: { id: 'gid://gitlab/Clusters::Agent/1' },
        },
        {
          name: 'staging',
          kubernetesNamespace: 'project-4-staging',
          clusterAgent: { id: 'gid://gitlab/Clusters::Agent/1' },
        },
        {
          name: 'review/feature-1',
          kubernetesNamespace: 'project-4-review-feature-1',
          clusterAgent: { id: 'gid://gitlab/Clusters::Agent/1' },
        },
      ]);
      const pods = await kasJson(
        sim(),
        1,
        '/api/v1/namespaces/project-4-staging/pods',
      );
      expect(pods.body.items).toHaveLength(2);
    });
  });
});

it('generates 300 projects x 4 environments quickly (printed, not asserted)', () => {
  const started = Date.now();
  const scenario = generateScenario({
    projects: 300,
    environmentsPerProject: 4,
    objectsPerEnvironment: 20,
  });
  const objects = scenario.clusters[0].objects.length;
  // eslint-disable-next-line no-console
  console.log(
    `generateScenario 300x4x20: ${objects} objects in ${
      Date.now() - started
    } ms`,
  );
  expect(objects).toBeGreaterThan(24_000);
});
