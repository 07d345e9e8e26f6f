import {
  ActionTarget,
  EnvironmentAction,
  GitlabEnvErrorCode,
  KubernetesObject,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { http, HttpResponse } from 'msw';
import { failure, GitlabEnvFailure } from '../errors';
import { kasOnMsw, MSW_KAS } from '../__testUtils__/kasOnMsw';
import { performAction } from './performAction';

const KAS = MSW_KAS;
const { server, agent, kas } = kasOnMsw();
const now = () => new Date('2026-05-04T03:02:01.123Z');

const pod: ActionTarget = {
  apiVersion: 'v1',
  kind: 'Pod',
  namespace: 'prod',
  name: 'web-1',
};
const web: ActionTarget = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  namespace: 'prod',
  name: 'web',
};
const ks: ActionTarget = {
  apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
  kind: 'Kustomization',
  namespace: 'flux-system',
  name: 'app',
};

function objectOf(target: ActionTarget, extra: Partial<KubernetesObject> = {}) {
  return {
    apiVersion: target.apiVersion,
    kind: target.kind,
    metadata: { name: target.name, namespace: target.namespace },
    ...extra,
  } as KubernetesObject;
}

/** Each action: its target, the request it must send, and its extra request fields. */
const CASES: Array<{
  action: EnvironmentAction;
  target: ActionTarget;
  method: string;
  path: string;
  contentType?: string;
  body?: unknown;
  extra?: { replicas?: number };
}> = [
  {
    action: 'pod.delete',
    target: pod,
    method: 'DELETE',
    path: '/api/v1/namespaces/prod/pods/web-1',
  },
  {
    action: 'workload.restart',
    target: web,
    method: 'PATCH',
    path: '/apis/apps/v1/namespaces/prod/deployments/web',
    contentType: 'application/strategic-merge-patch+json',
    body: {
      spec: {
        template: {
          metadata: {
            annotations: {
              'kubectl.kubernetes.io/restartedAt': '2026-05-04T03:02:01Z',
            },
          },
        },
      },
    },
  },
  {
    action: 'workload.scale',
    target: web,
    method: 'PATCH',
    path: '/apis/apps/v1/namespaces/prod/deployments/web/scale',
    contentType: 'application/merge-patch+json',
    body: { spec: { replicas: 4 } },
    extra: { replicas: 4 },
  },
  {
    action: 'flux.reconcile',
    target: ks,
    method: 'PATCH',
    path: '/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/flux-system/kustomizations/app',
    contentType: 'application/merge-patch+json',
    body: {
      metadata: {
        annotations: {
          'reconcile.fluxcd.io/requestedAt': '2026-05-04T03:02:01.123Z',
        },
      },
    },
  },
  {
    action: 'flux.suspend',
    target: ks,
    method: 'PATCH',
    path: '/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/flux-system/kustomizations/app',
    contentType: 'application/merge-patch+json',
    body: { spec: { suspend: true } },
  },
  {
    action: 'flux.resume',
    target: ks,
    method: 'PATCH',
    path: '/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/flux-system/kustomizations/app',
    contentType: 'application/merge-patch+json',
    body: { spec: { suspend: false } },
  },
];

function answer(
  status: number,
  seen: Array<{ method: string; type: string | null; body: unknown }>,
) {
  return http.all(`${KAS}/*`, async ({ request }) => {
    const text = await request.text();
    seen.push({
      method: `${request.method} ${new URL(request.url).pathname.replace(
        '/k8s-proxy',
        '',
      )}`,
      type: request.headers.get('content-type'),
      body: text ? JSON.parse(text) : undefined,
    });
    return HttpResponse.json(
      status < 300
        ? {
            apiVersion: 'v1',
            kind: 'Thing',
            metadata: { name: 'x', namespace: 'prod' },
          }
        : {
            kind: 'Status',
            status: 'Failure',
            code: status,
            message: `said ${status}`,
          },
      { status },
    );
  });
}

/** Every write allowed: ownership is the router's (targets.ts), tested there. */
const mayWrite = async () => undefined;

async function run(c: (typeof CASES)[number]) {
  return performAction(
    { action: c.action, target: c.target, ...c.extra },
    { kas, agent, object: objectOf(c.target), resources: [], mayWrite, now },
  );
}

describe.each(CASES)('$action', c => {
  it('sends exactly the request kubectl would, once', async () => {
    const seen: Array<{ method: string; type: string | null; body: unknown }> =
      [];
    server.use(answer(200, seen));
    const result = await run(c);
    expect(seen).toEqual([
      {
        method: `${c.method} ${c.path}`,
        type: c.contentType ?? null,
        body: c.body,
      },
    ]);
    expect(result.upstreamStatus).toBe(200);
    expect(result.response.kubectl).toMatch(/^kubectl /);
  });

  it.each<[number, GitlabEnvErrorCode]>([
    [403, 'ACTION_FORBIDDEN'],
    [404, 'OBJECT_NOT_FOUND'],
    [409, 'OBJECT_CONFLICT'],
    [422, 'ACTION_INVALID'],
    [503, 'UPSTREAM_ERROR'],
  ])(
    'answers HTTP %i as %s with a hint, without retrying',
    async (status, code) => {
      const seen: Array<{
        method: string;
        type: string | null;
        body: unknown;
      }> = [];
      server.use(answer(status, seen));
      const error = await run(c).catch(e => e);
      expect(error).toBeInstanceOf(GitlabEnvFailure);
      expect(error.detail).toMatchObject({ code, upstreamStatus: status });
      expect(error.detail.message).toContain(`said ${status}`);
      expect(error.detail.hint).toBeTruthy();
      expect(seen).toHaveLength(1);
    },
  );
});

