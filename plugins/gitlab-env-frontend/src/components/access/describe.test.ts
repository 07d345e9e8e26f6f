import { CiAccessDecision } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { describeContents, describeEntry, describeRule } from './describe';

const decision = (over: Partial<CiAccessDecision>): CiAccessDecision => ({
  authorized: false,
  message: '',
  ruleErrors: [],
  entry: { scope: 'groups', index: 0, id: 'acme' },
  ...over,
});

describe('access view wording', () => {
  it('names what decided', () => {
    expect(describeRule(decision({ ruleIndex: 1 }))).toBe('rule 2');
    expect(describeRule(decision({ denial: 'environment_not_allowed' }))).toBe(
      'environments',
    );
    expect(
      describeRule(decision({ denial: 'protected_branch_required' })),
    ).toBe('protected_branches_only');
    expect(describeRule(decision({ denial: 'no_rule_matched' }))).toBe(
      'no rule matched',
    );
    expect(describeRule(decision({ authorized: true }))).toBe('no rules');
    expect(
      describeRule(decision({ entry: undefined, denial: 'not_shared' })),
    ).toBe('not shared');
  });

  it('names entries and contents', () => {
    expect(describeEntry({ scope: 'projects', index: 2, id: 'a/b' })).toBe(
      'projects[2] (a/b)',
    );
    expect(describeEntry({ scope: 'instance', index: 0 })).toBe('instance');
    expect(
      describeContents({
        counts: { Pod: 2, Deployment: 1 },
        total: 3,
        runningPods: 2,
        runningWorkloads: 1,
        uncounted: [],
      }),
    ).toBe('1 Deployment, 2 Pods');
  });
});
