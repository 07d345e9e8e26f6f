import { createHealthRuleSet } from './adopterRules';
import { computeHealth } from './computeHealth';
import { parseDeclarativeHealthRules } from './declarative';
import { condition, manifest } from './__testUtils__/objects';

/** The example of examples/app-config.health-rules.yaml, for CloudNativePG. */
const CNPG = {
  group: 'postgresql.cnpg.io',
  kind: 'Cluster',
  suspended: [
    { field: 'metadata.annotations.cnpg\\.io/hibernation', values: ['on'] },
  ],
  degraded: [
    { condition: 'Ready', status: 'False', reasons: ['ClusterIsNotReady'] },
    { field: 'status.phase', values: ['Failed', 'Unrecoverable'] },
  ],
  progressing: [{ condition: 'Ready', status: 'False' }],
  healthy: [{ condition: 'Ready' }],
  message: ['status.phaseReason'],
};

const cluster = (status: object) =>
  manifest('postgresql.cnpg.io/v1', 'Cluster', { instances: 3 }, status);

function healthWith(rules: unknown[], obj: object) {
  return computeHealth(obj as any, {
    rules: createHealthRuleSet(parseDeclarativeHealthRules(rules)),
  });
}

describe('declarative health rules (app-config)', () => {
  it('maps conditions and reasons to statuses, worst first, marked as an adopter rule', () => {
    expect(
      healthWith(
        [CNPG],
        cluster({
          phaseReason: 'Primary instance is being restarted',
          conditions: [condition('Ready', 'False', 'ClusterIsNotReady')],
        }),
      ),
    ).toEqual({
      status: 'Degraded',
      message: 'Primary instance is being restarted',
      origin: 'adopter',
    });
    expect(
      healthWith(
        [CNPG],
        cluster({
          conditions: [
            condition('Ready', 'False', 'Creating', 'creating pods'),
          ],
        }),
      ),
    ).toEqual({
      status: 'Progressing',
      message: 'creating pods',
      origin: 'adopter',
    });
    expect(
      healthWith(
        [CNPG],
        cluster({ conditions: [condition('Ready', 'True', 'ClusterIsReady')] }),
      ),
    ).toEqual({
      status: 'Healthy',
      message: 'ClusterIsReady',
      origin: 'adopter',
    });
  });

  it('reads annotation paths with escaped dots', () => {
    expect(
      healthWith(
        [CNPG],
        manifest(
          'postgresql.cnpg.io/v1',
          'Cluster',
          {},
          { conditions: [condition('Ready', 'True')] },
          { annotations: { 'cnpg.io/hibernation': 'on' } },
        ),
      )?.status,
    ).toBe('Suspended');
  });

  it('matches fields by value, as strings', () => {
    expect(
      healthWith(
        [
          {
            group: 'example.com',
            kind: 'Widget',
            healthy: [{ field: 'status.ok', values: [true] }],
          },
        ],
        manifest('example.com/v1', 'Widget', {}, { ok: true }),
      )?.status,
    ).toBe('Healthy');
    expect(
      healthWith(
        [CNPG],
        cluster({ phase: 'Failed', conditions: [condition('Ready', 'True')] }),
      )?.status,
    ).toBe('Degraded');
  });

  it('says Unknown when nothing matches, unless told otherwise', () => {
    expect(
      healthWith([CNPG], cluster({ phase: 'Setting up primary' })),
    ).toEqual({
      status: 'Unknown',
      message:
        'None of the states gitlabEnv.health.rules gives for postgresql.cnpg.io/Cluster matches this object',
      origin: 'adopter',
    });
    expect(
      healthWith(
        [{ ...CNPG, otherwise: 'Progressing' }],
        cluster({ phase: 'Setting up primary' }),
      )?.status,
    ).toBe('Progressing');
  });

  it('overrides a built-in rule for the same group and kind', () => {
    const rule = {
      group: 'apps',
      kind: 'Deployment',
      healthy: [{ field: 'metadata.name', values: ['web'] }],
    };
    expect(
      healthWith([rule], manifest('apps/v1', 'Deployment', { paused: true })),
    ).toEqual({ status: 'Healthy', origin: 'adopter' });
  });

  it('rejects malformed rules with every problem named by its key', () => {
    expect(() =>
      parseDeclarativeHealthRules([
        {
          group: 'x.io',
          kind: 'Thing',
          healthy: [{ condition: 'Ready', status: true }],
        },
        { group: 'x.io', kind: 'Thing', degraded: [{ feld: 'status.phase' }] },
        { kind: 'Other', helthy: [] },
        {
          group: 'y.io',
          kind: 'Y',
          healthy: [{ field: 'status..phase', values: [] }],
          otherwise: 'Fine',
        },
      ]),
    ).toThrow(
      [
        'Invalid health rules:',
        '- gitlabEnv.health.rules[0].healthy[0].status must be "True", "False" or "Unknown" (quoted in YAML), got true',
        `- gitlabEnv.health.rules[1].degraded[0] needs exactly one of 'condition' or 'field', got keys ["feld"]`,
        '- gitlabEnv.health.rules[2].helthy is not a setting of a health rule (group, kind, message, otherwise, suspended, degraded, progressing, healthy)',
        "- gitlabEnv.health.rules[2].group must be the API group, e.g. postgresql.cnpg.io ('' for the core group)",
        '- gitlabEnv.health.rules[2] gives no state: add matches under healthy, progressing, degraded or suspended',
        '- gitlabEnv.health.rules[3].healthy[0].field must be a dotted path such as status.phase, got "status..phase"',
        '- gitlabEnv.health.rules[3].healthy[0].values must be a non-empty list of scalars',
        '- gitlabEnv.health.rules[3].otherwise must be one of Healthy, Suspended, Progressing, Degraded, Unknown, got "Fine"',
        '- gitlabEnv.health.rules[1] repeats x.io/Thing, already given by gitlabEnv.health.rules[0]',
      ].join('\n'),
    );
    expect(() => parseDeclarativeHealthRules({ group: 'x' })).toThrow(
      'gitlabEnv.health.rules must be a list of health rules',
    );
    // YAML can write a mapping whose toString is no function (found by fuzz.test.ts).
    for (const odd of [{ toString: '' }, { valueOf: 1, toString: null }])
      expect(() =>
        parseDeclarativeHealthRules([
          {
            group: odd,
            kind: odd,
            healthy: [{ field: 'status.phase', values: ['Up'] }],
          },
          {
            group: odd,
            kind: odd,
            healthy: [{ field: 'status.phase', values: ['Up'] }],
          },
        ]),
      ).toThrow(
        /rules\[0\]\.group must be the API group(.|\n)*rules\[1\]\.kind must be a kind/,
      );
    expect(parseDeclarativeHealthRules(undefined)).toEqual([]);
  });
});
