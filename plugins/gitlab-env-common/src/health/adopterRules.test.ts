import { createHealthRuleSet, globMatches } from './adopterRules';

describe('adopter rule sets', () => {
  it('matches globs as Argo CD does: * spans any text, / included; ? one character', () => {
    expect(globMatches('*.example.com/*', 'a.b.example.com/Widget')).toBe(true);
    expect(globMatches('*.example.com/*', 'example.com/Widget')).toBe(false);
    expect(globMatches('*Widget', 'tools.example.com/Widget')).toBe(true);
    expect(globMatches('W?dget', 'Widget')).toBe(true);
    expect(globMatches('W?dget', 'Wdget')).toBe(false);
    // Many stars on a long miss stay quick (no exponential backtracking).
    expect(globMatches('*a*a*a*a*a*a*a*a*b', 'a'.repeat(5000))).toBe(false);
  });

  it('tries exact rules first, then patterns in the order registered', () => {
    const exact = () => ({ status: 'Healthy' as const });
    const first = () => ({ status: 'Degraded' as const });
    const second = () => ({ status: 'Suspended' as const });
    const rules = createHealthRuleSet([
      { group: '*.example.com', kind: '*', rule: first },
      { group: 'tools.example.com', kind: 'Widget', rule: exact },
      { group: '', kind: '*', rule: second },
    ]);
    expect(rules.ruleOf('tools.example.com', 'Widget')).toBe(exact);
    expect(rules.ruleOf('tools.example.com', 'Gadget')).toBe(first);
    // `*` alone is Argo CD's key of any kind: core kinds included.
    expect(rules.ruleOf('', 'ConfigMap')).toBe(second);
    expect(rules.ruleOf('apps', 'Deployment')).toBe(second);
  });
});
