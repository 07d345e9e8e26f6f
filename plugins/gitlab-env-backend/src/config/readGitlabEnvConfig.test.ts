import { ConfigReader } from '@backstage/config';
import {
  DEFAULT_PLATFORM_NAMESPACES,
  readGitlabEnvConfig,
} from './readGitlabEnvConfig';

const read = (gitlabEnv: unknown) =>
  readGitlabEnvConfig(new ConfigReader({ gitlabEnv } as any));

describe('readGitlabEnvConfig', () => {
  it('resolves API URLs and defaults', () => {
    expect(
      read({
        instances: [
          { host: 'gitlab.com', baseUrl: 'https://gitlab.com/', token: 't' },
        ],
      }),
    ).toEqual({
      instances: [
        {
          host: 'gitlab.com',
          baseUrl: 'https://gitlab.com',
          apiBaseUrl: 'https://gitlab.com/api/v4',
          graphqlUrl: 'https://gitlab.com/api/graphql',
          kasProxyUrl: undefined,
          token: 't',
        },
      ],
      requestTimeoutMs: 10000,
      kasFirstRequestTimeoutMs: 25000,
      expectedForbiddenKinds: ['Secret'],
      cacheTtlSeconds: 30,
      transientCacheSeconds: 5,
      requestDeadlineMs: 30000,
      limits: {
        maxPagesPerList: 100,
        maxObjectsPerEnvironment: 20000,
        maxResponseBytes: 32 * 1024 * 1024,
      },
      concurrency: { perInstance: 256, perAgent: 32 },
      ciAccess: { namespaceOverflow: 'refuse' },
      ownership: {
        claims: [],
        platformNamespaces: DEFAULT_PLATFORM_NAMESPACES,
        claimsRefreshMs: 300_000,
      },
      namespaceMapping: { workloadAnnotations: 'acrossCluster' },
      overview: {
        clusterWideReads: true,
        clusterWideMinNamespaces: 3,
        deadlineMs: 30000,
      },
      live: {
        maxWatchesPerAgent: 20,
        graceMs: 30000,
        pollIntervalMs: 15000,
        watchTimeoutSeconds: 290,
        batchMs: 100,
        backoff: { initialMs: 500, maxMs: 30000 },
        heartbeatMs: 15000,
        maxEnvironmentsPerStream: 50,
      },
    });
  });

  it('reads the live settings in their units', () => {
    const config = readGitlabEnvConfig(
      new ConfigReader({
        gitlabEnv: {
          instances: [{ host: 'a', baseUrl: 'https://a' }],
          live: { maxWatchesPerAgent: 4, graceSeconds: 2, heartbeatSeconds: 5 },
        },
      }),
    );
    expect(config.live).toMatchObject({
      maxWatchesPerAgent: 4,
      graceMs: 2000,
      heartbeatMs: 5000,
    });
  });

  it('reads ciAccess.namespaceOverflow and refuses unknown values', () => {
    const base = {
      instances: [{ host: 'gitlab.com', baseUrl: 'https://gitlab.com' }],
    };
    expect(
      read({ ...base, ciAccess: { namespaceOverflow: 'truncate' } }).ciAccess,
    ).toEqual({
      namespaceOverflow: 'truncate',
    });
    expect(() =>
      read({ ...base, ciAccess: { namespaceOverflow: 'cut' } }),
    ).toThrow(
      "gitlabEnv.ciAccess.namespaceOverflow must be 'refuse' or 'truncate', got 'cut'",
    );
    expect(
      read({ ...base, namespaceMapping: { workloadAnnotations: 'off' } })
        .namespaceMapping,
    ).toEqual({ workloadAnnotations: 'off' });
    expect(() =>
      read({ ...base, namespaceMapping: { workloadAnnotations: 'all' } }),
    ).toThrow(
      "gitlabEnv.namespaceMapping.workloadAnnotations must be one of acrossCluster, knownNamespaces, off, got 'all'",
    );
  });

  it('keeps overrides', () => {
    const config = read({
      instances: [
        {
          host: 'git.corp',
          baseUrl: 'https://git.corp',
          apiBaseUrl: 'https://api.git.corp/gitlab/api/v4',
          kasProxyUrl: 'https://kas.git.corp/k8s-proxy/',
        },
      ],
      requestTimeoutMs: 500,
      cacheTtlSeconds: 5,
      concurrency: { perAgent: 2 },
      overview: { clusterWideReads: false },
      requestDeadlineMs: 9000,
      limits: { maxObjectsPerEnvironment: 50 },
    });
    expect(config.instances[0]).toMatchObject({
      graphqlUrl: 'https://api.git.corp/gitlab/api/graphql',
      kasProxyUrl: 'https://kas.git.corp/k8s-proxy',
      token: undefined,
    });
    expect(config.concurrency).toEqual({ perInstance: 256, perAgent: 2 });
    expect(config.overview).toEqual({
      clusterWideReads: false,
      clusterWideMinNamespaces: 3,
      deadlineMs: 30000,
    });
    // The namespace lookup keeps within the environments' namespaces too.
    expect(config.namespaceMapping).toEqual({
      workloadAnnotations: 'knownNamespaces',
    });
    expect(config.requestTimeoutMs).toBe(500);
    expect(config.requestDeadlineMs).toBe(9000);
    expect(config.limits).toEqual({
      maxPagesPerList: 100,
      maxObjectsPerEnvironment: 50,
      maxResponseBytes: 32 * 1024 * 1024,
    });
  });

  it.each([
    [undefined, 'gitlabEnv.instances must list at least one GitLab instance'],
    [{ instances: [] }, 'gitlabEnv.instances must list at least one'],
    [
      {
        instances: [
          { host: 'https://gitlab.com', baseUrl: 'https://gitlab.com' },
        ],
      },
      "gitlabEnv.instances[0].host must be the bare host name annotations use, e.g. gitlab.com, got 'https://gitlab.com'",
    ],
    [
      { instances: [{ host: 'gitlab.com' }] },
      "gitlabEnv.instances[0].baseUrl is missing; set GitLab's web URL, e.g. https://gitlab.com",
    ],
    [
      { instances: [{ host: 'gitlab.com', baseUrl: 'gitlab.com' }] },
      "gitlabEnv.instances[0].baseUrl must be an http(s) URL such as https://gitlab.com, got 'gitlab.com'",
    ],
    [
      {
        instances: [
          { host: 'a', baseUrl: 'https://a' },
          { host: 'a', baseUrl: 'https://b' },
        ],
      },
      "gitlabEnv.instances[1].host 'a' is configured twice",
    ],
    [
      { instances: [{ host: 'a', baseUrl: 'https://a' }], cacheTtlSeconds: -1 },
      'gitlabEnv.cacheTtlSeconds must be a positive number, got -1',
    ],
    [
      {
        instances: [{ host: 'a', baseUrl: 'https://a' }],
        concurrency: { perInstance: 0 },
      },
      'gitlabEnv.concurrency.perInstance must be a positive number, got 0',
    ],
    [
      {
        instances: [{ host: 'a', baseUrl: 'https://a' }],
        overview: { clusterWideMinNamespaces: 0 },
      },
      'gitlabEnv.overview.clusterWideMinNamespaces must be a positive number, got 0',
    ],
    [
      {
        instances: [{ host: 'a', baseUrl: 'https://a' }],
        ownership: { claims: [{ entity: 'checkout-api', project: 'x/y' }] },
      },
      "gitlabEnv.ownership.claims[0].entity must be a full entity ref such as component:default/checkout-api, got 'checkout-api'",
    ],
    [
      {
        instances: [{ host: 'a', baseUrl: 'https://a' }],
        ownership: {
          claims: [
            { entity: 'component:default/c', project: 'x/y', host: 'b' },
          ],
        },
      },
      "gitlabEnv.ownership.claims[0].host 'b' is not one of gitlabEnv.instances (a)",
    ],
    [
      {
        instances: [{ host: 'a', baseUrl: 'https://a' }],
        ownership: { platformNamespaces: ['kube-*', 'Bad_Name'] },
      },
      "gitlabEnv.ownership.platformNamespaces must list namespace names (a trailing * for a prefix), got 'Bad_Name'",
    ],
  ])('rejects %j: %s', (gitlabEnv, message) => {
    expect(() => read(gitlabEnv)).toThrow(message);
  });

  it('reads the pairings app-config vouches for, on the first instance by default', () => {
    const config = read({
      instances: [
        { host: 'a', baseUrl: 'https://a' },
        { host: 'b', baseUrl: 'https://b' },
      ],
      ownership: {
        claims: [
          { entity: 'Component:default/Checkout', project: 'shop/checkout' },
          { entity: 'component:ops/db', project: '42', host: 'b' },
        ],
        platformNamespaces: ['kube-*', 'agents'],
        claimsRefreshSeconds: 60,
      },
    });
    expect(config.ownership).toEqual({
      claims: [
        {
          entity: 'component:default/checkout',
          project: 'shop/checkout',
          host: 'a',
        },
        { entity: 'component:ops/db', project: '42', host: 'b' },
      ],
      platformNamespaces: ['kube-*', 'agents'],
      claimsRefreshMs: 60_000,
    });
  });
});
