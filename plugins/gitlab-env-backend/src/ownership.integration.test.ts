import { mockCredentials } from '@backstage/backend-test-utils';
import {
  ActionsAllowedResponse,
  EnvironmentDesiredStateResponse,
  EnvironmentResourcesResponse,
  gitlabEnvWorkloadRestartPermission,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import {
  environmentSlug,
  loadHostileScenario,
  RunningSimulator,
} from '@gitlab-env/gitlab-simulator';
import { AddressInfo } from 'net';
import request from 'supertest';
import {
  component,
  ownedComponent,
  startBackendOnSimulator,
  storefrontComponent,
  startTestSimulator,
} from './__testUtils__/backendOnSimulator';
import { permissionsDenying } from './__testUtils__/permissions';

/**
 * Each finding of #23 that ownership answers, against the hostile scenario
 * over real sockets: the refusal, typed with its reason, and the cluster
 * unchanged (no write reached KAS, the object as it was).
 */

const entities = [
  storefrontComponent(),
  ownedComponent('checkout-api', 'acme/shop/checkout-api'),
  ownedComponent('search-indexer', 'acme/platform/search-indexer'),
  ownedComponent('rogue', 'acme/shop/rogue'),
  // Claims storefront's project; registered from rogue's repository.
  component('impostor', {
    'gitlab.com/project-slug': 'acme/shop/storefront',
    'backstage.io/managed-by-location':
      'url:https://gitlab.example.com/acme/shop/rogue/-/blob/main/catalog-info.yaml',
  }),
];

const path = (entity: string, environment: string) =>
  `/api/gitlab-env/entity/default/component/${entity}/environments/${environmentSlug(
    environment,
  )}`;

const deployment = (namespace: string, name: string) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  namespace,
  name,
});
const kustomization = (name: string) => ({
  apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
  kind: 'Kustomization',
  namespace: 'flux-system',
  name,
});

