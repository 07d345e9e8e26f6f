import { DEMO_TOKEN } from '../scenario/generate';
import { useSimulator } from '../testing/harness';

function get(
  url: string,
  token: string | null = DEMO_TOKEN,
  header = 'PRIVATE-TOKEN',
) {
  return fetch(url, { headers: token ? { [header]: token } : {} });
}

describe('GitLab REST API v4', () => {
  const sim = useSimulator();

  it('serves instance metadata with the KAS proxy URL, to authenticated callers only', async () => {
    const response = await get(
      `${sim().apiUrl}/metadata`,
      DEMO_TOKEN,
      'Authorization',
    );
    expect(response.status).toBe(401);
    const bearer = await fetch(`${sim().apiUrl}/metadata`, {
      headers: { Authorization: `Bearer ${DEMO_TOKEN}` },
    });
    expect(await bearer.json()).toEqual({
      version: '17.11.1-ee',
      revision: expect.any(String),
      kas: {
        enabled: true,
        externalUrl: expect.stringMatching(/^ws:/),
        externalK8sProxyUrl: sim().kasProxyUrl,
        version: '17.11.1',
      },
      enterprise: true,
    });
    expect((await get(`${sim().apiUrl}/metadata`, null)).status).toBe(401);
  });

  it('finds projects by id or URL-encoded path, with 404 for hidden ones', async () => {
    const byPath = await (
      await get(`${sim().apiUrl}/projects/acme%2Fshop%2Fcheckout-api`)
    ).json();
    expect(byPath).toMatchObject({
      id: 102,
      path_with_namespace: 'acme/shop/checkout-api',
      web_url: `${sim().url}/acme/shop/checkout-api`,
    });
    expect((await (await get(`${sim().apiUrl}/projects/102`)).json()).id).toBe(
      102,
    );
    const hidden = await get(`${sim().apiUrl}/projects/101`, 'glpat-outsider');
    expect(hidden.status).toBe(404);
    expect(await hidden.json()).toEqual({ message: '404 Project Not Found' });
  });

  it('lists environments page by page with Link and x-next-page headers', async () => {
    let url: string | undefined = `${
      sim().apiUrl
    }/projects/101/environments?per_page=2`;
    const names: string[] = [];
    const nextPages: string[] = [];
    while (url) {
      const response = await get(url);
      names.push(...((await response.json()) as any[]).map(e => e.name));
      nextPages.push(response.headers.get('x-next-page')!);
      expect(response.headers.get('x-total')).toBe('5');
      url = response.headers.get('link')?.match(/<([^>]+)>; rel="next"/)?.[1];
    }
    expect(names).toEqual([
      'production/eu-region',
      'production/us-region',
      'review/feature-cart',
      'review/old-checkout',
      'staging',
    ]);
    expect(nextPages).toEqual(['2', '3', '']);
  });

  it('returns environment details with the agent and the last deployment', async () => {
    const env = await (
      await get(`${sim().apiUrl}/projects/102/environments/1021`)
    ).json();
    expect(env).toMatchObject({
      id: 1021,
      name: 'production',
      tier: 'production',
      kubernetes_namespace: 'checkout',
      flux_resource_path:
        'kustomize.toolkit.fluxcd.io/v1/namespaces/flux-system/kustomizations/checkout-api',
      last_deployment: { iid: 212, ref: 'v3.8.2', status: 'success' },
      cluster_agent: {
        id: 1,
        name: 'prod-us',
        config_project: { path_with_namespace: 'acme/infra' },
      },
    });
    expect(
      (await get(`${sim().apiUrl}/projects/102/environments/9999`)).status,
    ).toBe(404);
  });

  it('serves agent configuration files raw from the config project', async () => {
    const alice = await get(
      `${
        sim().apiUrl
      }/projects/acme%2Finfra/repository/files/.gitlab%2Fagents%2Frestricted%2Fconfig.yaml/raw?ref=main`,
      'glpat-alice',
    );
    expect(alice.status).toBe(200);
    expect(await alice.text()).toContain('- id: acme/infra');
    // outsider is no member of acme/infra.
    expect(
      (
        await get(
          `${
            sim().apiUrl
          }/projects/acme%2Finfra/repository/files/.gitlab%2Fagents%2Frestricted%2Fconfig.yaml/raw`,
          'glpat-outsider',
        )
      ).status,
    ).toBe(404);
    const missing = await get(
      `${sim().apiUrl}/projects/100/repository/files/nope.yaml/raw`,
      'glpat-alice',
    );
    expect(await missing.json()).toEqual({ message: '404 File Not Found' });
  });

  it('rejects bad tokens and tokens without API scopes like GitLab', async () => {
    // lib/api/api_guard.rb: expired and revoked tokens are OAuth invalid_token errors with their own text.
    const answers = {
      'glpat-nope': { message: '401 Unauthorized' },
      'glpat-bot-expired': {
        error: 'invalid_token',
        error_description:
          'Token is expired. You can either do re-authorization or token refresh.',
      },
      'glpat-bot-revoked': {
        error: 'invalid_token',
        error_description:
          'Token was revoked. You have to re-authorize from the user.',
      },
    };
    for (const [token, body] of Object.entries(answers)) {
      const response = await get(`${sim().apiUrl}/user`, token);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual(body);
    }
    const readUser = await get(
      `${sim().apiUrl}/projects/101`,
      'glpat-bot-read-user',
    );
    expect(readUser.status).toBe(403);
    expect(await readUser.json()).toMatchObject({
      error: 'insufficient_scope',
    });
    expect(
      await (await get(`${sim().apiUrl}/user`, 'glpat-bot-read-user')).json(),
    ).toMatchObject({ username: 'backstage-bot' });
  });

  it('describes the calling token at /personal_access_tokens/self, whatever its scopes (self_information_api.rb)', async () => {
    const self = await get(
      `${sim().apiUrl}/personal_access_tokens/self`,
      'glpat-bot-no-k8s-proxy',
    );
    expect(self.status).toBe(200);
    expect(await self.json()).toMatchObject({
      name: 'no-k8s-proxy',
      scopes: ['read_api'],
      active: true,
      revoked: false,
      expires_at: null,
    });
    const readUser = await get(
      `${sim().apiUrl}/personal_access_tokens/self`,
      'glpat-bot-read-user',
    );
    expect(await readUser.json()).toMatchObject({ scopes: ['read_user'] });
  });
});
