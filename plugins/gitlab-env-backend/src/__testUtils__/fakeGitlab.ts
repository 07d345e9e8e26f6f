import { http, HttpResponse, RequestHandler } from 'msw';

/** A GitLab + KAS at the network boundary, for msw tests. */
export const GITLAB_URL = 'https://gitlab.test';
export const KAS_URL = 'https://gitlab.test/-/kubernetes-agent/k8s-proxy';
export const TOKEN = 'glpat-secret-test-token';

export interface FakeEnvironment {
  name: string;
  tier?: string;
  state?: string;
  namespace?: string | null;
  agentId?: string | null;
  fluxResourcePath?: string;
}

export function environmentNode(env: FakeEnvironment) {
  return {
    // GitLab ids are unique per environment; a sum of the name's characters is, for these fixtures.
    id: `gid://gitlab/Environment/${env.name.length}${[...env.name].reduce(
      (sum, c) => sum + c.charCodeAt(0),
      0,
    )}`,
    name: env.name,
    slug: env.name.replace(/[^a-z0-9]/g, '-'),
    tier: (env.tier ?? 'production').toUpperCase(),
    state: env.state ?? 'available',
    environmentType: env.name.includes('/') ? env.name.split('/')[0] : null,
    externalUrl: null,
    path: `/acme/app/-/environments/${env.name.length}`,
    autoStopAt: null,
    kubernetesNamespace: env.namespace === undefined ? 'app' : env.namespace,
    fluxResourcePath: env.fluxResourcePath ?? null,
    clusterAgent:
      env.agentId === null
        ? null
        : {
            id: `gid://gitlab/Clusters::Agent/${env.agentId ?? '1'}`,
            name: `agent-${env.agentId ?? '1'}`,
            webPath: '/acme/infra/-/cluster_agents/x',
            project: { fullPath: 'acme/infra' },
          },
    lastDeployment: null,
  };
}

export interface FakeGitlabOptions {
  environments?: FakeEnvironment[];
  /** Environments per GraphQL page. */
  pageSize?: number;
  kasEnabled?: boolean;
  /** What `/api/v4/metadata` says (default 17.11.0). */
  version?: string;
  /** The configured token's scopes (default read_api, k8s_proxy). */
  scopes?: string[];
}

/** REST `/metadata` and `/personal_access_tokens/self`, as GitLab 16.4+ answers them. */
function gitlabRest(options: FakeGitlabOptions, path: string) {
  const version = options.version ?? '17.11.0';
  if (path === '/api/v4/personal_access_tokens/self') {
    return HttpResponse.json({
      id: 1,
      name: 'backstage',
      revoked: false,
      active: true,
      scopes: options.scopes ?? ['read_api', 'k8s_proxy'],
      expires_at: '2027-01-01',
    });
  }
  if (path === '/api/v4/metadata') {
    const enabled = options.kasEnabled ?? true;
    const [major, minor] = version.split('.').map(Number);
    return HttpResponse.json({
      version,
      revision: 'abc',
      kas: {
        enabled,
        externalUrl: enabled ? 'wss://gitlab.test/-/kubernetes-agent/' : null,
        ...(major > 17 || (major === 17 && minor >= 6)
          ? { externalK8sProxyUrl: enabled ? KAS_URL : null }
          : {}),
        version: enabled ? version : null,
      },
      enterprise: false,
    });
  }
  return HttpResponse.json({ message: '404 Not Found' }, { status: 404 });
}

/** GitLab for one project `acme/app` (id 7): GraphQL, and the REST reads of the instance check. */
export function gitlabGraphql(options: FakeGitlabOptions = {}): RequestHandler {
  const environments = (options.environments ?? [{ name: 'production' }]).map(
    environmentNode,
  );
  const pageSize = options.pageSize ?? 100;
  return http.all(`${GITLAB_URL}/api/*`, async ({ request }) => {
    const path = new URL(request.url).pathname;
    if (request.method === 'GET' && path.startsWith('/api/v4/')) {
      if (request.headers.get('authorization') !== `Bearer ${TOKEN}`) {
        return HttpResponse.json(
          { message: '401 Unauthorized' },
          { status: 401 },
        );
      }
      return gitlabRest(options, path);
    }
    if (request.headers.get('authorization') !== `Bearer ${TOKEN}`) {
      return HttpResponse.json(
        { errors: [{ message: 'Invalid token' }] },
        { status: 401 },
      );
    }
    const { variables } = (await request.json()) as any;
    const found =
      variables.fullPath === 'acme/app' ||
      variables.ids?.[0] === 'gid://gitlab/Project/7';
    const start = variables.after ? Number(variables.after) : 0;
    const page = environments.slice(start, start + pageSize);
    const project = found
      ? {
          id: 'gid://gitlab/Project/7',
          fullPath: 'acme/app',
          webUrl: `${GITLAB_URL}/acme/app`,
          environments: {
            pageInfo: {
              hasNextPage: start + pageSize < environments.length,
              endCursor: String(start + pageSize),
            },
            nodes: page,
          },
        }
      : null;
    const data: Record<string, unknown> = variables.fullPath
      ? { project }
      : { projects: { nodes: project ? [project] : [] } };
    return HttpResponse.json({ data });
  });
}