describe('what an entity may act on, against the hostile scenario', () => {
  let simulator: RunningSimulator;
  let server: any;
  /** Permissions denied, as `<permission>|<entityRef>`. */
  const denied = new Set<string>();

  beforeAll(async () => {
    simulator = await startTestSimulator({
      scenario: loadHostileScenario(),
    });
    const permissions = permissionsDenying(
      denied,
      r => `${r.permission.name}|${r.resourceRef}`,
    );
    const backend = await startBackendOnSimulator(simulator, {
      entities,
      // GitLabDeployments are read again within a test.
      gitlabEnv: { requestTimeoutMs: 5000, cacheTtlSeconds: 0.5 },
      features: [permissions.factory],
    });
    server = backend.server;
  });
  afterAll(() => simulator.close());
  beforeEach(() => {
    denied.clear();
    simulator.resetStats();
  });

  const store = (agent: string) => simulator.cluster(agent).store;
  const find = (
    agent: string,
    kind: string,
    namespace: string,
    name: string,
  ): any =>
    store(agent)
      .all()
      .find(
        (o: any) =>
          o.kind === kind &&
          o.metadata.namespace === namespace &&
          o.metadata.name === name,
      );
  /** Requests that change the cluster (a SelfSubjectAccessReview changes nothing). */
  const kasWrites = () =>
    Object.keys(simulator.stats().byPath).filter(
      key =>
        /^(PATCH|DELETE|PUT|POST) .*\/k8s-proxy\//.test(key) &&
        !key.includes('selfsubjectaccessreviews'),
    );
  const logReads = () =>
    Object.keys(simulator.stats().byPath).filter(key => key.endsWith('/log'));
  const act = (entity: string, environment: string, body: object) =>
    request(server)
      .post(`${path(entity, environment)}/actions`)
      .send(body);
  const allowed = async (
    entity: string,
    environment: string,
    targets: object[],
  ) =>
    (
      await request(server)
        .post(`${path(entity, environment)}/actions/allowed`)
        .send({ targets })
        .expect(200)
    ).body as ActionsAllowedResponse;
  const resources = async (entity: string, environment: string) =>
    (
      await request(server)
        .get(`${path(entity, environment)}/resources`)
        .expect(200)
    ).body as EnvironmentResourcesResponse;

  /** Runs `refused`, then checks nothing was written and the object is as it was. */
  async function expectUnchanged(
    agent: string,
    object: { kind: string; namespace: string; name: string },
    refused: () => Promise<unknown>,
  ) {
    const before = structuredClone(
      find(agent, object.kind, object.namespace, object.name),
    );
    expect(before).toBeDefined();
    await refused();
    expect(kasWrites()).toEqual([]);
    expect(find(agent, object.kind, object.namespace, object.name)).toEqual(
      before,
    );
  }

  it('default scenario: checkout-api cannot suspend platform-infra, the Kustomization it only depends on; its own it can', async () => {
    const upstream = kustomization('platform-infra');
    await expectUnchanged('prod-us', upstream, async () => {
      const res = await act('checkout-api', 'production', {
        action: 'flux.suspend',
        target: upstream,
      }).expect(403);
      expect(res.body.gitlabEnv).toMatchObject({
        code: 'NOT_OWNED',
        message: expect.stringMatching(
          /Kustomization flux-system\/platform-infra is what Kustomization flux-system\/checkout-api depends on \(spec\.dependsOn\)/,
        ),
      });
      // Reconciling its own root with the source reconciles a GitRepository
      // of the shared flux-system too: refused before anything is written.
      const withSource = await act('checkout-api', 'production', {
        action: 'flux.reconcile',
        target: kustomization('checkout-api'),
        withSource: true,
      }).expect(403);
      expect(withSource.body.gitlabEnv.message).toMatch(
        /GitRepository flux-system\/checkout-api .*shared namespace flux-system/,
      );
    });
    // The page shows why: the node is marked, the allowed route says so.
    const read = await resources('checkout-api', 'production');
    const node = read.graph.nodes.find(n => n.name === 'platform-infra');
    expect(node?.readOnly).toMatch(/dependsOn/);
    expect(
      read.graph.nodes.find(
        n => n.kind === 'Kustomization' && n.name === 'checkout-api',
      )?.readOnly,
    ).toBeUndefined();
    const decisions = await allowed('checkout-api', 'production', [upstream]);
    expect(decisions.targets[0].decisions['flux.suspend']).toEqual({
      allowed: false,
      reason: expect.stringMatching(/depends on/),
    });
    // Its own root it may suspend and resume.
    await act('checkout-api', 'production', {
      action: 'flux.suspend',
      target: kustomization('checkout-api'),
    }).expect(200);
    await act('checkout-api', 'production', {
      action: 'flux.resume',
      target: kustomization('checkout-api'),
    }).expect(200);
    expect(
      find('prod-us', 'Kustomization', 'flux-system', 'checkout-api').spec
        .suspend,
    ).toBe(false);
  });

  it('an environment setting naming agentk’s namespace acts on nothing there, logs included', async () => {
    const agentk = find(
      'prod-us',
      'Deployment',
      'gitlab-agent',
      'gitlab-agent-v2',
    );
    const pod: any = store('prod-us')
      .all()
      .find(
        (o: any) => o.kind === 'Pod' && o.metadata.namespace === 'gitlab-agent',
      );
    await expectUnchanged(
      'prod-us',
      deployment('gitlab-agent', agentk.metadata.name),
      async () => {
        const res = await act('rogue', 'agent', {
          action: 'workload.restart',
          target: deployment('gitlab-agent', 'gitlab-agent-v2'),
        }).expect(403);
        expect(res.body.gitlabEnv.code).toBe('NOT_OWNED');
        expect(res.body.gitlabEnv.message).toMatch(
          /is the agent's own \(agentk\)|names namespace gitlab-agent, where the agent or the cluster's platform runs/,
        );
        const logs = await request(server)
          .get(`${path('rogue', 'agent')}/logs`)
          .query({ pod: pod.metadata.name })
          .expect(403);
        expect(logs.body.gitlabEnv.code).toBe('NOT_OWNED');
      },
    );
    expect(logReads()).toEqual([]);
  });

  it('a Flux inventory listing other teams’ objects does not make them the environment’s', async () => {
    const read = await resources('rogue', 'gitops');
    // Shown: the inventory named them, the reader read them.
    const names = read.resources.map(
      o => `${o.metadata?.namespace}/${o.metadata?.name}`,
    );
    expect(names).toEqual(
      expect.arrayContaining([
        'checkout-staging/checkout-api',
        'storefront-staging/storefront-web',
      ]),
    );
    for (const target of [
      deployment('checkout-staging', 'checkout-api'),
      deployment('storefront-staging', 'storefront-web'),
    ]) {
      await expectUnchanged('nonprod', target, async () => {
        const res = await act('rogue', 'gitops', {
          action: 'workload.scale',
          target,
          replicas: 0,
        }).expect(403);
        expect(res.body.gitlabEnv).toMatchObject({
          code: 'NOT_OWNED',
          message: expect.stringMatching(
            /outside the namespace this environment owns \(rogue\)/,
          ),
        });
      });
    }
    expect(
      read.graph.nodes.find(n => n.name === 'storefront-web')?.readOnly,
    ).toMatch(/outside the namespace this environment owns/);
    // What it does own, it may act on.
    await act('rogue', 'gitops', {
      action: 'workload.restart',
      target: deployment('rogue', 'rogue-web'),
    }).expect(200);
  });

  it('another team’s HelmRelease named as the environment’s Flux object is not its own', async () => {
    const release = {
      apiVersion: 'helm.toolkit.fluxcd.io/v2',
      kind: 'HelmRelease',
      namespace: 'flux-system',
      name: 'storefront-staging',
    };
    await expectUnchanged('nonprod', release, async () => {
      const res = await act('rogue', 'borrowed-release', {
        action: 'flux.suspend',
        target: release,
      }).expect(403);
      expect(res.body.gitlabEnv.message).toMatch(
        /deploys into storefront-staging, not into the environment's namespace rogue-helm/,
      );
    });
  });

  it('a namespace a GitLabDeployment gives another project is not the environment’s', async () => {
    const read = await resources('rogue', 'mapped');
    const target = read.resources.find(o => o.kind === 'Deployment')!;
    const key = deployment('search-staging', target.metadata!.name!);
    await expectUnchanged('nonprod', key, async () => {
      const res = await act('rogue', 'mapped', {
        action: 'workload.restart',
        target: key,
      }).expect(403);
      expect(res.body.gitlabEnv.message).toMatch(
        /GitLabDeployment search-indexer-staging gives namespace search-staging of agent nonprod to acme\/platform\/search-indexer, not to acme\/shop\/rogue/,
      );
    });
  });

  it('a second entity claiming another team’s project reads, but acts on nothing and reads no logs', async () => {
    denied.add(
      `${gitlabEnvWorkloadRestartPermission.name}|component:default/storefront`,
    );
    const web = deployment('storefront-staging', 'storefront-web');
    // Reads work: the claim decides only writes, logs and repositories.
    const read = await resources('impostor', 'staging');
    expect(read.resources.length).toBeGreaterThan(0);
    await expectUnchanged('nonprod', web, async () => {
      const res = await act('impostor', 'staging', {
        action: 'workload.restart',
        target: web,
      }).expect(403);
      expect(res.body.gitlabEnv).toMatchObject({
        code: 'CLAIM_UNVERIFIED',
        message: expect.stringContaining(
          'component:default/impostor claims the GitLab project acme/shop/storefront',
        ),
        hint: expect.stringContaining('gitlabEnv.ownership.claims'),
      });
      // The real entity is refused by the policy.
      const real = await act('storefront', 'staging', {
        action: 'workload.restart',
        target: web,
      }).expect(403);
      expect(real.body.gitlabEnv.code).toBe('NOT_ALLOWED');
      const pod = read.resources.find(o => o.kind === 'Pod')!;
      const logs = await request(server)
        .get(`${path('impostor', 'staging')}/logs`)
        .query({ pod: pod.metadata!.name! })
        .expect(403);
      expect(logs.body.gitlabEnv.code).toBe('CLAIM_UNVERIFIED');
    });
    expect(logReads()).toEqual([]);
    const decisions = await allowed('impostor', 'staging', [web]);
    expect(
      Object.values(decisions.targets[0].decisions).every(
        d =>
          d?.allowed === false && /claims the GitLab project/.test(d.reason!),
      ),
    ).toBe(true);
  });

  it('reads no repository the cluster names but the entity does not own, and redacts a v1beta1 Secret', async () => {
    const desired = (
      await request(server)
        .get(`${path('rogue', 'gitops')}/desired`)
        .expect(200)
    ).body as EnvironmentDesiredStateResponse;
    expect(desired.desired?.unavailable).toMatch(
      /names the repository acme\/secrets, which is neither this entity's project \(acme\/shop\/rogue\)/,
    );
    expect(JSON.stringify(desired)).not.toContain('s3cr3t-payments');
    expect(
      Object.keys(simulator.stats().byPath).filter(key =>
        key.includes(encodeURIComponent('acme/secrets')),
      ),
    ).toEqual([]);

    // Its own repository is read; the Secret whose manifest says v1beta1
    // is redacted in the comparison and in the read alike.
    const app = (
      await request(server)
        .get(`${path('rogue', 'app')}/desired`)
        .expect(200)
    ).body as EnvironmentDesiredStateResponse;
    expect(app.desired?.source?.project).toBe('acme/shop/rogue');
    const secret = app.desired?.objects.find(
      o => o.id === '/Secret/rogue-app/rogue-db',
    );
    expect(secret?.changes).toContainEqual(
      expect.objectContaining({
        path: 'stringData',
        desired: { password: '<redacted>' },
      }),
    );
    const read = await resources('rogue', 'app');
    for (const body of [JSON.stringify(app), JSON.stringify(read)]) {
      expect(body).not.toMatch(
        /repo-db-password-5521|live-db-password-8731|bGl2ZS1kYi1wYXNzd29yZC04NzMx/,
      );
    }
  });

  it('says the environment’s Flux object does not exist', async () => {
    const read = await resources('rogue', 'ghost');
    expect(read.errors).toContainEqual(
      expect.objectContaining({
        code: 'FLUX_OBJECT_MISSING',
        message: expect.stringContaining('Kustomization flux-system/ghost'),
      }),
    );
  });

  it('a connection that drops after a write was sent says the outcome is unknown, with the command to check', async () => {
    simulator.setFaults({
      errorRate: 1,
      errorKind: 'reset',
      faultMethods: ['PATCH'],
    });
    try {
      const res = await act('rogue', 'gitops', {
        action: 'workload.restart',
        target: deployment('rogue', 'rogue-web'),
      }).expect(502);
      expect(res.body.gitlabEnv).toMatchObject({
        code: 'WRITE_OUTCOME_UNKNOWN',
        hint: expect.stringContaining(
          'kubectl get deployment/rogue-web -n rogue -o yaml',
        ),
      });
      // Sent once, never again.
      expect(
        Object.entries(simulator.stats().byPath).filter(([key]) =>
          key.startsWith('PATCH '),
        ),
      ).toEqual([[expect.stringContaining('/deployments/rogue-web'), 1]]);
    } finally {
      simulator.setFaults({ errorRate: 0, faultMethods: [] });
    }
  });

  it('a namespace two projects claim is read-only until a GitLabDeployment settles it', async () => {
    const web = deployment('storefront', 'storefront-web');
    await expectUnchanged('prod-us', web, async () => {
      for (const [entity, environment] of [
        ['rogue', 'takeover'],
        ['storefront', 'production/us-region'],
      ]) {
        const res = await act(entity, environment, {
          action: 'workload.restart',
          target: web,
        }).expect(409);
        expect(res.body.gitlabEnv).toMatchObject({
          code: 'NAMESPACE_CONTESTED',
          message: expect.stringMatching(
            /Namespace storefront of agent prod-us is claimed by environments of .*acme\/shop\/storefront.*acme\/shop\/rogue|acme\/shop\/rogue.*acme\/shop\/storefront/,
          ),
          hint: expect.stringContaining('GitLabDeployment'),
        });
      }
    });
    store('prod-us').upsert({
      apiVersion: 'gitlab.com/v1alpha1',
      kind: 'GitLabDeployment',
      metadata: { name: 'storefront-production' },
      spec: {
        environment: 'production/us-region',
        namespace: 'storefront',
        projects: ['acme/shop/storefront'],
      },
    });
    // Past the GitLabDeployments' cache (cacheTtlSeconds 0.5).
    await new Promise(resolve => setTimeout(resolve, 600));
    await act('storefront', 'production/us-region', {
      action: 'workload.restart',
      target: web,
    }).expect(200);
    simulator.resetStats();
    await expectUnchanged('prod-us', web, async () => {
      const res = await act('rogue', 'takeover', {
        action: 'workload.restart',
        target: web,
      }).expect(403);
      expect(res.body.gitlabEnv.message).toMatch(
        /GitLabDeployment storefront-production gives namespace storefront of agent prod-us to acme\/shop\/storefront, not to acme\/shop\/rogue/,
      );
    });
  });
});

