import {
  DeploymentTier,
  evaluateCiAccess,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';
import { parseAgentConfigFile } from './agentConfigFile';
import { jobVariables } from './jobVariables';

// Every agent configuration of examples/scenarios/default, each case of the issue.
const AGENTS_DIR = join(
  __dirname,
  '../../../../examples/scenarios/default/agents',
);

function config(agent: string) {
  const file = join(AGENTS_DIR, agent, 'config.yaml');
  return parseAgentConfigFile(readFileSync(file, 'utf8'), file);
}

function decide(
  agent: string,
  projectPath: string,
  environment: { name: string; slug?: string; tier: DeploymentTier },
  branch = 'main',
  projectId = '101',
) {
  const variables = jobVariables({
    project: { id: projectId, fullPath: projectPath },
    defaultBranch: 'main',
    environment: { slug: environment.name.replace(/\//g, '-'), ...environment },
    branch,
    protectedBranches: ['main'],
  });
  return evaluateCiAccess(config(agent), projectPath, variables);
}

describe('example agent configurations', () => {
  it('all parse', () => {
    const agents = readdirSync(AGENTS_DIR);
    expect(agents.sort()).toEqual([
      'edge',
      'lab',
      'nonprod',
      'prod-eu',
      'prod-us',
      'restricted',
      'vault',
    ]);
    for (const agent of agents) expect(() => config(agent)).not.toThrow();
  });

  it('prod-eu: one namespace for all environments', () => {
    for (const name of ['production/eu-region', 'staging', 'review/x']) {
      expect(
        decide('prod-eu', 'acme/shop/storefront', { name, tier: 'staging' }),
      ).toMatchObject({
        authorized: true,
        ruleIndex: 0,
        namespace: { final: 'storefront' },
      });
    }
  });

  it('nonprod: review apps share a namespace, the rest one per environment slug', () => {
    expect(
      decide('nonprod', 'acme/shop/storefront', {
        name: 'review/a',
        tier: 'development',
      }),
    ).toMatchObject({
      ruleIndex: 0,
      namespace: { final: 'storefront-review' },
    });
    expect(
      decide('nonprod', 'acme/shop/storefront', {
        name: 'review/b',
        tier: 'development',
      }).namespace?.final,
    ).toBe('storefront-review');
    expect(
      decide('nonprod', 'acme/shop/checkout-api', {
        name: 'staging',
        tier: 'staging',
      }),
    ).toMatchObject({
      ruleIndex: 1,
      namespace: { final: 'checkout-api-staging' },
    });
    expect(
      decide('nonprod', 'acme/shop/storefront', {
        name: 'production',
        tier: 'production',
      }),
    ).toMatchObject({
      authorized: false,
      denial: 'environment_not_allowed',
    });
  });

  it('nonprod: notifications uses GitLab-managed resources through its own project entry', () => {
    const decision = decide('nonprod', 'acme/platform/notifications', {
      name: 'review/x',
      tier: 'development',
    });
    expect(decision).toMatchObject({
      authorized: true,
      entry: { scope: 'projects' },
    });
    expect(decision.ruleIndex).toBeUndefined();
  });

  it('prod-us: production only, from protected branches (when: never otherwise)', () => {
    expect(
      decide('prod-us', 'acme/shop/storefront', {
        name: 'production/us-region',
        tier: 'production',
      }),
    ).toMatchObject({
      authorized: true,
      ruleIndex: 2,
      namespace: { final: 'storefront' },
    });
    expect(
      decide('prod-us', 'acme/shop/checkout-api', {
        name: 'production',
        tier: 'production',
      }),
    ).toMatchObject({
      ruleIndex: 1,
      namespace: { final: 'checkout' },
    });
    expect(
      decide(
        'prod-us',
        'acme/shop/storefront',
        { name: 'production/us-region', tier: 'production' },
        'feature',
      ),
    ).toMatchObject({ authorized: false, denial: 'when_never', ruleIndex: 0 });
    // search-indexer's entry has no rules: GitLab's behaviour today.
    expect(
      decide('prod-us', 'acme/platform/search-indexer', {
        name: 'production',
        tier: 'production',
      }),
    ).toMatchObject({
      authorized: true,
      namespace: { source: 'default_namespace', final: 'search' },
    });
  });

  it('restricted: branch restriction with when: never, environment restriction without', () => {
    expect(
      decide('restricted', 'acme/platform/notifications', {
        name: 'production',
        tier: 'production',
      }),
    ).toMatchObject({
      authorized: true,
      ruleIndex: 1,
      namespace: { final: 'notifications' },
    });
    expect(
      decide(
        'restricted',
        'acme/platform/notifications',
        { name: 'production', tier: 'production' },
        'hotfix',
      ),
    ).toMatchObject({ authorized: false, denial: 'when_never', ruleIndex: 0 });
    expect(
      decide('restricted', 'acme/platform/notifications', {
        name: 'staging',
        tier: 'staging',
      }),
    ).toMatchObject({
      authorized: false,
      denial: 'no_rule_matched',
    });
  });

  it('edge: no ci_access at all shares the agent with nobody', () => {
    expect(
      decide('edge', 'acme/platform/search-indexer', {
        name: 'development',
        tier: 'development',
      }),
    ).toMatchObject({
      authorized: false,
      denial: 'not_shared',
    });
  });
});
