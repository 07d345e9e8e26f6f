import { mockServices } from '@backstage/backend-test-utils';
import { Entity } from '@backstage/catalog-model';
import {
  ENVIRONMENT_ACTIONS,
  parseFluxResourcePath,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import {
  environmentSlug,
  KubeObject,
  loadHostileScenario,
  RunningSimulator,
  Scenario,
} from '@gitlab-env/gitlab-simulator';
import fc from 'fast-check';
import request from 'supertest';
import {
  component,
  ownedComponent,
  startBackendOnSimulator,
  startTestSimulator,
} from './__testUtils__/backendOnSimulator';
import { DEFAULT_PLATFORM_NAMESPACES } from './config';

/**
 * The property of #23: whatever an entity, environment, object and action
 * a request names, no request the backend sends upstream reaches an object
 * or a repository outside what the entity owns. The oracle below states the
 * rule from the scenario's data alone (GitLab's environment settings, the
 * GitLabDeployments, the catalog's claims), not from the backend's code; it
 * is looser than the backend (it ignores markers), so the property is that
 * the backend never does more than the rule allows.
 */

const scenario = loadHostileScenario();

interface Claim {
  entity: Entity;
  /** The project whose environments the entity shows. */
  project: string;
  verified: boolean;
}

const claims: Claim[] = [
  ...[
    'acme/shop/storefront',
    'acme/shop/checkout-api',
    'acme/platform/search-indexer',
    'acme/shop/rogue',
  ].map(project => ({
    entity: ownedComponent(project.split('/').pop()!, project),
    project,
    verified: true,
  })),
  {
    // Claims storefront's project from rogue's repository.
    entity: component('impostor', {
      'gitlab.com/project-slug': 'acme/shop/storefront',
      'backstage.io/managed-by-location':
        'url:https://gitlab.example.com/acme/shop/rogue/-/blob/main/catalog-info.yaml',
    }),
    project: 'acme/shop/storefront',
    verified: false,
  },
];

const projectOf = (path: string) =>
  scenario.projects.find(p => p.fullPath === path)!;

const isPlatform = (namespace: string) =>
  DEFAULT_PLATFORM_NAMESPACES.some(p =>
    p.endsWith('*') ? namespace.startsWith(p.slice(0, -1)) : namespace === p,
  );

/** The GitLabDeployments of an agent's cluster: the namespace each gives, to whom. */
function deploymentsOf(agent: string, world: Scenario) {
  return world.clusters
    .find(c => c.agent === agent)!
    .objects.filter(o => o.kind === 'GitLabDeployment')
    .map(o => ({
      environment: o.spec?.environment as string | undefined,
      namespace: o.spec?.namespace ?? o.metadata.name,
      projects: (o.spec?.projects ?? []) as string[],
      groups: (o.spec?.groups ?? []) as string[],
    }));
}

/**
 * The namespace an environment owns by the rule: GitLab's setting (else a
 * GitLabDeployment made for it), not a platform namespace, given to no other project by a GitLabDeployment and
 * claimed by no other project's running environment on the same agent
 * (unless a GitLabDeployment gives it to this project).
 */
function ownedNamespace(project: string, environmentName: string) {
  const environment = projectOf(project).environments.find(
    e => e.name === environmentName,
  )!;
  if (!environment.agent) return undefined;
  const deployments = deploymentsOf(environment.agent, scenario);
  const serves = (d: (typeof deployments)[number]) =>
    d.projects.includes(project) ||
    d.groups.some(g => project.startsWith(`${g}/`));
  // GitLab's setting, else the GitLabDeployment made for this environment.
  const namespace =
    environment.kubernetesNamespace ??
    deployments.find(d => d.environment === environmentName && serves(d))
      ?.namespace;
  if (!namespace || isPlatform(namespace)) return undefined;
  const given = deployments.filter(d => d.namespace === namespace);
  if (given.length > 0) return given.some(serves) ? namespace : undefined;
  const contested = scenario.projects.some(
    p =>
      p.fullPath !== project &&
      p.environments.some(
        e =>
          e.state !== 'stopped' &&
          e.agent === environment.agent &&
          e.kubernetesNamespace === namespace,
      ),
  );
  return contested ? undefined : namespace;
}

/** Objects an action may name: every actionable kind of every cluster, and made-up ones. */
const ACTIONABLE: Record<string, string> = {
  Pod: 'v1',
  Deployment: 'apps/v1',
  StatefulSet: 'apps/v1',
  DaemonSet: 'apps/v1',
  Kustomization: 'kustomize.toolkit.fluxcd.io/v1',
  HelmRelease: 'helm.toolkit.fluxcd.io/v2',
  GitRepository: 'source.toolkit.fluxcd.io/v1',
  HelmRepository: 'source.toolkit.fluxcd.io/v1',
  HelmChart: 'source.toolkit.fluxcd.io/v1',
};
const PLURALS: Record<string, string> = {
  pods: 'Pod',
  deployments: 'Deployment',
  statefulsets: 'StatefulSet',
  daemonsets: 'DaemonSet',
  replicasets: 'ReplicaSet',
  kustomizations: 'Kustomization',
  helmreleases: 'HelmRelease',
  gitrepositories: 'GitRepository',
  helmrepositories: 'HelmRepository',
  helmcharts: 'HelmChart',
  buckets: 'Bucket',
  ocirepositories: 'OCIRepository',
};
const objectsOf = (agent?: string) =>
  scenario.clusters
    .filter(c => !agent || c.agent === agent)
    .flatMap(c =>
      c.objects
        .filter((o: KubeObject) => ACTIONABLE[o.kind] && o.metadata.namespace)
        .map((o: KubeObject) => ({
          apiVersion: ACTIONABLE[o.kind],
          kind: o.kind,
          namespace: o.metadata.namespace!,
          name: o.metadata.name,
        })),
    );

type ScenarioEnvironment = Scenario['projects'][number]['environments'][number];

/** The objects of the environment's namespace, of its cluster's Flux, of its root's inventory. */
function shownBy(environment: ScenarioEnvironment) {
  const objects = objectsOf(environment.agent);
  const root = environment.fluxResourcePath
    ? parseFluxResourcePath(environment.fluxResourcePath)
    : undefined;
  const rootObject = scenario.clusters
    .find(c => c.agent === environment.agent)
    ?.objects.find(
      o =>
        root &&
        o.kind === root.kind &&
        o.metadata.namespace === root.namespace &&
        o.metadata.name === root.name,
    );
  const inventory = new Set(
    (rootObject?.status?.inventory?.entries ?? []).map((e: any) => {
      const [namespace, name] = String(e.id).split('_');
      return `${namespace}/${name}`;
    }),
  );
  const pick = (keep: (o: (typeof objects)[number]) => boolean) => {
    const kept = objects.filter(keep);
    return kept.length > 0 ? kept : objectsOf();
  };
  return {
    own: pick(o => o.namespace === environment.kubernetesNamespace),
    flux: pick(
      o => o.namespace === 'flux-system' && o.apiVersion.includes('fluxcd.io'),
    ),
    inventory: pick(o => inventory.has(`${o.namespace}/${o.name}`)),
  };
}

/** Mostly what the environment shows; also any object of any cluster, and made-up ones. */
const targetArb = (environment: ScenarioEnvironment) => {
  const shown = shownBy(environment);
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...shown.own) },
    { weight: 2, arbitrary: fc.constantFrom(...shown.flux) },
    { weight: 1, arbitrary: fc.constantFrom(...shown.inventory) },
    { weight: 1, arbitrary: fc.constantFrom(...objectsOf()) },
    {
      weight: 1,
      arbitrary: fc.record({
        apiVersion: fc.constantFrom(...Object.values(ACTIONABLE)),
        kind: fc.constantFrom(...Object.keys(ACTIONABLE)),
        namespace: fc.constantFrom(
          'storefront',
          'checkout',
          'rogue',
          'gitlab-agent',
          'flux-system',
          'kube-system',
        ),
        name: fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/),
      }),
    },
  );
};

