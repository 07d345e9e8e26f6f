import { HealthRule } from './rules';

/**
 * A health rule an adopter registers for one API group and kind (`''` for
 * the core group), from a backend module or compiled from app-config.
 * A group or kind with `*` (any text) or `?` (one character) is a pattern
 * matched against `group/Kind` (`Kind` for the core group), as Argo CD's
 * wildcard `resource.customizations` keys are: tried after the exact
 * rules, in the order registered.
 *
 * @public
 */
export interface HealthRuleRegistration {
  group: string;
  kind: string;
  rule: HealthRule;
  /** Where it was registered, for error messages (e.g. a module id or config key). */
  source?: string;
}

/**
 * Adopters' rules by group and kind. They are tried before the built-in
 * ones, as ArgoCD tries `resource.customizations` before its own scripts;
 * a rule returning undefined leaves the object to the built-in rules.
 *
 * @public
 */
export interface HealthRuleSet {
  ruleOf(group: string, kind: string): HealthRule | undefined;
  /** `group/Kind` of every rule, sorted. */
  keys(): string[];
}

const keyOf = (group: string, kind: string) => `${group}/${kind}`;
const isPattern = (text: string) => /[*?]/.test(text);
/** Argo CD's key of a group and kind. */
const argoKeyOf = (group: string, kind: string) =>
  group ? `${group}/${kind}` : kind;

/**
 * Glob match of `*` (any text, `/` included, as Argo CD's glob) and `?`:
 * the greedy two-pointer walk, linear in practice and never exponential
 * (a regular expression of several `.*` can backtrack badly).
 */
export function globMatches(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    if (p < pattern.length && (pattern[p] === '?' || pattern[p] === text[t])) {
      p++;
      t++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      resume = t;
    } else if (star >= 0) {
      p = star + 1;
      t = ++resume;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}

/**
 * The rule set of these registrations. Two rules for one group and kind are
 * an error naming both sources: which one should win is the adopter's call.
 *
 * @public
 */
export function createHealthRuleSet(
  registrations: Iterable<HealthRuleRegistration>,
): HealthRuleSet {
  const rules = new Map<string, HealthRuleRegistration>();
  const patterns: Array<{ key: string; rule: HealthRule }> = [];
  for (const registration of registrations) {
    const { group, kind, rule } = registration;
    if (typeof group !== 'string' || typeof kind !== 'string' || !kind)
      throw new Error(
        `A health rule needs a group (string, '' for core) and a kind, got ${JSON.stringify(
          { group, kind },
        )}`,
      );
    if (typeof rule !== 'function')
      throw new Error(
        `The health rule for ${keyOf(group, kind)} is not a function`,
      );
    const key = keyOf(group, kind);
    const earlier = rules.get(key);
    if (earlier)
      throw new Error(
        `Two health rules for ${key}: from ${
          earlier.source ?? 'a module'
        } and from ${registration.source ?? 'a module'}`,
      );
    rules.set(key, registration);
    if (isPattern(key)) patterns.push({ key: argoKeyOf(group, kind), rule });
  }
  const ruleOf = (group: string, kind: string): HealthRule | undefined => {
    if (rules.size === 0) return undefined;
    const key = keyOf(group, kind);
    const exact = rules.get(key);
    if (exact && !isPattern(key)) return exact.rule;
    if (patterns.length === 0) return undefined;
    const argoKey = argoKeyOf(group, kind);
    for (const pattern of patterns) {
      if (globMatches(pattern.key, argoKey)) return pattern.rule;
    }
    return undefined;
  };
  return {
    ruleOf,
    keys: () => [...rules.keys()].sort(),
  };
}
