import { mockCredentials, mockServices } from '@backstage/backend-test-utils';
import { Entity } from '@backstage/catalog-model';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import {
  environmentSlug,
  RunningSimulator,
  startGitlabSimulator,
} from '@gitlab-env/gitlab-simulator';
import { AddressInfo } from 'net';
import request from 'supertest';
import { AuditRecord, recordAuditEvents } from '../__testUtils__/auditRecords';
import { permissionsDenying } from '../__testUtils__/permissions';
import {
  startBackendOnSimulator,
  storefrontComponent,
  TEST_KAS_TUNNELS,
} from '../__testUtils__/backendOnSimulator';
import { storefrontWeb } from '../__testUtils__/storefrontTargets';
import { failure } from '../errors';
import type { LocatedEntity } from '../locating';
import { entityPathParams, RequestPipeline, RouteSpec } from './pipeline';

const entity = storefrontComponent();
const located: LocatedEntity = {
  host: 'gitlab.example.com',
  project: {
    instance: 'gitlab.example.com',
    id: '101',
    fullPath: 'acme/shop/storefront',
    webUrl: 'https://gitlab.example.com/acme/shop/storefront',
  },
  environments: [
    {
      id: '1',
      name: 'staging',
      slug: 'staging',
      tier: 'staging',
      state: 'available',
    },
  ],
  warnings: [],
};

/** The pipeline with mocks, for a caller that is not HTTP (the actions registry). */
function pipelineWith(options: { allow: boolean; entities?: Entity[] }) {
  const steps: string[] = [];
  const records: AuditRecord[] = [];
  const auditor = mockServices.auditor.mock();
  recordAuditEvents(auditor, records);
  const permissions = mockServices.permissions.mock();
  permissions.authorize.mockImplementation(async requests => {
    steps.push(`authorize ${requests.map(r => r.permission.name).join(',')}`);
    return requests.map(() => ({
      result: options.allow ? AuthorizeResult.ALLOW : AuthorizeResult.DENY,
    })) as any;
  });
  const catalog = catalogServiceMock({
    entities: options.entities ?? [entity],
  });
  const pipeline = new RequestPipeline({
    catalog,
    permissions,
    auditor,
    requestDeadlineMs: 30_000,
    locate: async () => {
      steps.push('locate');
      return located;
    },
  });
  return { pipeline, steps, records };
}

const environmentSpec: RouteSpec<{ entityRef: string; slug?: string }> = {
  audit: { eventId: 'test-read' },
  params: raw => entityPathParams(raw),
  entities: 'one',
  entity: params => params,
  permission: {},
  locate: 'environment',
};

const raw = (slug: string, name = 'storefront') => ({
  path: { namespace: 'default', kind: 'component', name, slug },
  query: {},
});

