import { PATTERN_LIMITS } from '@gitlab-env/backstage-plugin-gitlab-env-common';

/**
 * The hostile values of issue #23 (findings 1, 5 and 6), in one place for
 * the unit and integration tests and the fault suite: patterns that make a
 * backtracking engine explode, the branch that sets them off, a huge agent
 * configuration and a YAML alias bomb.
 */

/** The `=~` rule of finding 1: nested quantifiers. */
export const HOSTILE_BRANCH_RULE =
  '$CI_COMMIT_BRANCH =~ /^(feature|fix)\\/([a-z0-9]+-?)+$/';

/** A branch that almost matches HOSTILE_BRANCH_RULE (its last character does not). */
export function hostileBranch(length = 36): string {
  return `feature/${'a'.repeat(length - 9)}_`;
}

/** The wildcard of finding 1: five stars that a RegExp translation tries every split of. */
export const HOSTILE_WILDCARD = 'a*a*a*a*a*b';

/** A name of GitLab's maximum length that HOSTILE_WILDCARD does not match. */
export const HOSTILE_NAME = 'a'.repeat(PATTERN_LIMITS.maxNameLength);

/**
 * A `ci_access` section for acme/shop/storefront with the hostile rule and
 * an environment wildcard; with protected branches `main` and
 * HOSTILE_WILDCARD, a branch gets: HOSTILE_BRANCH_RULE matches →
 * storefront-features; else protected → storefront-protected; else never.
 */
export const HOSTILE_CI_ACCESS = [
  'ci_access:',
  '  projects:',
  '    - id: acme/shop/storefront',
  `      environments: ['${HOSTILE_WILDCARD}', '*']`,
  '      rules:',
  `        - if: '${HOSTILE_BRANCH_RULE}'`,
  '          namespace: storefront-features',
  `        - if: '$CI_COMMIT_REF_PROTECTED == "true"'`,
  '          namespace: storefront-protected',
  '        - when: never',
  '',
].join('\n');

/** A "billion laughs" document: each level names the one before nine times. */
export function aliasBomb(levels = 9): string {
  const lines = ['a0: &a0 [lol]'];
  for (let i = 1; i <= levels; i++) {
    const refs = Array.from({ length: 9 }, () => `*a${i - 1}`).join(', ');
    lines.push(`a${i}: &a${i} [${refs}]`);
  }
  return `${lines.join(
    '\n',
  )}\nci_access:\n  projects:\n    - id: *a${levels}\n`;
}

/** A syntactically valid agent configuration of about `bytes` bytes (finding 5 used 26.7 MB). */
export function hugeAgentConfig(bytes: number): string {
  const head = 'ci_access:\n  projects:\n    - id: acme/shop/storefront\n';
  const line = `# ${'x'.repeat(76)}\n`;
  return head + line.repeat(Math.ceil((bytes - head.length) / line.length));
}