describe('performAction checks', () => {
  it('refuses to restart a paused Deployment, as kubectl does, without a request', async () => {
    const seen: Array<{ method: string; type: string | null; body: unknown }> =
      [];
    server.use(answer(200, seen));
    const error = await performAction(
      { action: 'workload.restart', target: web },
      {
        kas,
        agent,
        object: objectOf(web, { spec: { paused: true } }),
        resources: [],
        mayWrite,
        now,
      },
    ).catch(e => e);
    expect(error.detail.code).toBe('OBJECT_CONFLICT');
    expect(error.detail.hint).toContain(
      'kubectl rollout resume deployment/web -n prod',
    );
    expect(seen).toEqual([]);
  });

  it('says unchanged when the object already is in the asked-for state', async () => {
    server.use(answer(200, []));
    const result = await performAction(
      { action: 'flux.suspend', target: ks },
      {
        kas,
        agent,
        object: objectOf(ks, { spec: { suspend: true } }),
        resources: [],
        mayWrite,
        now,
      },
    );
    expect(result.response.outcome).toBe('unchanged');
  });

  it("tells a change from the answer's resourceVersion, also when the held object is older than a write just made", async () => {
    const answering = (resourceVersion: string) =>
      http.all(`${KAS}/*`, () =>
        HttpResponse.json({
          apiVersion: ks.apiVersion,
          kind: ks.kind,
          metadata: { name: ks.name, namespace: ks.namespace, resourceVersion },
          spec: { suspend: false },
        }),
      );
    const resume = (held: Partial<KubernetesObject>) =>
      performAction(
        { action: 'flux.resume', target: ks },
        {
          kas,
          agent,
          object: objectOf(ks, held),
          resources: [],
          mayWrite,
          now,
        },
      );
    // Held before a suspend the watch has not delivered yet: not suspended.
    server.use(answering('12'));
    const afterSuspend = await resume({
      metadata: {
        name: ks.name,
        namespace: ks.namespace,
        resourceVersion: '10',
      },
      spec: { suspend: false },
    });
    expect(afterSuspend.response.outcome).toBe('changed');
    // The API server stored nothing: the answer's version is the held one.
    server.use(answering('10'));
    const nothingToDo = await resume({
      metadata: {
        name: ks.name,
        namespace: ks.namespace,
        resourceVersion: '10',
      },
      spec: { suspend: false },
    });
    expect(nothingToDo.response.outcome).toBe('unchanged');
  });

  it('asks before every write, the source of a reconcile first: a refused one sends nothing', async () => {
    const seen: Array<{ method: string; type: string | null; body: unknown }> =
      [];
    server.use(answer(200, seen));
    const asked: string[] = [];
    const error = await performAction(
      { action: 'flux.reconcile', target: ks, withSource: true },
      {
        kas,
        agent,
        object: objectOf(ks, {
          spec: { sourceRef: { kind: 'GitRepository', name: 'shared' } },
        }),
        resources: [],
        mayWrite: async target => {
          asked.push(`${target.kind}/${target.name}`);
          if (target.kind === 'GitRepository')
            throw failure('NOT_OWNED', 'shared source');
        },
        now,
      },
    ).catch(e => e);
    expect(error.detail.code).toBe('NOT_OWNED');
    expect(asked).toEqual(['GitRepository/shared']);
    expect(seen).toEqual([]);
  });

  it('names the source it cannot find for --with-source', async () => {
    const error = await performAction(
      { action: 'flux.reconcile', target: ks, withSource: true },
      {
        kas,
        agent,
        object: objectOf(ks, { spec: {} }),
        resources: [],
        mayWrite,
        now,
      },
    ).catch(e => e);
    expect(error.detail.code).toBe('ACTION_NOT_APPLICABLE');
  });

  it('refuses a source reference the cluster holds that breaks the Kubernetes grammar', async () => {
    const error = await performAction(
      { action: 'flux.reconcile', target: ks, withSource: true },
      {
        kas,
        agent,
        object: objectOf(ks, {
          spec: { sourceRef: { kind: 'GitRepository', name: '../x' } },
        }),
        resources: [],
        mayWrite,
        now,
      },
    ).catch(e => e);
    expect(error.detail.code).toBe('INVALID_ENVIRONMENT_SETTING');
  });
});