describe('RequestPipeline, without HTTP', () => {
  it('runs validate → entity → permission → locate → handler, and audits the outcome', async () => {
    const { pipeline, steps, records } = pipelineWith({ allow: true });
    const result = await pipeline.run(
      environmentSpec,
      { credentials: mockCredentials.user(), raw: raw('staging') },
      async context => {
        steps.push(`handler ${context.environment.name}`);
        return { served: 1 };
      },
    );
    expect(result).toEqual({ served: 1 });
    expect(steps).toEqual([
      'authorize gitlab-env.resources.read',
      'locate',
      'handler staging',
    ]);
    expect(records).toEqual([
      expect.objectContaining({ outcome: 'success', meta: { served: 1 } }),
    ]);
  });

  it('names the caller from its credentials, and how it came, when there is no HTTP request', async () => {
    const { pipeline, records } = pipelineWith({ allow: true });
    await pipeline.run(
      environmentSpec,
      {
        credentials: mockCredentials.user('user:default/alice'),
        raw: raw('staging'),
        via: { via: 'actions-registry', actionId: 'gitlab-env:test' },
      },
      async () => undefined,
    );
    await pipeline.run(
      environmentSpec,
      {
        credentials: mockCredentials.service('external:mcp-clients'),
        raw: raw('staging'),
      },
      async () => undefined,
    );
    expect(records.map(r => r.options.meta)).toEqual([
      expect.objectContaining({
        actor: 'user:default/alice',
        via: 'actions-registry',
        actionId: 'gitlab-env:test',
      }),
      expect.objectContaining({ actor: 'external:mcp-clients' }),
    ]);
  });

  it('refuses before locating when the permission is denied, audited', async () => {
    const { pipeline, steps, records } = pipelineWith({ allow: false });
    const error = await pipeline
      .run(
        environmentSpec,
        { credentials: mockCredentials.user(), raw: raw('staging') },
        async () => undefined,
      )
      .catch(e => e);
    expect(error.detail.code).toBe('NOT_ALLOWED');
    expect(steps).not.toContain('locate');
    expect(records).toEqual([
      expect.objectContaining({
        outcome: 'failure',
        meta: expect.objectContaining({ code: 'NOT_ALLOWED' }),
      }),
    ]);
  });

  it('refuses bad parameters and unknown entities and environments, typed and audited', async () => {
    const { pipeline, records } = pipelineWith({ allow: true });
    const codeOf = (parameters: ReturnType<typeof raw>) =>
      pipeline
        .run(
          environmentSpec,
          { credentials: mockCredentials.user(), raw: parameters },
          async () => undefined,
        )
        .catch(e => e.detail.code);
    expect(await codeOf(raw('UPPER'))).toBe('INVALID_REQUEST');
    expect(await codeOf(raw('staging', 'ghost'))).toBe('ENTITY_NOT_FOUND');
    expect(await codeOf(raw('production'))).toBe('ENVIRONMENT_NOT_FOUND');
    expect(records.map(r => [r.outcome, r.meta.code])).toEqual([
      ['failure', 'INVALID_REQUEST'],
      ['failure', 'ENTITY_NOT_FOUND'],
      ['failure', 'ENVIRONMENT_NOT_FOUND'],
    ]);
  });

  it('audits what the handler throws with its code', async () => {
    const { pipeline, records } = pipelineWith({ allow: true });
    await pipeline
      .run(
        environmentSpec,
        { credentials: mockCredentials.user(), raw: raw('staging') },
        async () => {
          throw failure('NOT_OWNED', 'not its own', { upstreamStatus: 403 });
        },
      )
      .catch(() => undefined);
    expect(records[0]).toMatchObject({
      outcome: 'failure',
      meta: { code: 'NOT_OWNED', upstreamStatus: 403 },
    });
  });
});

