import fc from 'fast-check';
import {
  environmentMatches,
  evaluateCiAccess,
  evaluateCiAccessRules,
  expandCiVariables,
  managedResourceLabel,
  namespaceNameProblem,
  parseManagedResourceLabel,
  renderTemplateString,
  resolveNamespace,
  selectCiAccessEntry,
  truncateNamespaceName,
  DEFAULT_MANAGED_NAMESPACE_TEMPLATE,
} from '.';

const job = (over: Record<string, string> = {}) => ({
  CI_ENVIRONMENT_NAME: 'review/feature-x',
  CI_ENVIRONMENT_SLUG: 'review-feature-x-a1b2c3',
  CI_ENVIRONMENT_TIER: 'development',
  CI_PROJECT_PATH: 'acme/shop/storefront',
  CI_PROJECT_NAME: 'storefront',
  CI_PROJECT_ID: '101',
  CI_PROJECT_NAMESPACE: 'acme/shop',
  CI_COMMIT_REF_NAME: 'feature-x',
  CI_COMMIT_BRANCH: 'feature-x',
  CI_DEFAULT_BRANCH: 'main',
  CI_COMMIT_REF_PROTECTED: 'false',
  ...over,
});

describe('namespaces', () => {
  it('validates RFC 1123 labels of at most 63 characters', () => {
    expect(namespaceNameProblem('storefront-review')).toBeUndefined();
    expect(namespaceNameProblem('a'.repeat(63))).toBeUndefined();
    expect(namespaceNameProblem('a'.repeat(64))).toContain('64 characters');
    expect(namespaceNameProblem('Review')).toContain('RFC 1123');
    expect(namespaceNameProblem('review/x')).toContain('RFC 1123');
    expect(namespaceNameProblem('-x')).toContain('RFC 1123');
    expect(namespaceNameProblem('x-')).toContain('RFC 1123');
    expect(namespaceNameProblem('')).toBe('the name is empty');
  });

  it('expands $VAR and ${VAR} and lists unknown variables', () => {
    expect(expandCiVariables('$A-${B}-$C', { A: 'x', B: 'y' })).toEqual({
      value: 'x-y-',
      missing: ['C'],
    });
  });

  it('refuses an over-long name by default, with the advice to truncate', () => {
    const result = resolveNamespace('$P-$S', {
      P: 'p'.repeat(40),
      S: 's'.repeat(40),
    });
    expect(result).toMatchObject({
      ok: false,
      full: `${'p'.repeat(40)}-${'s'.repeat(40)}`,
    });
    expect(!result.ok && result.message).toContain('namespaceOverflow');
  });

  it('truncates predictably to 63 characters with a digest suffix', () => {
    const long = `${'a'.repeat(50)}-review-${'b'.repeat(20)}`;
    const once = truncateNamespaceName(long);
    expect(once).toHaveLength(63);
    expect(once).toBe(truncateNamespaceName(long));
    expect(once).toMatch(/^a{50}-rev-[0-9a-f]{8}$/);
    expect(truncateNamespaceName(`${long}x`)).not.toBe(once);
    expect(namespaceNameProblem(once)).toBeUndefined();
    const resolved = resolveNamespace('$N', { N: long }, 'truncate');
    expect(resolved).toEqual({
      ok: true,
      full: long,
      final: once,
      truncated: true,
    });
  });

  it('drops trailing dashes before the suffix so the label stays valid', () => {
    const name = `${'a'.repeat(53)}--${'b'.repeat(20)}`;
    expect(truncateNamespaceName(name)).toMatch(/^a{53}-[0-9a-f]{8}$/);
  });

  it('still refuses a truncated name that is invalid for another reason', () => {
    expect(
      resolveNamespace('$N', { N: 'A'.repeat(70) }, 'truncate'),
    ).toMatchObject({ ok: false });
  });

  it('refuses a template that expands to nothing', () => {
    const result = resolveNamespace('$NOPE', {});
    expect(result).toMatchObject({ ok: false, missingVariables: ['NOPE'] });
  });
});

describe('environments wildcards', () => {
  it.each([
    ['review/*', 'review/feature-x', true],
    ['review/*', 'review', false],
    ['production', 'production', true],
    ['production', 'production/eu', false],
    ['*', 'anything', true],
    ['prod*/eu', 'production/eu', true],
    ['a.b', 'axb', false],
  ] as const)('%s matches %s: %p', (pattern, name, expected) => {
    expect(environmentMatches(pattern, name)).toBe(expected);
  });
});

