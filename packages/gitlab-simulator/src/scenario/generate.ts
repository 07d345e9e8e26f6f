import { expandCluster } from '../cluster/expand';
import { attachRepositories, toDeployments } from './deployments';
import {
  DeploymentTier,
  KubeObject,
  Scenario,
  ScenarioEnvironment,
  ScenarioProject,
} from './types';

/** Synthetic scenarios for benchmarks: N projects x M environments x K objects, built in memory. */

export interface GenerateOptions {
  projects: number;
  environmentsPerProject: number;
  /** Objects per environment namespace (after expansion, excluding the Namespace itself). */
  objectsPerEnvironment: number;
  /** Varies image tags and which apps are unhealthy; same seed, same scenario. */
  seed?: number;
}

/** The token the demo portal and the benchmarks use (user `backstage-bot`, scopes read_api + k8s_proxy). */
export const DEMO_TOKEN = 'glpat-demo-backstage-bot';

export const BENCH_AGENT = 'bench-agent';

const TIERS: Record<string, DeploymentTier> = {
  production: 'production',
  staging: 'staging',
};

export function benchEnvironmentNames(count: number): string[] {
  const fixed = ['production', 'staging'];
  return Array.from(
    { length: count },
    (_, i) => fixed[i] ?? `review/feature-${i - fixed.length + 1}`,
  );
}

function namespaceFor(project: number, env: string): string {
  return `project-${project}-${env.replace(/[^a-z0-9]+/g, '-')}`;
}

/** An app is a Deployment (+ReplicaSet +Pod) and its Service (+EndpointSlice +Endpoints): 6 objects. */
function appManifests(
  namespace: string,
  name: string,
  tag: string,
  crashloop: boolean,
): KubeObject[] {
  const labels = {
    'app.kubernetes.io/name': name,
    'app.kubernetes.io/part-of': namespace,
  };
  return [
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name,
        namespace,
        labels,
        ...(crashloop
          ? { annotations: { 'simulator.gitlab-env/state': 'crashloop' } }
          : {}),
      },
      spec: {
        replicas: 1,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: {
            containers: [
              {
                name,
                image: `registry.example.com/bench/${name}:${tag}`,
                ports: [{ containerPort: 8080, name: 'http' }],
              },
            ],
          },
        },
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name, namespace, labels },
      spec: {
        selector: labels,
        ports: [{ name: 'http', port: 80, targetPort: 'http' }],
      },
    },
  ];
}

function namespaceManifests(
  namespace: string,
  count: number,
  seed: number,
  index: number,
): KubeObject[] {
  const manifests: KubeObject[] = [];
  let remaining = count;
  let app = 0;
  while (remaining >= 6) {
    app += 1;
    const crashloop = (index * 31 + app * 7 + seed) % 23 === 0;
    manifests.push(
      ...appManifests(
        namespace,
        `app-${app}`,
        `1.${(seed + app) % 10}.${index % 7}`,
        crashloop,
      ),
    );
    remaining -= 6;
  }
  for (let i = 0; i < remaining; i++) {
    manifests.push({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `config-${i + 1}`, namespace },
      data: { key: `value-${i}` },
    });
  }
  return manifests;
}

export function generateScenario(options: GenerateOptions): Scenario {
  const seed = options.seed ?? 1;
  const now = new Date();
  const envNames = benchEnvironmentNames(options.environmentsPerProject);
  const manifests: KubeObject[] = [];
  const projects: ScenarioProject[] = [];
  for (let p = 1; p <= options.projects; p++) {
    const environments: ScenarioEnvironment[] = envNames.map((name, e) => {
      const namespace = namespaceFor(p, name);
      manifests.push(
        ...namespaceManifests(
          namespace,
          options.objectsPerEnvironment,
          seed,
          p * 10 + e,
        ),
      );
      const id = p * 100 + e + 1;
      const at = new Date(now.getTime() - (e + 1) * 3600e3).toISOString();
      return {
        id,
        name,
        tier: TIERS[name] ?? 'development',
        state: 'available',
        kubernetesNamespace: namespace,
        agent: BENCH_AGENT,
        createdAt: at,
        updatedAt: at,
        deployments: toDeployments(
          [
            {
              iid: e + 1,
              ref: 'main',
              sha: `${seed}`.padEnd(40, 'a'),
              age: `${e + 1}h`,
            },
          ],
          { name },
          now,
        ),
      };
    });
    projects.push({
      id: 1000 + p,
      fullPath: `bench/project-${p}`,
      name: `project-${p}`,
      visibility: 'private',
      defaultBranch: 'main',
      environments,
      files: {},
      repository: { commits: new Map(), branches: {}, tags: {} },
      mergeRequests: [],
    });
  }
  const agentConfig = {
    user_access: { access_as: { agent: {} }, groups: [{ id: 'bench' }] },
  };
  projects.push({
    id: 999,
    fullPath: 'bench/infra',
    name: 'infra',
    visibility: 'private',
    defaultBranch: 'main',
    environments: [],
    files: {
      [`.gitlab/agents/${BENCH_AGENT}/config.yaml`]:
        'user_access:\n  access_as:\n    agent: {}\n  groups:\n    - id: bench\n',
    },
    repository: { commits: new Map(), branches: {}, tags: {} },
    mergeRequests: [],
  });
  attachRepositories(projects, () => undefined, now);
  return {
    name: `generated-${options.projects}x${options.environmentsPerProject}x${options.objectsPerEnvironment}`,
    instance: {
      host: 'gitlab.example.com',
      version: '17.11.1-ee',
      revision: 'bench',
      kasVersion: '17.11.1',
    },
    users: [{ id: 2, username: 'backstage-bot', name: 'Backstage Bot' }],
    tokens: [
      {
        token: DEMO_TOKEN,
        username: 'backstage-bot',
        scopes: ['read_api', 'k8s_proxy'],
        name: 'backstage',
      },
    ],
    groups: [
      { id: 900, fullPath: 'bench', name: 'bench', visibility: 'private' },
    ],
    memberships: [
      { username: 'backstage-bot', path: 'bench', role: 'developer' },
    ],
    projects,
    agents: [
      {
        id: 1,
        name: BENCH_AGENT,
        configProject: 'bench/infra',
        config: agentConfig,
        connected: true,
        configReportedAt: now.toISOString(),
        createdAt: now.toISOString(),
        forbiddenResources: [],
      },
    ],
    clusters: [
      {
        agent: BENCH_AGENT,
        kubernetesVersion: 'v1.31.4',
        objects: expandCluster(manifests, {
          cluster: BENCH_AGENT,
          now,
          events: false,
        }),
      },
    ],
  };
}

/** Backstage Component entities, one per project with environments, for a catalog of the scenario. */
export function scenarioCatalogEntities(scenario: Scenario) {
  const withEnvironments = scenario.projects.filter(
    p => p.environments.length > 0,
  );
  const lastSegments = withEnvironments.map(p => p.fullPath.split('/').pop()!);
  return withEnvironments.map((project, i) => {
    const last = lastSegments[i];
    const unique = lastSegments.filter(s => s === last).length === 1;
    return {
      apiVersion: 'backstage.io/v1alpha1',
      kind: 'Component',
      metadata: {
        name: (unique ? last : project.fullPath.replace(/\//g, '-'))
          .toLowerCase()
          .replace(/[^a-z0-9-_.]/g, '-'),
        title: project.name,
        annotations: {
          'gitlab.com/project-slug': project.fullPath,
          'gitlab.com/instance': scenario.instance.host,
        },
      },
      spec: {
        type: 'service',
        lifecycle: 'production',
        owner: 'team-platform',
      },
    };
  });
}
