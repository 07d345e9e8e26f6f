import {
  actionsRegistryServiceFactory,
  actionsServiceFactory,
} from '@backstage/backend-defaults/alpha';
import { mockCredentials, mockServices } from '@backstage/backend-test-utils';
import mcpPlugin from '@backstage/plugin-mcp-actions-backend';
import {
  gitlabEnvResourcesReadPermission,
  permissionForCapability,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { RunningSimulator } from '@gitlab-env/gitlab-simulator';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AddressInfo } from 'node:net';
import { AuditRecord, recordAuditEvents } from '../__testUtils__/auditRecords';
import {
  instancesWithRollbackToken,
  ownedComponent,
  startBackendOnSimulator,
  startTestSimulator,
  storefrontComponent,
} from '../__testUtils__/backendOnSimulator';
import { permissionsDenying } from '../__testUtils__/permissions';
import { waitForAsync } from '../__testUtils__/waitFor';
import { LOG_TAIL_BYTES } from './readActions';

const ALICE = 'user:default/alice';
const ENTITY = 'component:default/storefront';
/** Its production Deployment has revisions 3, 4 and 5 (current), applied by Flux. */
const CHECKOUT = 'component:default/checkout-api';
const ROLLBACK_PERMISSION = permissionForCapability('workload.rollback').name;

/**
 * The demo backend's setup (the gitlab-env plugin, Backstage's actions
 * registry and actions service, @backstage/plugin-mcp-actions-backend) on
 * the simulator, driven by the MCP SDK's own client over HTTP as an
 * assistant would: as a signed-in user, whose permissions the mock decides.
 */