describe('managed resources', () => {
  it('builds and parses the environment label', () => {
    const label = managedResourceLabel('review-x-a1b2c3', 101, 3);
    expect(label).toBe('agent.gitlab.com/env-review-x-a1b2c3-101-3');
    expect(parseManagedResourceLabel(label)).toEqual({
      environmentSlug: 'review-x-a1b2c3',
      projectId: 101,
      agentId: 3,
    });
    expect(parseManagedResourceLabel('agent.gitlab.com/id-3')).toBeUndefined();
  });

  it('renders field references of the default template and refuses other actions', () => {
    const context = {
      environment: { name: 'review/x', slug: 'review-x' },
      project: { id: 101, path: 'acme/shop/storefront' },
      agent: { id: 3, name: 'nonprod' },
    };
    expect(
      renderTemplateString(DEFAULT_MANAGED_NAMESPACE_TEMPLATE, context),
    ).toEqual({
      value: 'review-x-101-3',
    });
    expect(renderTemplateString('{{ .nope.x }}', context)).toMatchObject({
      error: expect.any(String),
    });
    expect(renderTemplateString('{{ if .x }}', context)).toMatchObject({
      error: expect.any(String),
    });
  });
});

describe('evaluateCiAccessRules', () => {
  it('keeps GitLab behaviour for an entry without rules', () => {
    const decision = evaluateCiAccessRules(
      { id: 'acme', default_namespace: 'shop' },
      job(),
    );
    expect(decision).toMatchObject({
      authorized: true,
      namespace: { source: 'default_namespace', final: 'shop' },
    });
    expect(decision.ruleIndex).toBeUndefined();
    expect(evaluateCiAccessRules({ id: 'acme' }, job())).toMatchObject({
      authorized: true,
      namespace: undefined,
    });
  });

  it('takes the first matching rule and expands its namespace', () => {
    const decision = evaluateCiAccessRules(
      {
        id: 'acme',
        rules: [
          {
            if: '$CI_ENVIRONMENT_TIER == "production"',
            namespace: '$CI_PROJECT_NAME',
          },
          {
            if: '$CI_ENVIRONMENT_NAME =~ /^review\\//',
            namespace: '$CI_PROJECT_NAME-review',
          },
          { namespace: '$CI_PROJECT_NAME-$CI_ENVIRONMENT_SLUG' },
        ],
      },
      job(),
    );
    expect(decision).toMatchObject({
      authorized: true,
      ruleIndex: 1,
      namespace: {
        source: 'rule',
        template: '$CI_PROJECT_NAME-review',
        final: 'storefront-review',
      },
    });
  });

  it('denies on when: never', () => {
    const decision = evaluateCiAccessRules(
      {
        rules: [
          { if: '$CI_COMMIT_REF_PROTECTED != "true"', when: 'never' },
          { namespace: 'x' },
        ],
      },
      job(),
    );
    expect(decision).toMatchObject({
      authorized: false,
      denial: 'when_never',
      ruleIndex: 0,
    });
  });

  it('denies when rules exist but none matches, including an empty list', () => {
    expect(
      evaluateCiAccessRules(
        { rules: [{ if: '$CI_COMMIT_BRANCH == "main"' }] },
        job(),
      ),
    ).toMatchObject({ authorized: false, denial: 'no_rule_matched' });
    expect(evaluateCiAccessRules({ rules: [] }, job())).toMatchObject({
      authorized: false,
      denial: 'no_rule_matched',
    });
  });

  it('fails closed on a rule that does not parse, with the position', () => {
    const decision = evaluateCiAccessRules(
      {
        rules: [
          { if: '$CI_COMMIT_BRANCH = "main"', when: 'never' },
          { namespace: 'x' },
        ],
      },
      job(),
    );
    expect(decision).toMatchObject({
      authorized: false,
      denial: 'rule_error',
      ruleErrors: [{ ruleIndex: 0, position: 18 }],
    });
  });

  it('applies environments and protected_branches_only before the rules', () => {
    expect(
      evaluateCiAccessRules(
        { environments: ['production'], rules: [{ namespace: 'x' }] },
        job(),
      ),
    ).toMatchObject({ authorized: false, denial: 'environment_not_allowed' });
    expect(
      evaluateCiAccessRules({ protected_branches_only: true }, job()),
    ).toMatchObject({ authorized: false, denial: 'protected_branch_required' });
    expect(
      evaluateCiAccessRules(
        { protected_branches_only: true },
        job({ CI_COMMIT_REF_PROTECTED: 'true' }),
      ),
    ).toMatchObject({ authorized: true });
  });

  it('denies a matched rule whose namespace is invalid, naming the full name', () => {
    const decision = evaluateCiAccessRules(
      { rules: [{ namespace: '$CI_ENVIRONMENT_NAME' }] },
      job(),
    );
    expect(decision).toMatchObject({
      authorized: false,
      denial: 'invalid_namespace',
      ruleIndex: 0,
    });
    expect(decision.message).toContain('review/feature-x');
  });

  it('truncates when configured and shows both names', () => {
    const decision = evaluateCiAccessRules(
      { rules: [{ namespace: '$CI_PROJECT_NAME-$LONG' }] },
      job({ LONG: 'x'.repeat(80) }),
      { namespaceOverflow: 'truncate' },
    );
    expect(decision).toMatchObject({
      authorized: true,
      namespace: { truncated: true },
    });
    expect(decision.namespace!.full).toHaveLength(91);
    expect(decision.namespace!.final).toHaveLength(63);
  });

  it('uses the managed-resources namespace when resource management is on', () => {
    const decision = evaluateCiAccessRules(
      { resource_management: { enabled: true } },
      job(),
      {
        managedNamespace: {
          template: DEFAULT_MANAGED_NAMESPACE_TEMPLATE,
          context: {
            environment: {
              name: 'review/feature-x',
              slug: 'review-feature-x-a1b2c3',
            },
            project: { id: 101, path: 'acme/shop/storefront' },
            agent: { id: 3, name: 'nonprod' },
          },
        },
      },
    );
    expect(decision.namespace).toMatchObject({
      source: 'managed_resources',
      final: 'review-feature-x-a1b2c3-101-3',
    });
  });
});

