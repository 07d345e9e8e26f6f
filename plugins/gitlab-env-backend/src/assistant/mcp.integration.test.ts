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
  startBackendOnSimulator,
  startTestSimulator,
  storefrontComponent,
} from '../__testUtils__/backendOnSimulator';
import { permissionsDenying } from '../__testUtils__/permissions';
import { LOG_TAIL_BYTES } from './readActions';

const ALICE = 'user:default/alice';
const ENTITY = 'component:default/storefront';

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
      entities: [storefrontComponent()],
      config: { backend: { actions: { pluginSources: ['gitlab-env'] } } },
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

  it('lists the tools, reads marked read-only and writes destructive, with schemas for a model', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    await client.close();
    const ours = tools.filter(t => t.name.startsWith('gitlab-env.'));
    expect(ours.map(t => t.name).sort()).toEqual([
      'gitlab-env.delete-pod',
      'gitlab-env.describe-resource',
      'gitlab-env.get-pod-logs',
      'gitlab-env.get-unhealthy-resources',
      'gitlab-env.list-environments',
      'gitlab-env.reconcile-flux',
      'gitlab-env.restart-workload',
      'gitlab-env.resume-flux',
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
      expect.objectContaining({
        options: expect.objectContaining({
          eventId: 'environment-action',
          severityLevel: 'medium',
          meta: expect.objectContaining({
            actor: ALICE,
            via: 'actions-registry',
            actionId: 'gitlab-env:restart-workload',
            action: 'workload.restart',
            resource: 'Deployment/storefront-web',
          }),
        }),
        outcome: 'failure',
        meta: expect.objectContaining({ code: 'NOT_ALLOWED' }),
      }),
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
