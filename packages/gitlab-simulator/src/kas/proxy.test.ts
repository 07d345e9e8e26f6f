import { DEMO_TOKEN } from '../scenario/generate';
import {
  EDGE,
  kas,
  NONPROD,
  PROD_US,
  RESTRICTED,
  useSimulator,
  TEST_TUNNEL_FIND_TIMEOUT_MS,
} from '../testing/harness';

async function status(response: Response) {
  return {
    code: response.status,
    unauthorizedHeader: response.headers.get('gitlab-unauthorized'),
    body: (await response.json()) as any,
  };
}

describe('KAS Kubernetes API proxy', () => {
  const sim = useSimulator();
  const pods = '/api/v1/namespaces/storefront/pods';

  it('proxies an authorized pat:<agent>:<token> request to the agent cluster', async () => {
    const response = await kas(sim(), PROD_US, pods);
    expect(response.status).toBe(200);
    expect(response.headers.get('via')).toMatch(
      /^gRPC\/1\.0 gitlab-kas\/17\.11\.1/,
    );
    expect(((await response.json()) as any).kind).toBe('PodList');
  });

  it.each([
    ['no Authorization header', {}],
    ['a non-Bearer header', { Authorization: `Token ${DEMO_TOKEN}` }],
    ['a token without agent id', { Authorization: `Bearer ${DEMO_TOKEN}` }],
    ['an unknown token type', { Authorization: `Bearer oidc:1:${DEMO_TOKEN}` }],
    [
      'a non-numeric agent id',
      { Authorization: `Bearer pat:prod-us:${DEMO_TOKEN}` },
    ],
    ['an empty secret', { Authorization: 'Bearer pat:1:' }],
  ])('answers 401 with Gitlab-Unauthorized for %s', async (_, headers) => {
    const result = await status(
      await fetch(`${sim().kasProxyUrl}${pods}`, { headers }),
    );
    expect(result).toMatchObject({
      code: 401,
      unauthorizedHeader: 'true',
      body: { kind: 'Status', reason: 'Unauthorized', code: 401 },
    });
    expect(result.body.message).toMatch(
      /^GitLab Agent Server: Unauthorized: .+\. Trace ID: [0-9a-f]{32}$/,
    );
  });

  it.each([
    ['a token without the k8s_proxy scope', PROD_US, 'glpat-bot-no-k8s-proxy'],
    ['an expired token', PROD_US, 'glpat-bot-expired'],
    ['a user outside user_access (agent not shared)', RESTRICTED, DEMO_TOKEN],
    ['a user in no authorized group', NONPROD, 'glpat-outsider'],
    ['an agent id that does not exist', 42, DEMO_TOKEN],
  ])('answers the same plain 401 for %s', async (_, agent, token) => {
    const result = await status(await kas(sim(), agent, pods, {}, token));
    expect(result).toMatchObject({ code: 401, unauthorizedHeader: 'true' });
    expect(result.body.message).toMatch(
      /^GitLab Agent Server: Unauthorized\. Trace ID: /,
    );
  });

  it('answers 500 for a token string GitLab does not know, as KAS 16.5 does', async () => {
    const result = await status(
      await kas(sim(), PROD_US, pods, {}, 'glpat-never-issued'),
    );
    expect(result.code).toBe(500);
    expect(result.body.message).toMatch(
      /^GitLab Agent Server: Failed to authorize user session/,
    );
  });

  it('passes RBAC refusals of the cluster through as 403 without the GitLab header', async () => {
    // prod-us forbids secrets to agentk's service account.
    const result = await status(
      await kas(sim(), PROD_US, '/api/v1/namespaces/storefront/secrets'),
    );
    expect(result).toMatchObject({
      code: 403,
      unauthorizedHeader: null,
      body: { reason: 'Forbidden', details: { kind: 'secrets' } },
    });
    expect(result.body.message).toBe(
      'secrets is forbidden: User "system:serviceaccount:gitlab-agent:gitlab-agent" cannot list resource "secrets" in API group "" in the namespace "storefront"',
    );
    const get = await status(
      await kas(
        sim(),
        PROD_US,
        '/api/v1/namespaces/storefront/secrets/storefront-env',
      ),
    );
    expect(get.body.message).toContain(
      'secrets "storefront-env" is forbidden: User "system:serviceaccount:gitlab-agent:gitlab-agent" cannot get resource "secrets"',
    );
    const clusterWide = await status(
      await kas(sim(), PROD_US, '/api/v1/secrets'),
    );
    expect(clusterWide.body.message).toMatch(/at the cluster scope$/);
  });

  it('searches for a tunnel, then answers 502 when the agent is not connected (router_kas.go routingTunnelFindTimeout)', async () => {
    const started = Date.now();
    const result = await status(
      await kas(sim(), EDGE, '/api/v1/namespaces/search-dev/pods'),
    );
    expect(result.code).toBe(502);
    expect(result.unauthorizedHeader).toBeNull();
    expect(result.body.message).toMatch(
      /^GitLab Agent Server: HTTP->gRPC: failed to read gRPC response: rpc error: code = DeadlineExceeded desc = Agent connection not found\. Is agent up to date and connected\?\. Trace ID: /,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(
      TEST_TUNNEL_FIND_TIMEOUT_MS - 5,
    );
  });

  it('refuses foreign browser origins and answers CORS pre-flights', async () => {
    const foreign = await kas(sim(), PROD_US, pods, {
      headers: { Origin: 'http://backstage.example.com' },
    });
    expect(foreign.status).toBe(403);
    expect(await foreign.text()).toBe('');
    const preflight = await fetch(`${sim().kasProxyUrl}${pods}`, {
      method: 'OPTIONS',
      headers: { Origin: sim().url },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-max-age')).toBe('86400');
  });

  it('rejects paths outside the proxy prefix', async () => {
    const response = await fetch(`${sim().url}/-/kubernetes-agent/other`, {
      headers: { Authorization: `Bearer pat:1:${DEMO_TOKEN}` },
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as any).message).toBe(
      'GitLab Agent Server: Bad request: URL does not start with expected prefix',
    );
  });
});