const environmentsOf = (claim: Claim) =>
  projectOf(claim.project).environments.filter(
    e => e.state !== 'stopped' && e.agent,
  );

const callArb = fc.constantFrom(...claims).chain(claim =>
  fc.constantFrom(...environmentsOf(claim)).chain(environment =>
    fc.record({
      claim: fc.constant(claim),
      environment: fc.constant(environment),
      kind: fc.constantFrom(
        ...ENVIRONMENT_ACTIONS,
        'logs' as const,
        'allowed' as const,
        'desired' as const,
      ),
      target: targetArb(environment),
      replicas: fc.integer({ min: 0, max: 3 }),
      withSource: fc.boolean(),
      follow: fc.boolean(),
    }),
  ),
);

/** A repository file read (`METHOD path`) is of the entity's own project, and only when its claim is verified. */
function repositoryIsOwned(claim: Claim, key: string): boolean {
  const files = /\/api\/v4\/projects\/([^/]+)\/repository\/files\//.exec(key);
  if (!files) return true;
  return claim.verified && decodeURIComponent(files[1]) === claim.project;
}

type FluxPath = ReturnType<typeof parseFluxResourcePath>;

/**
 * A write through KAS (`METHOD path`) is to the owned namespace, or to the
 * Flux object the settings name (or a HelmRelease's own HelmChart); a
 * SelfSubjectAccessReview changes nothing.
 */