describe('selectCiAccessEntry', () => {
  const config = {
    projects: [{ id: 'acme/shop/storefront', default_namespace: 'p' }],
    groups: [
      { id: 'acme', default_namespace: 'outer' },
      { id: 'acme/shop', default_namespace: 'inner' },
    ],
    instance: { default_namespace: 'instance' },
  };

  it('prefers the project entry, then the most specific group, then instance', () => {
    expect(selectCiAccessEntry(config, 'acme/shop/storefront')?.ref).toEqual({
      scope: 'projects',
      index: 0,
      id: 'acme/shop/storefront',
    });
    expect(selectCiAccessEntry(config, 'acme/shop/checkout')?.ref).toEqual({
      scope: 'groups',
      index: 1,
      id: 'acme/shop',
    });
    expect(selectCiAccessEntry(config, 'acme/platform/x')?.ref.id).toBe('acme');
    expect(selectCiAccessEntry(config, 'other/x')?.ref.scope).toBe('instance');
    expect(
      selectCiAccessEntry({ groups: [{ id: 'acme' }] }, 'acmeco/x'),
    ).toBeUndefined();
  });

  it('denies projects no entry shares the agent with', () => {
    expect(
      evaluateCiAccess({ groups: [{ id: 'x' }] }, 'acme/a', job()),
    ).toMatchObject({
      authorized: false,
      denial: 'not_shared',
    });
  });
});

describe('rule evaluation never throws', () => {
  it('reads a mapping whose toString is not a function (YAML can write one) as any other mapping', () => {
    const garbage = { toString: '' };
    for (const entry of [
      { environments: [garbage] },
      { rules: [{ if: garbage }] },
      { rules: [{ namespace: garbage }] },
      { default_namespace: garbage },
    ]) {
      const decision = evaluateCiAccessRules(entry as any, job(), {
        namespaceOverflow: 'refuse',
      });
      expect(typeof decision.authorized).toBe('boolean');
      expect(decision.message).not.toBe('');
    }
    expect(
      selectCiAccessEntry({ groups: [{ id: garbage as any }] }, 'acme/x'),
    ).toBeUndefined();
  });
});

describe('property: rule evaluation never throws', () => {
  it('decides for arbitrary entries and variables', () => {
    const rule = fc.record(
      {
        if: fc.oneof(
          fc.string(),
          fc.constant('$CI_ENVIRONMENT_NAME =~ /^review\\//'),
          fc.anything(),
        ),
        namespace: fc.oneof(
          fc.string(),
          fc.constant('$CI_PROJECT_NAME-$CI_ENVIRONMENT_SLUG'),
          fc.anything(),
        ),
        when: fc.oneof(fc.constant('never'), fc.anything()),
      },
      { requiredKeys: [] },
    );
    const entry = fc.oneof(
      fc.anything(),
      fc.record(
        {
          id: fc.anything(),
          default_namespace: fc.oneof(fc.string(), fc.anything()),
          environments: fc.oneof(fc.array(fc.string()), fc.anything()),
          protected_branches_only: fc.anything(),
          resource_management: fc.anything(),
          rules: fc.oneof(fc.array(rule), fc.anything()),
        },
        { requiredKeys: [] },
      ),
    );
    fc.assert(
      fc.property(
        entry,
        fc.dictionary(fc.string(), fc.string()),
        fc.constantFrom<'refuse' | 'truncate'>('refuse', 'truncate'),
        (e, vars, overflow) => {
          const decision = evaluateCiAccessRules(
            e as any,
            { ...job(), ...vars },
            { namespaceOverflow: overflow },
          );
          expect(typeof decision.authorized).toBe('boolean');
          expect(typeof decision.message).toBe('string');
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('names a malformed entry instead of authorizing it', () => {
    expect(evaluateCiAccessRules({ rules: 'x' } as any, job())).toMatchObject({
      authorized: false,
      denial: 'rule_error',
      message: expect.stringContaining('rules must be a list'),
    });
    expect(
      evaluateCiAccessRules({ environments: 'review/*' } as any, job()),
    ).toMatchObject({
      authorized: false,
      message: expect.stringContaining('environments must be a list'),
    });
  });
});
