import {
  EntityEnvironmentsResponse,
  GitlabEnvironment,
  HealthSummary,
} from '../types';
import { environmentsAnswer } from './environmentsAnswer';

const health = (
  status: HealthSummary['status'],
  counts: Partial<HealthSummary['counts']>,
): HealthSummary => ({
  status,
  counts: {
    Healthy: 0,
    Progressing: 0,
    Degraded: 0,
    Suspended: 0,
    Missing: 0,
    Unknown: 0,
    none: 0,
    ...counts,
  },
  total: Object.values(counts).reduce((a, b) => a + (b ?? 0), 0),
});

const environment = (
  name: string,
  extra: Partial<GitlabEnvironment> = {},
): GitlabEnvironment => ({
  id: `gid://gitlab/Environment/${name}`,
  name,
  slug: name.replace(/\//g, '-'),
  tier: name.startsWith('review/') ? 'development' : (name as any),
  state: 'available',
  ...extra,
});

const response: EntityEnvironmentsResponse = {
  entityRef: 'component:default/shop',
  project: {
    instance: 'gitlab.example.com',
    id: '1',
    fullPath: 'acme/shop',
    webUrl: 'https://gitlab.example.com/acme/shop',
  },
  environments: [
    environment('staging', {
      namespace: 'shop-staging',
      agent: { id: '2', name: 'nonprod' },
      health: health('Healthy', { Healthy: 12, none: 3 }),
    }),
    environment('production', {
      namespace: 'shop',
      agent: { id: '1', name: 'prod' },
      health: {
        ...health('Degraded', { Healthy: 40, Degraded: 2 }),
        partial: { reasons: ['Secrets could not be listed'] },
      },
      driftedCount: 1,
      lastDeployment: {
        iid: '7',
        status: 'success',
        ref: 'main',
        sha: '0123456789abcdef0123456789abcdef01234567',
        finishedAt: '2026-01-02T03:04:05Z',
      },
      actionScope: {
        platformNamespaces: [],
        repositories: [],
        entityRefusal: {
          code: 'CLAIM_UNVERIFIED',
          message: 'The entity’s claim on acme/shop is not verified.',
        },
      },
    }),
    environment('review/feature-1', {
      errors: [
        { code: 'NO_NAMESPACE', message: 'No namespace was found.' },
        // A refusal made on purpose is how the environment is set up: not listed.
        {
          code: 'KIND_FORBIDDEN',
          message: 'The agent may not read Secret.',
          expected: true,
        },
      ],
    }),
  ],
};

describe('environmentsAnswer', () => {
  it('gives one line per environment, production first, with health counts and why it is read-only', () => {
    const answer = environmentsAnswer(response);
    expect(answer).toEqual({
      entityRef: 'component:default/shop',
      project: 'gitlab.example.com/acme/shop',
      total: 3,
      more: 0,
      errors: undefined,
      environments: [
        expect.objectContaining({
          name: 'production',
          slug: 'production',
          namespace: 'shop',
          agent: 'prod',
          health: 'Degraded',
          counts: { Healthy: 40, Degraded: 2 },
          partial: true,
          drifted: 1,
          lastDeployment: {
            ref: 'main',
            sha: '01234567',
            status: 'success',
            finishedAt: '2026-01-02T03:04:05Z',
          },
          readOnly: 'The entity’s claim on acme/shop is not verified.',
        }),
        expect.objectContaining({
          name: 'staging',
          counts: { Healthy: 12 },
          readOnly: undefined,
        }),
        expect.objectContaining({
          name: 'review/feature-1',
          health: undefined,
          errors: ['NO_NAMESPACE: No namespace was found.'],
        }),
      ],
    });
  });

  it('pages: a limit from an offset, the rest counted', () => {
    const first = environmentsAnswer(response, 2);
    expect(first.environments.map(e => e.name)).toEqual([
      'production',
      'staging',
    ]);
    expect(first.more).toBe(1);
    const rest = environmentsAnswer(response, 2, 2);
    expect(rest.environments.map(e => e.name)).toEqual(['review/feature-1']);
    expect(rest.more).toBe(0);
  });

  it('stops the list before 8 KB however long its lines, the rest counted', () => {
    const long = 'x'.repeat(2000);
    const many: EntityEnvironmentsResponse = {
      ...response,
      environments: Array.from({ length: 50 }, (_, i) =>
        environment(`review/feature-${i}`, {
          errors: [1, 2, 3].map(() => ({
            code: 'UNKNOWN_INSTANCE' as const,
            message: long,
          })),
        }),
      ),
    };
    const answer = environmentsAnswer(many, 50);
    expect(
      new TextEncoder().encode(JSON.stringify(answer)).length,
    ).toBeLessThan(8 * 1024);
    expect(answer.environments.length).toBeGreaterThan(0);
    expect(answer.environments.length + answer.more).toBe(50);
    // The next page starts where this one stopped.
    const next = environmentsAnswer(many, 50, answer.environments.length);
    expect(next.environments[0].name).not.toBe(answer.environments[0].name);
  });
});