function writeIsOwned(
  key: string,
  namespace: string | undefined,
  root: FluxPath | undefined,
): boolean {
  const [method, path] = key.split(' ');
  const kas = /\/k8s-proxy(\/.*)$/.exec(path)?.[1];
  if (!kas || method === 'GET' || kas.includes('selfsubjectaccessreviews'))
    return true;
  const [, ns, plural, name] =
    /\/namespaces\/([^/]+)\/([^/]+)\/([^/]+)/.exec(kas) ?? [];
  if (namespace === undefined || !PLURALS[plural]) return false;
  const isRoot =
    !!root &&
    root.namespace === ns &&
    root.plural === plural &&
    root.name === name;
  const isRootChart =
    !!root &&
    root.kind === 'HelmRelease' &&
    plural === 'helmcharts' &&
    ns === root.namespace &&
    name === `${root.namespace}-${root.name}`;
  return ns === namespace || isRoot || isRootChart;
}

/** A log read through KAS is of a pod of the owned namespace. */
function logIsOwned(key: string, namespace: string | undefined): boolean {
  if (!key.endsWith('/log')) return true;
  const [, ns] = /\/namespaces\/([^/]+)\/pods\//.exec(key) ?? [];
  return namespace !== undefined && ns === namespace;
}

describe('ownership, as a property of every upstream request', () => {
  let simulator: RunningSimulator;
  let server: any;

  beforeAll(async () => {
    simulator = await startTestSimulator({
      scenario: loadHostileScenario(),
    });
    const backend = await startBackendOnSimulator(simulator, {
      entities: claims.map(c => c.entity),
      gitlabEnv: {
        requestTimeoutMs: 5000,
        actions: { logs: { maxFollowSeconds: 1 } },
      },
      features: [mockServices.permissions.factory()],
    });
    server = backend.server;
  });
  afterAll(() => simulator.close());

  it('never reaches KAS or GitLab for an object or repository the entity does not own', async () => {
    let acted = 0;
    await fc.assert(
      fc.asyncProperty(callArb, async call => {
        const { claim, target, environment } = call;
        const base = `/api/gitlab-env/entity/default/component/${
          claim.entity.metadata.name
        }/environments/${environmentSlug(environment.name)}`;
        simulator.resetStats();
        let response;
        if (call.kind === 'logs')
          response = await request(server)
            .get(`${base}/logs`)
            .query({
              pod: target.name,
              namespace: target.namespace,
              ...(call.follow && { follow: 'true' }),
            })
            .timeout(10_000)
            .catch(e => e.response);
        else if (call.kind === 'allowed')
          response = await request(server)
            .post(`${base}/actions/allowed`)
            .send({ targets: [target] });
        else if (call.kind === 'desired')
          response = await request(server).get(`${base}/desired`);
        else
          response = await request(server).post(`${base}/actions`).send({
            action: call.kind,
            target,
            replicas: call.replicas,
            withSource: call.withSource,
          });
        if (
          response?.status === 200 &&
          (ENVIRONMENT_ACTIONS as readonly string[]).includes(call.kind)
        )
          acted++;

        const namespace = claim.verified
          ? ownedNamespace(claim.project, environment.name)
          : undefined;
        const root = environment.fluxResourcePath
          ? parseFluxResourcePath(environment.fluxResourcePath)
          : undefined;
        const outside = Object.keys(simulator.stats().byPath).filter(
          key =>
            !writeIsOwned(key, namespace, root) ||
            !logIsOwned(key, namespace) ||
            !repositoryIsOwned(claim, key),
        );
        expect(outside).toEqual([]);
      }),
      { numRuns: 150, seed: 23 },
    );
    // The property was tried on writes that reached the cluster, not only on refusals.
    expect(acted).toBeGreaterThan(0);
  }, 180_000);

  it('reads repositories for no other project, for every entity and environment', async () => {
    let compared = 0;
    for (const claim of claims)
      for (const environment of environmentsOf(claim)) {
        simulator.resetStats();
        const response = await request(server).get(
          `/api/gitlab-env/entity/default/component/${
            claim.entity.metadata.name
          }/environments/${environmentSlug(environment.name)}/desired`,
        );
        if (response.body.desired?.source) compared++;
        expect(
          Object.keys(simulator.stats().byPath).filter(
            key => !repositoryIsOwned(claim, key),
          ),
        ).toEqual([]);
      }
    // Some comparisons were made: the check saw reads, not only refusals.
    expect(compared).toBeGreaterThan(0);
  }, 60_000);
});
