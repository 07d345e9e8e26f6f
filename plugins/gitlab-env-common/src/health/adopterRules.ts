import { HealthRule } from './rules';

/**
 * A health rule an adopter registers for one API group and kind (`''` for
 * the core group), from a backend module or compiled from app-config.
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
  }
  return {
    ruleOf: (group, kind) =>
      rules.size === 0 ? undefined : rules.get(keyOf(group, kind))?.rule,
    keys: () => [...rules.keys()].sort(),
  };
}