describe('the actions over MCP, against the simulator', () => {
  let simulator: RunningSimulator;
  let mcpUrl: URL;
  const auditor = mockServices.auditor.mock();
  const denied = new Set<string>();
  const permissions = permissionsDenying(denied);
  /** The plugin's audit records (the MCP plugin's own are not kept). */
  const events: AuditRecord[] = [];

  beforeAll(async () => {
    simulator = await startTestSimulator();
    recordAuditEvents(
      auditor,
      events,
      options =>
        !['connection', 'tool-discovery', 'tool-execution'].includes(
          options.eventId,
        ),
    );
    const backend = await startBackendOnSimulator(simulator, {
      entities: [
        storefrontComponent(),
        ownedComponent('checkout-api', 'acme/shop/checkout-api'),
      ],
      config: { backend: { actions: { pluginSources: ['gitlab-env'] } } },
      gitlabEnv: { instances: instancesWithRollbackToken(simulator) },
      features: [
        auditor.factory,
        permissions.factory,
        actionsRegistryServiceFactory,
        actionsServiceFactory,
        mcpPlugin,
      ],
    });
    const { port } = backend.server.address() as AddressInfo;
    mcpUrl = new URL(`http://localhost:${port}/api/mcp-actions/v1`);
  });

  afterAll(async () => {
    await simulator.close();
  });

  beforeEach(() => {
    denied.clear();
    events.length = 0;
  });

  async function connect(user = ALICE) {
    const client = new Client({ name: 'gitlab-env-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(mcpUrl, {
        requestInit: {
          headers: { Authorization: mockCredentials.user.header(user) },
        },
      }),
    );
    return client;
  }

  async function call(name: string, args: Record<string, unknown>) {
    const client = await connect();
    try {
      return (await client.callTool({ name, arguments: args })) as {
        isError?: boolean;
        content: Array<{ type: string; text: string }>;
        structuredContent?: any;
      };
    } finally {
      await client.close();
    }
  }

  const restart = (environment: string, resource: string) =>
    call('gitlab-env.restart-workload', {
      entityRef: ENTITY,
      environment,
      resource,
    });

  const prodSlug = async () => {
    const listed = await call('gitlab-env.list-environments', {
      entityRef: ENTITY,
    });
    return listed.structuredContent.environments.find(
      (e: any) => e.name === 'production/us-region',
    ).slug as string;
  };

  /** A write's audit record: the route's event, as the caller, via the registry. */
  const writeAudited = (
    write: { name: string; action: string },
    body: Record<string, unknown>,
    outcome: string,
    meta: Record<string, unknown>,
  ) =>
    expect.objectContaining({
      options: expect.objectContaining({
        eventId: 'environment-action',
        severityLevel: 'medium',
        meta: expect.objectContaining({
          actor: ALICE,
          via: 'actions-registry',
          actionId: `gitlab-env:${write.name}`,
          action: write.action,
          ...body,
        }),
      }),
      outcome,
      meta: expect.objectContaining(meta),
    });

  it('lists the tools, reads marked read-only and writes destructive, with schemas for a model', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    await client.close();
    const ours = tools.filter(t => t.name.startsWith('gitlab-env.'));
    expect(ours.map(t => t.name).sort()).toEqual([
      'gitlab-env.delete-pod',
      'gitlab-env.describe-resource',
      'gitlab-env.get-pod-logs',
      'gitlab-env.get-recent-changes',
      'gitlab-env.get-unhealthy-resources',
      'gitlab-env.list-environments',
      'gitlab-env.reconcile-flux',
      'gitlab-env.restart-workload',
      'gitlab-env.resume-flux',
      'gitlab-env.rollback-deployment',
      'gitlab-env.rollback-workload',
      'gitlab-env.scale-workload',
      'gitlab-env.suspend-flux',
    ]);
    const tool = (name: string) => ours.find(t => t.name === name)!;
    expect(tool('gitlab-env.list-environments').annotations).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
    });
    expect(tool('gitlab-env.restart-workload').annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
    const scale = tool('gitlab-env.scale-workload').inputSchema as any;
    expect(scale.required).toEqual(
      expect.arrayContaining([
        'entityRef',
        'environment',
        'resource',
        'replicas',
      ]),
    );
    expect(scale.properties.resource.description).toContain('Kind/name');
    expect(tool('gitlab-env.get-recent-changes').annotations).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
    });
    const rollback = tool('gitlab-env.rollback-workload');
    expect(rollback.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
    });
    expect((rollback.inputSchema as any).required).toEqual(
      expect.arrayContaining(['resource', 'toRevision']),
    );
    expect(rollback.description).toContain('kubectl rollout undo');
    expect(tool('gitlab-env.rollback-deployment').annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
    expect(rollback.description).toContain(
      `the ${ROLLBACK_PERMISSION} permission`,
    );
    // A write says which permission it needs, by its real name.
    expect(tool('gitlab-env.restart-workload').description).toContain(
      `the ${permissionForCapability('workload.restart').name} permission`,
    );
  });

  it('reads an environment: its environments with health, then what is unhealthy and one resource, audited as the user', async () => {
    const listed = await call('gitlab-env.list-environments', {
      entityRef: ENTITY,
    });
    expect(listed.isError).toBeFalsy();
    const answer = listed.structuredContent;
    expect(answer.entityRef).toBe(ENTITY);
    const prod = answer.environments.find(
      (e: any) => e.name === 'production/us-region',
    );
    expect(prod).toMatchObject({
      tier: 'production',
      namespace: 'storefront',
      health: expect.any(String),
    });
    // What the model reads is the same JSON as text.
    expect(JSON.parse(listed.content[0].text)).toEqual(answer);

    const unhealthy = await call('gitlab-env.get-unhealthy-resources', {
      entityRef: ENTITY,
      environment: prod.slug,
    });
    expect(unhealthy.isError).toBeFalsy();
    expect(unhealthy.structuredContent).toMatchObject({
      environment: 'production/us-region',
      namespace: 'storefront',
      counts: expect.any(Object),
      more: expect.any(Number),
    });

    const described = await call('gitlab-env.describe-resource', {
      entityRef: ENTITY,
      environment: prod.slug,
      resource: 'Deployment/storefront-web',
    });
    expect(described.isError).toBeFalsy();
    expect(described.structuredContent).toMatchObject({
      resource: 'Deployment/storefront-web',
      apiVersion: 'apps/v1',
      capabilities: ['workload.restart', 'workload.scale', 'workload.rollback'],
      facts: expect.objectContaining({ replicas: expect.any(Number) }),
    });

    // Each call is the route's audit event, the caller named, the way it came said.
    expect(
      events.map(e => [e.options.eventId, e.outcome, e.options.meta.actor]),
    ).toEqual([
      ['environments-list', 'success', ALICE],
      ['environment-resources-read', 'success', ALICE],
      ['environment-resources-read', 'success', ALICE],
    ]);
    expect(events[2].options.meta).toMatchObject({
      via: 'actions-registry',
      actionId: 'gitlab-env:describe-resource',
      entityRef: 'component:default/storefront',
    });
  });

  it('tails a pod log within the answer budget', async () => {
    const slug = await prodSlug();
    const pod = prodObject('Pod', 'storefront-web-').metadata.name as string;
    const logs = await call('gitlab-env.get-pod-logs', {
      entityRef: ENTITY,
      environment: slug,
      pod,
    });
    expect(logs.isError).toBeFalsy();
    // The cluster's 200 lines are more than the answer keeps: the newest win.
    expect(logs.structuredContent).toMatchObject({ pod, truncated: true });
    expect(Buffer.byteLength(logs.structuredContent.text)).toBeLessThanOrEqual(
      LOG_TAIL_BYTES,
    );
    expect(logs.structuredContent.lines).toBeGreaterThan(10);
    const three = await call('gitlab-env.get-pod-logs', {
      entityRef: ENTITY,
      environment: slug,
      pod,
      tailLines: 3,
    });
    expect(three.structuredContent).toMatchObject({
      lines: 3,
      truncated: false,
    });
    expect(
      logs.structuredContent.text.endsWith(three.structuredContent.text),
    ).toBe(true);
    expect(events.at(-1)).toMatchObject({
      options: { eventId: 'environment-logs-read' },
      outcome: 'success',
    });
  });

  it('refuses a write the user may not make, audited, nothing written to the cluster', async () => {
    const slug = await prodSlug();
    events.length = 0;
    const permission = permissionForCapability('workload.restart').name;
    denied.add(permission);
    const writesBefore = kasWrites();
    const result = await restart(slug, 'Deployment/storefront-web');
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toBe(
      `NotAllowedError: NOT_ALLOWED: You are not allowed to do this with the environments of ${ENTITY} (permission ${permission}). What to do: Ask the portal’s administrators for that permission.`,
    );
    expect(kasWrites()).toEqual(writesBefore);
    expect(events).toEqual([
      writeAudited(
        { name: 'restart-workload', action: 'workload.restart' },
        { resource: 'Deployment/storefront-web' },
        'failure',
        { code: 'NOT_ALLOWED' },
      ),
    ]);
  });

  it('makes a write the user may make, as the tab does', async () => {
    const slug = await prodSlug();
    events.length = 0;
    const result = await call('gitlab-env.scale-workload', {
      entityRef: ENTITY,
      environment: slug,
      resource: 'Deployment/storefront-web',
      replicas: 4,
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      outcome: 'changed',
      kubectl: expect.stringContaining('kubectl scale'),
      previousReplicas: expect.any(Number),
    });
    const web = prodObject('Deployment', 'storefront-web');
    expect(web.spec.replicas).toBe(4);
    expect(events).toEqual([
      expect.objectContaining({
        options: expect.objectContaining({ eventId: 'environment-action' }),
        outcome: 'success',
        meta: expect.objectContaining({
          object: {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            namespace: 'storefront',
            name: 'storefront-web',
          },
          outcome: 'changed',
        }),
      }),
    ]);
  });

  it('suspends a Flux object of another namespace named Kind/namespace/name, then resumes it', async () => {
    const listed = await call('gitlab-env.list-environments', {
      entityRef: ENTITY,
    });
    const staging = listed.structuredContent.environments.find(
      (e: any) => e.name === 'staging',
    ).slug;
    const release = 'HelmRelease/flux-system/storefront-staging';
    const suspended = await call('gitlab-env.suspend-flux', {
      entityRef: ENTITY,
      environment: staging,
      resource: release,
    });
    expect(suspended.isError).toBeFalsy();
    expect(suspended.structuredContent).toMatchObject({
      outcome: 'changed',
      kubectl: expect.stringContaining(
        'helmrelease.helm.toolkit.fluxcd.io/storefront-staging -n flux-system',
      ),
    });
    const spec = () =>
      simulator
        .cluster('nonprod')
        .store.all()
        .find(
          (o: any) =>
            o.kind === 'HelmRelease' &&
            o.metadata.name === 'storefront-staging',
        )!.spec;
    expect(spec().suspend).toBe(true);
    const resumed = await call('gitlab-env.resume-flux', {
      entityRef: ENTITY,
      environment: staging,
      resource: release,
    });
    // The write reaches the cluster; its outcome is not asserted: right after
    // the suspend, the environment's objects may not have seen it yet.
    expect(resumed.isError).toBeFalsy();
    expect(resumed.structuredContent.kubectl).toContain(
      `-p '{"spec":{"suspend":false}}'`,
    );
    expect(spec().suspend).toBe(false);
  });

  const rollback = (toRevision: number) =>
    call('gitlab-env.rollback-workload', {
      entityRef: CHECKOUT,
      environment: 'production',
      resource: 'Deployment/checkout-api',
      toRevision,
    });
  const checkoutApi = () =>
    simulator
      .cluster('prod-us')
      .store.all()
      .find(
        (o: any) =>
          o.kind === 'Deployment' && o.metadata.name === 'checkout-api',
      ) as any;
  const image = () => checkoutApi().spec.template.spec.containers[0].image;
  const recentChanges = (args: Record<string, unknown> = {}) =>
    call('gitlab-env.get-recent-changes', {
      entityRef: CHECKOUT,
      environment: 'production',
      ...args,
    });

  it('refuses a rollback the user may not make, audited, nothing written to the cluster', async () => {
    denied.add(ROLLBACK_PERMISSION);
    const writesBefore = kasWrites();
    const imageBefore = image();
    const result = await rollback(4);
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toBe(
      `NotAllowedError: NOT_ALLOWED: You are not allowed to do this with the environments of ${CHECKOUT} (permission ${ROLLBACK_PERMISSION}). What to do: Ask the portal’s administrators for that permission.`,
    );
    expect(kasWrites()).toEqual(writesBefore);
    expect(image()).toBe(imageBefore);
    expect(events).toEqual([
      writeAudited(
        { name: 'rollback-workload', action: 'workload.rollback' },
        { resource: 'Deployment/checkout-api', toRevision: 4 },
        'failure',
        { code: 'NOT_ALLOWED' },
      ),
    ]);
  });

  it('rolls a Flux-applied Deployment back as kubectl rollout undo does, says Flux reverts it, and the recent changes show it', async () => {
    const result = await rollback(3);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      outcome: 'changed',
      message: expect.stringContaining(
        'checkout/checkout-api is rolling back to revision 3',
      ),
      kubectl:
        'kubectl rollout undo deployment/checkout-api --to-revision=3 -n checkout',
      warnings: [
        expect.stringContaining('Kustomization flux-system/checkout-api'),
      ],
    });
    expect(image()).toBe('registry.example.com/acme/shop/checkout-api:3.8.0');
    expect(events).toEqual([
      writeAudited(
        { name: 'rollback-workload', action: 'workload.rollback' },
        { resource: 'Deployment/checkout-api', toRevision: 3 },
        'success',
        { outcome: 'changed' },
      ),
    ]);

    // The timeline records the action as it is taken (asynchronously).
    let changes: string[] = [];
    await waitForAsync(async () => {
      const read = await recentChanges();
      expect(read.isError).toBeFalsy();
      changes = read.structuredContent.changes;
      return changes.some(line => line.includes('rolling back to revision 3'));
    });
    const line = changes.find(l => l.includes('rolling back to revision 3'))!;
    expect(line).toMatch(
      new RegExp(
        `^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z action: Deployment checkout/checkout-api is rolling back to revision 3.* — by ${ALICE} \\(Deployment/checkout-api\\)$`,
      ),
    );
    // What came before it: GitLab's deployment, Flux's revision, the rollouts with their images.
    expect(changes).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          / deployment: Deployment #212 deployed v3\.8\.2 /,
        ),
        expect.stringMatching(
          / flux: Kustomization checkout-api applied v3\.8\.2@sha1:/,
        ),
        expect.stringMatching(
          / rollout: Deployment checkout-api rolled out revision 5 — api: registry\.example\.com\/acme\/shop\/checkout-api:3\.8\.2/,
        ),
      ]),
    );
    // The rollback's own rollout, once a read of the environment sees it.
    await waitForAsync(async () => {
      await call('gitlab-env.describe-resource', {
        entityRef: CHECKOUT,
        environment: 'production',
        resource: 'Deployment/checkout-api',
      });
      changes = (await recentChanges({ kinds: ['rollout'], limit: 1 }))
        .structuredContent.changes;
      return changes.length > 0 && changes[0].includes('revision 6');
    });
    expect(changes[0]).toMatch(
      / rollout: Deployment checkout-api rolled out revision 6 \(an earlier template again\) — api: registry\.example\.com\/acme\/shop\/checkout-api:3\.8\.0/,
    );
    changes = (await recentChanges()).structuredContent.changes;
    // Newest first.
    const times = changes.map(l => Date.parse(l.split(' ')[0]));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(events.at(-1)).toMatchObject({
      options: {
        eventId: 'entity-timeline-read',
        meta: {
          actor: ALICE,
          via: 'actions-registry',
          actionId: 'gitlab-env:get-recent-changes',
        },
      },
      outcome: 'success',
    });

    // Paged: one change, then the ones before it from the cursor.
    const first = (await recentChanges({ limit: 1 })).structuredContent;
    expect(first.changes).toEqual([changes[0]]);
    const next = (await recentChanges({ limit: 1, cursor: first.nextCursor }))
      .structuredContent;
    expect(next.changes).toEqual([changes[1]]);
    const actions = (await recentChanges({ kinds: ['action'] }))
      .structuredContent.changes as string[];
    expect(actions.length).toBeGreaterThan(0);
    expect(actions.every(l => / action: /.test(l))).toBe(true);
  });

  it("re-runs an earlier deployment's job as GitLab's rollback does, named by its number; refused without the permission", async () => {
    const listed = await call('gitlab-env.list-environments', {
      entityRef: ENTITY,
    });
    // A review app deploys an unprotected branch: a Developer may re-run its jobs.
    const review = listed.structuredContent.environments.find(
      (e: any) => e.name === 'review/feature-cart',
    ).slug;
    const rollBack = () =>
      call('gitlab-env.rollback-deployment', {
        entityRef: ENTITY,
        environment: review,
        deployment: '#51',
      });
    denied.add('gitlab-env.deployments.rollback');
    events.length = 0;
    const refused = await rollBack();
    expect(refused.isError).toBe(true);
    expect(refused.content[0].text).toMatch(/^NotAllowedError: NOT_ALLOWED: /);
    expect(events).toEqual([
      expect.objectContaining({
        options: expect.objectContaining({
          eventId: 'environment-gitlab-rollback',
          meta: expect.objectContaining({
            actor: ALICE,
            actionId: 'gitlab-env:rollback-deployment',
            deployment: '#51',
          }),
        }),
        outcome: 'failure',
      }),
    ]);

    denied.clear();
    events.length = 0;
    const done = await rollBack();
    expect(done.isError).toBeFalsy();
    expect(done.structuredContent).toMatchObject({
      message: expect.stringMatching(
        /^GitLab started job \d+ .* for deployment #51 /,
      ),
      job: { id: expect.stringMatching(/^\d+$/) },
      command: expect.stringMatching(
        /^curl --request POST .*\/projects\/acme%2Fshop%2Fstorefront\/jobs\/\d+\/retry$/,
      ),
    });
    expect(events).toEqual([
      expect.objectContaining({
        options: expect.objectContaining({
          eventId: 'environment-gitlab-rollback',
          severityLevel: 'medium',
          meta: expect.objectContaining({
            via: 'actions-registry',
            actionId: 'gitlab-env:rollback-deployment',
          }),
        }),
        outcome: 'success',
        meta: expect.objectContaining({
          deploymentId: expect.any(String),
          newJobId: done.structuredContent.job.id,
        }),
      }),
    ]);
    // Recorded on the timeline as the tab's rollback is, with who took it.
    await waitForAsync(async () => {
      const read = await call('gitlab-env.get-recent-changes', {
        entityRef: ENTITY,
        environment: review,
        kinds: ['action'],
      });
      return read.structuredContent.changes.some(
        (l: string) =>
          l.includes(`GitLab started job ${done.structuredContent.job.id}`) &&
          l.includes(`by ${ALICE}`),
      );
    });
    // The job was retried once: GitLab refuses it again, said as a conflict.
    const again = await rollBack();
    expect(again.content[0].text).toMatch(
      /^ConflictError: JOB_NOT_RETRYABLE: /,
    );
    const unknown = await call('gitlab-env.rollback-deployment', {
      entityRef: ENTITY,
      environment: review,
      deployment: '99999',
    });
    expect(unknown.content[0].text).toMatch(
      /^NotFoundError: DEPLOYMENT_NOT_FOUND: Environment review\/feature-cart has no deployment #99999/,
    );
  });

  it('reads nothing for a user who may not see the environments', async () => {
    denied.add(gitlabEnvResourcesReadPermission.name);
    const result = await call('gitlab-env.list-environments', {
      entityRef: ENTITY,
    });
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toBe(
      `NotAllowedError: NOT_ALLOWED: You are not allowed to see the environments of ${ENTITY}.`,
    );
    expect(events).toEqual([
      expect.objectContaining({
        options: expect.objectContaining({ eventId: 'environments-list' }),
        outcome: 'failure',
        meta: expect.objectContaining({ code: 'NOT_ALLOWED' }),
      }),
    ]);
  });

  it('says plainly what a name that is no resource of the environment is', async () => {
    const slug = await prodSlug();
    const result = await restart(slug, 'Deployment/not-there');
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(
      /^InputError: INVALID_REQUEST: Environment production\/us-region has no resource `Deployment\/not-there`\. What to do: /,
    );
  });

  /** An object of the production cluster whose name starts so. */
  function prodObject(kind: string, name: string): any {
    const found = simulator
      .cluster('prod-us')
      .store.all()
      .find(
        (o: any) =>
          o.kind === kind &&
          o.metadata.namespace === 'storefront' &&
          o.metadata.name.startsWith(name),
      );
    expect(found).toBeDefined();
    return found;
  }

  function kasWrites() {
    return Object.entries(simulator.stats().byPath).filter(([key]) =>
      /^(PATCH|DELETE|PUT) /.test(key),
    );
  }
});