describe('followed logs, against the hostile scenario', () => {
  let simulator: RunningSimulator;
  let base: string;

  beforeAll(async () => {
    simulator = await startTestSimulator({
      logFollowIntervalMs: 20,
      scenario: loadHostileScenario(),
    });
    const backend = await startBackendOnSimulator(simulator, {
      entities: [ownedComponent('rogue', 'acme/shop/rogue')],
      gitlabEnv: {
        requestTimeoutMs: 5000,
        // Half of 4 slots for followed logs: 2 per agent.
        concurrency: { perAgent: 4 },
        actions: { logs: { maxFollowedPerUser: 2 } },
      },
    });
    const { port } = backend.server.address() as AddressInfo;
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(() => simulator.close());

  it('counts against the agent’s budget and a per-user cap, with a clear error', async () => {
    const pod = (simulator.cluster('nonprod').store.all() as any[]).find(
      (o: any) => o.kind === 'Pod' && o.metadata.namespace === 'rogue',
    ).metadata.name;
    const opened: AbortController[] = [];
    const follow = async (user: string) => {
      const stop = new AbortController();
      const response = await fetch(
        `${base}${path(
          'rogue',
          'gitops',
        )}/logs?pod=${pod}&tailLines=1&follow=true`,
        {
          signal: stop.signal,
          headers: { authorization: mockCredentials.user.header(user) },
        },
      );
      if (response.ok) {
        opened.push(stop);
        // The first line: the stream is open through the agent.
        await response.body!.getReader().read();
        return { status: 200 };
      }
      return { status: response.status, body: await response.json() };
    };
    try {
      expect((await follow('user:default/ann')).status).toBe(200);
      expect((await follow('user:default/ann')).status).toBe(200);
      const third = await follow('user:default/ann');
      expect(third).toMatchObject({
        status: 429,
        body: {
          gitlabEnv: {
            code: 'TOO_MANY_STREAMS',
            message: expect.stringContaining(
              'gitlabEnv.actions.logs.maxFollowedPerUser',
            ),
          },
        },
      });
      const other = await follow('user:default/bob');
      expect(other).toMatchObject({
        status: 429,
        body: {
          gitlabEnv: {
            code: 'TOO_MANY_STREAMS',
            message: expect.stringMatching(
              /Agent nonprod already streams 2 followed logs, half of its 4 request slots/,
            ),
          },
        },
      });
      // One ends: its slot is free again.
      opened.shift()!.abort();
      let again = await follow('user:default/bob');
      for (let i = 0; i < 50 && again.status !== 200; i++) {
        await new Promise(resolve => setTimeout(resolve, 20));
        again = await follow('user:default/bob');
      }
      expect(again.status).toBe(200);
    } finally {
      opened.forEach(stop => stop.abort());
    }
  });
});
