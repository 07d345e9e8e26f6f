import {
  CiAccessDecision,
  CiAccessEntryRef,
  NamespaceCreator,
  StaleNamespace,
  StaleReason,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';

/** `groups[0] (acme)`, `projects[1] (acme/app)`, `instance`. */
export function describeEntry(ref: CiAccessEntryRef | undefined): string {
  if (!ref) return '—';
  if (ref.scope === 'instance') return 'instance';
  return `${ref.scope}[${ref.index}] (${ref.id})`;
}

/**
 * What decided: `rule 2` (1-based, as a person counts), the shipped control
 * that denied before any rule, `no rule matched`, or `no rules`.
 */
export function describeRule(decision: CiAccessDecision): string {
  if (decision.ruleIndex !== undefined) return `rule ${decision.ruleIndex + 1}`;
  switch (decision.denial) {
    case 'environment_not_allowed':
      return 'environments';
    case 'protected_branch_required':
      return 'protected_branches_only';
    case 'no_rule_matched':
      return 'no rule matched';
    case 'not_shared':
      return 'not shared';
    default:
      return decision.entry ? 'no rules' : '—';
  }
}

export const CREATOR_LABEL: Record<NamespaceCreator, string> = {
  gitlab_managed_resources: 'GitLab managed resources',
  flux: 'Flux',
  helm: 'Helm',
  kubectl: 'kubectl',
  unknown: 'unknown (kubectl create or API)',
};

const PRODUCED_BY: Record<StaleReason['producedBy'], string> = {
  rule: 'ci_access rule',
  managed_resources: 'managed resources',
  environment_namespace: 'environment namespace',
  label: 'GitLab label',
};

export function describeReason(reason: StaleReason): string {
  return `${PRODUCED_BY[reason.producedBy]} of ${reason.environment} (${
    reason.environmentState
  })`;
}

/** `1 Deployment, 2 Pods`: what a namespace holds, in a sentence. */
export function describeContents(contents: StaleNamespace['contents']): string {
  const parts = Object.entries(contents.counts)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([kind, count]) => `${count} ${kind}${count === 1 ? '' : 's'}`);
  return parts.length > 0 ? parts.join(', ') : 'nothing counted';
}
