import { registerMswTestHooks } from '@backstage/backend-test-utils';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { testConfig } from '../__testUtils__/serviceFixture';
import { GITLAB_URL } from '../__testUtils__/fakeGitlab';
import { InstanceProbe } from './InstanceProbe';

const server = setupServer();
registerMswTestHooks(server);

const instance = testConfig().instances[0];
const unlimited = <T>(fn: () => Promise<T>) => fn();

function gitlab(
  metadata: () => Response,
  token: () => Response = () =>
    HttpResponse.json({
      name: 'backstage',
      scopes: ['read_api', 'k8s_proxy'],
      expires_at: '2027-01-01',
      revoked: false,
    }),
) {
  const calls = { metadata: 0, token: 0 };
  server.use(
    http.get(`${GITLAB_URL}/api/v4/metadata`, () => {
      calls.metadata += 1;
      return metadata();
    }),
    http.get(`${GITLAB_URL}/api/v4/personal_access_tokens/self`, () => {
      calls.token += 1;
      return token();
    }),
  );
  return calls;
}

const metadataOf = (version: string, kas: Record<string, unknown>) => () =>
  HttpResponse.json({ version, revision: 'x', kas });

describe('InstanceProbe', () => {
  it('checks an instance once, and again after a failed check', async () => {
    let fail = true;
    const calls = gitlab(() =>
      fail
        ? HttpResponse.json({ message: 'boom' }, { status: 500 })
        : metadataOf('17.5.0', {
            enabled: true,
            externalUrl: 'wss://gitlab.test/-/kubernetes-agent/',
          })(),
    );
    const probe = new InstanceProbe(instance, 1000, unlimited);
    expect((await probe.facts()).checkError?.code).toBe('UPSTREAM_ERROR');
    fail = false;
    const facts = await probe.facts();
    expect(facts).toMatchObject({
      version: '17.5.0',
      kasUrl: 'https://gitlab.test/-/kubernetes-agent/k8s-proxy',
      kasSource: 'derived',
    });
    const before = calls.metadata;
    await Promise.all([probe.facts(), probe.facts()]);
    expect(calls.metadata).toBe(before);
    probe.invalidate();
    await probe.facts();
    expect(calls.metadata).toBe(before + 1);
  });

  it('takes kas.externalK8sProxyUrl from 17.6 on (doc/api/metadata.md)', async () => {
    gitlab(
      metadataOf('17.6.2', {
        enabled: true,
        externalUrl: 'wss://kas.gitlab.test',
        externalK8sProxyUrl: 'https://kas.gitlab.test/k8s-proxy/',
      }),
    );
    const facts = await new InstanceProbe(instance, 1000, unlimited).facts();
    expect(facts).toMatchObject({
      kasUrl: 'https://kas.gitlab.test/k8s-proxy/',
      kasSource: 'metadata',
    });
  });

  it('says KAS is off when the metadata says so', async () => {
    gitlab(metadataOf('18.0.0', { enabled: false }));
    const facts = await new InstanceProbe(instance, 1000, unlimited).facts();
    expect(facts).toMatchObject({ kasEnabled: false, kasSource: 'none' });
    expect(facts.kasUrl).toBeUndefined();
  });

  it.each([
    [
      'Token is expired. You can either do re-authorization or token refresh.',
      'TOKEN_EXPIRED',
    ],
    [
      'Token was revoked. You have to re-authorize from the user.',
      'TOKEN_REVOKED',
    ],
  ])(
    'names the token problem from api_guard.rb: %s',
    async (description, code) => {
      const refusal = () =>
        HttpResponse.json(
          { error: 'invalid_token', error_description: description },
          { status: 401 },
        );
      gitlab(refusal, refusal);
      const facts = await new InstanceProbe(instance, 1000, unlimited).facts();
      expect(facts.token.problem?.code).toBe(code);
    },
  );

  it('lists the scopes the token lacks; api counts for read_api, not for k8s_proxy', async () => {
    gitlab(metadataOf('17.0.0', { enabled: true }), () =>
      HttpResponse.json({ name: 'ci', scopes: ['api'], revoked: false }),
    );
    const facts = await new InstanceProbe(instance, 1000, unlimited).facts();
    expect(facts.token).toMatchObject({
      scopes: ['api'],
      missingScopes: ['k8s_proxy'],
    });
  });

  it('flags a GitLab older than 16.4', async () => {
    gitlab(metadataOf('16.3.1', { enabled: true }));
    const facts = await new InstanceProbe(instance, 1000, unlimited).facts();
    expect(facts.checkError?.code).toBe('GITLAB_VERSION_UNSUPPORTED');
  });
});