describe('get-recent-changes with the timeline off', () => {
  it('says the timeline is off rather than that nothing changed', async () => {
    const simulator = await startTestSimulator();
    try {
      const backend = await startBackendOnSimulator(simulator, {
        entities: [ownedComponent('checkout-api', 'acme/shop/checkout-api')],
        config: { backend: { actions: { pluginSources: ['gitlab-env'] } } },
        gitlabEnv: { timeline: { enabled: false } },
        features: [
          mockServices.permissions.factory(),
          actionsRegistryServiceFactory,
          actionsServiceFactory,
          mcpPlugin,
        ],
      });
      const { port } = backend.server.address() as AddressInfo;
      const client = new Client({ name: 'gitlab-env-test', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(
          new URL(`http://localhost:${port}/api/mcp-actions/v1`),
          {
            requestInit: {
              headers: { Authorization: mockCredentials.user.header(ALICE) },
            },
          },
        ),
      );
      try {
        const result = (await client.callTool({
          name: 'gitlab-env.get-recent-changes',
          arguments: { entityRef: CHECKOUT, environment: 'production' },
        })) as { isError?: boolean; content: Array<{ text: string }> };
        expect(result.isError).toBe(true);
        expect(result.content[0].text).toMatch(
          /TIMELINE_UNAVAILABLE: The timeline is off \(gitlabEnv\.timeline\.enabled: false\)/,
        );
      } finally {
        await client.close();
      }
    } finally {
      await simulator.close();
    }
  });
});