describe('every route is audited, refusals and malformed requests included', () => {
  let simulator: RunningSimulator;
  let server: any;
  const records: AuditRecord[] = [];
  const denied = new Set<string>();

  beforeAll(async () => {
    simulator = await startGitlabSimulator({
      port: 0,
      tickMs: 0,
      logFollowIntervalMs: 20,
      kasTunnels: TEST_KAS_TUNNELS,
    });
    const auditor = mockServices.auditor.mock();
    recordAuditEvents(auditor, records);
    const permissions = permissionsDenying(denied);
    const backend = await startBackendOnSimulator(simulator, {
      entities: [entity],
      gitlabEnv: { requestTimeoutMs: 5000 },
      features: [auditor.factory, permissions.factory],
    });
    server = backend.server;
  });
  afterAll(() => simulator.close());
  beforeEach(() => {
    records.length = 0;
    denied.clear();
  });

  const ENTITY = '/api/gitlab-env/entity/default/component/storefront';
  const PROD = `${ENTITY}/environments/${environmentSlug(
    'production/us-region',
  )}`;

  /** The one record a request left: its event and outcome. */
  async function audited(
    send: () => Promise<unknown>,
  ): Promise<[string, string | undefined, string | undefined]> {
    records.length = 0;
    await send();
    // A stream's record may end just after its answer.
    for (let i = 0; i < 200 && records.some(r => !r.outcome); i++)
      await new Promise(resolve => setTimeout(resolve, 20));
    expect(records).toHaveLength(1);
    const [record] = records;
    return [record.options.eventId, record.outcome, record.meta?.code];
  }

  it.each<[string, () => Promise<unknown>, string, string, string | undefined]>(
    [
      [
        'the environments list',
        () => request(server).get(`${ENTITY}/environments?withHealth=false`),
        'environments-list',
        'success',
        undefined,
      ],
      [
        'a resources read',
        () => request(server).get(`${PROD}/resources`),
        'environment-resources-read',
        'success',
        undefined,
      ],
      [
        'the CI access matrix',
        () => request(server).get(`${ENTITY}/ci-access`),
        'ci-access-read',
        'success',
        undefined,
      ],
      [
        'a matrix for a branch no one can name',
        () => request(server).get(`${ENTITY}/ci-access?branch=a..b`),
        'ci-access-read',
        'failure',
        'INVALID_BRANCH',
      ],
      [
        'the entity’s stale namespaces',
        () => request(server).get(`${ENTITY}/ci-access/stale-namespaces`),
        'stale-namespaces-read',
        'success',
        undefined,
      ],
      [
        'the portal-wide stale namespaces',
        () => request(server).get('/api/gitlab-env/ci-access/stale-namespaces'),
        'portal-stale-namespaces-read',
        'success',
        undefined,
      ],
      [
        'a delete of a namespace not listed',
        () =>
          request(server).delete(
            `${ENTITY}/ci-access/agents/1/namespaces/storefront`,
          ),
        'stale-namespace-delete',
        'failure',
        'NAMESPACE_NOT_STALE',
      ],
      [
        'actions/allowed',
        () =>
          request(server)
            .post(`${PROD}/actions/allowed`)
            .send({ targets: [storefrontWeb] }),
        'environment-actions-allowed',
        'success',
        undefined,
      ],
      [
        'a malformed body',
        () =>
          request(server)
            .post(`${PROD}/actions`)
            .set('content-type', 'application/json')
            .send('{"action":'),
        'environment-action',
        'failure',
        'INVALID_REQUEST',
      ],
      [
        'an oversized body',
        () =>
          request(server)
            .post(`${PROD}/actions`)
            .send({
              action: 'workload.restart',
              target: storefrontWeb,
              pad: 'x'.repeat(70_000),
            }),
        'environment-action',
        'failure',
        'INVALID_REQUEST',
      ],
      [
        'a malformed path',
        () =>
          request(server).get(
            '/api/gitlab-env/entity/default/component/%E0%A4%A/environments',
          ),
        'request-refused',
        'failure',
        'INVALID_REQUEST',
      ],
      [
        'an entity the catalog does not have',
        () =>
          request(server).get(
            '/api/gitlab-env/entity/default/component/ghost/ci-access',
          ),
        'ci-access-read',
        'failure',
        'ENTITY_NOT_FOUND',
      ],
      [
        'the overview',
        () => request(server).get('/api/gitlab-env/overview'),
        'overview-read',
        'success',
        undefined,
      ],
      [
        'the diagnostics',
        () => request(server).get('/api/gitlab-env/diagnostics'),
        'diagnostics-read',
        'success',
        undefined,
      ],
    ],
  )('%s', async (_, send, eventId, outcome, code) => {
    expect(await audited(send)).toEqual([eventId, outcome, code]);
  });

  it('refusals by the policy, on lists and on the portal-wide list', async () => {
    denied.add('gitlab-env.resources.read');
    expect(
      await audited(() =>
        request(server).get(`${ENTITY}/ci-access/stale-namespaces`),
      ),
    ).toEqual(['stale-namespaces-read', 'failure', 'NOT_ALLOWED']);
    denied.clear();
    denied.add('gitlab-env.namespaces.stale.read');
    expect(
      await audited(() =>
        request(server).get('/api/gitlab-env/ci-access/stale-namespaces'),
      ),
    ).toEqual(['portal-stale-namespaces-read', 'failure', 'NOT_ALLOWED']);
  });

  it('the live stream, audited when it opened', async () => {
    const { port } = server.address() as AddressInfo;
    const stop = new AbortController();
    expect(
      await audited(async () => {
        const response = await fetch(
          `http://127.0.0.1:${port}/api/gitlab-env/live?environment=component:default/storefront/staging`,
          { signal: stop.signal },
        );
        await response.body!.getReader().read();
        stop.abort();
      }),
    ).toEqual(['environment-live-subscribe', 'success', undefined]);
  });
});