/** A list item as kube-apiserver sends it: no kind or apiVersion. */
export function item(name: string, extra: Record<string, unknown> = {}) {
  return {
    metadata: { name, namespace: 'app', uid: `uid-${name}`, ...extra },
  };
}

export interface FakeClusterOptions {
  /** Items per `<group>/<plural>` (core group: `/pods`). */
  items?: Record<string, unknown[]>;
  /** Items per page of `limit`/`continue` pagination. */
  pageSize?: number;
  forbidden?: string[];
  extraObjects?: Record<string, unknown>;
}

const RESOURCES: Record<string, { kind: string; name: string }[]> = {
  '/api/v1': [
    { name: 'pods', kind: 'Pod' },
    { name: 'secrets', kind: 'Secret' },
  ],
  '/apis/apps/v1': [{ name: 'deployments', kind: 'Deployment' }],
};

/** KAS with a cluster serving discovery and namespaced lists. */
export function kasCluster(options: FakeClusterOptions = {}): RequestHandler[] {
  const pageSize = options.pageSize ?? 500;
  return [
    http.get(`${KAS_URL}/apis`, () =>
      HttpResponse.json({
        kind: 'APIGroupList',
        groups: [
          { name: 'apps', preferredVersion: { version: 'v1' } },
          { name: 'events.k8s.io', preferredVersion: { version: 'v1' } },
        ],
      }),
    ),
    ...Object.entries(RESOURCES).map(([path, resources]) =>
      http.get(`${KAS_URL}${path}`, () =>
        HttpResponse.json({
          kind: 'APIResourceList',
          resources: [
            ...resources.map(r => ({
              ...r,
              namespaced: true,
              verbs: ['get', 'list', 'watch'],
            })),
            { name: 'pods/log', kind: 'Pod', namespaced: true, verbs: ['get'] },
            { name: 'nodes', kind: 'Node', namespaced: false, verbs: ['list'] },
          ],
        }),
      ),
    ),
    http.get(
      `${KAS_URL}/apis/:group/:version/namespaces/:ns/:plural/:name`,
      ({ params }) => {
        const object = options.extraObjects?.[`${params.ns}/${params.name}`];
        return object
          ? HttpResponse.json(object)
          : HttpResponse.json({ kind: 'Status', code: 404 }, { status: 404 });
      },
    ),
    http.get(`${KAS_URL}/*/namespaces/:ns/:plural`, ({ request, params }) => {
      const url = new URL(request.url);
      const group = url.pathname.includes('/apis/apps/') ? 'apps' : '';
      const key = `${group}/${params.plural}`;
      const basePath = url.pathname
        .slice(new URL(KAS_URL).pathname.length)
        .split('/namespaces/')[0];
      const kind = RESOURCES[basePath]?.find(
        r => r.name === params.plural,
      )?.kind;
      // A resource the API server does not serve, as kube-apiserver answers it.
      if (!kind)
        return HttpResponse.json(
          {
            kind: 'Status',
            apiVersion: 'v1',
            status: 'Failure',
            message: 'the server could not find the requested resource',
            reason: 'NotFound',
            code: 404,
          },
          { status: 404 },
        );
      if (options.forbidden?.includes(String(params.plural))) {
        return HttpResponse.json(
          {
            kind: 'Status',
            code: 403,
            message: `${params.plural} is forbidden`,
          },
          { status: 403 },
        );
      }
      const all = options.items?.[key] ?? [];
      const selector = url.searchParams.get('labelSelector');
      const matching = selector
        ? all.filter((o: any) => {
            const [k, v] = selector.split('=');
            return o.metadata.labels?.[k] === v;
          })
        : all;
      const start = Number(url.searchParams.get('continue') ?? 0);
      const next = start + pageSize;
      return HttpResponse.json({
        kind: `${kind}List`,
        apiVersion: group ? 'apps/v1' : 'v1',
        metadata: {
          continue: next < matching.length ? String(next) : undefined,
        },
        items: matching.slice(start, next),
      });
    }),
  ];
}
