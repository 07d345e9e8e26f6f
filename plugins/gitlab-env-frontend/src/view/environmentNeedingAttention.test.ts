import {
  GitlabEnvironment,
  HealthStatus,
  HealthSummary,
  emptyHealthCounts,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { environmentNeedingAttention } from './environmentNeedingAttention';

function env(
  name: string,
  tier: GitlabEnvironment['tier'],
  status?: HealthStatus,
  state: GitlabEnvironment['state'] = 'available',
): GitlabEnvironment {
  const health: HealthSummary | undefined = status && {
    status,
    counts: { ...emptyHealthCounts(), [status]: 1 },
    total: 1,
  };
  return {
    id: name,
    name,
    slug: name.replace(/\W/g, '-'),
    state,
    tier,
    health,
  } as GitlabEnvironment;
}

const pick = (envs: GitlabEnvironment[]) =>
  environmentNeedingAttention(envs, e => e.health)?.name;

describe('environmentNeedingAttention', () => {
  it('opens the running environment with the worst health', () => {
    expect(
      pick([
        env('production', 'production', 'Healthy'),
        env('staging', 'staging', 'Degraded'),
        env('review/a', 'development', 'Progressing'),
      ]),
    ).toBe('staging');
  });

  it('breaks ties in the cards’ order, production first', () => {
    expect(
      pick([
        env('staging', 'staging', 'Healthy'),
        env('production', 'production', 'Healthy'),
      ]),
    ).toBe('production');
  });

  it('passes over stopped environments and those without a health', () => {
    expect(
      pick([
        env('production', 'production'),
        env('review/old', 'development', 'Unknown', 'stopped'),
        env('staging', 'staging', 'Suspended'),
      ]),
    ).toBe('staging');
  });

  it('falls back to the first running environment, then the first of all', () => {
    expect(
      pick([env('staging', 'staging'), env('production', 'production')]),
    ).toBe('production');
    expect(pick([env('review/old', 'development', undefined, 'stopped')])).toBe(
      'review/old',
    );
    expect(pick([])).toBeUndefined();
  });
});
