/**
 * The `ci_access` part of an agent configuration file
 * (`.gitlab/agents/<agent>/config.yaml`), as documented in
 * https://docs.gitlab.com/user/clusters/agent/ci_cd_workflow/ and
 * https://docs.gitlab.com/user/clusters/agent/managed_kubernetes_resources/,
 * plus the proposed per-entry `rules`.
 */

export interface CiAccessRule {
  /** A CI `rules:if` expression; a rule without `if` always matches. */
  if?: string;
  /** The namespace a job matching this rule deploys to; `$VAR`/`${VAR}` expand. */
  namespace?: string;
  /** `never`: a job matching this rule is denied. */
  when?: string;
}

export interface CiAccessResourceManagement {
  enabled?: boolean;
}

export interface CiAccessEntry {
  /** Project or group full path; absent for `instance`. */
  id?: string;
  default_namespace?: string;
  access_as?: Record<string, unknown>;
  /** Environment names or `*` wildcards the entry is limited to. */
  environments?: string[];
  /** Only jobs on protected branches (or tags). */
  protected_branches_only?: boolean;
  resource_management?: CiAccessResourceManagement;
  rules?: CiAccessRule[];
}

export interface CiAccessConfig {
  projects?: CiAccessEntry[];
  groups?: CiAccessEntry[];
  instance?: CiAccessEntry;
}

/** Which entry of `ci_access` applies: `projects[index]`, `groups[index]` or `instance`. */
export interface CiAccessEntryRef {
  scope: 'projects' | 'groups' | 'instance';
  index: number;
  id?: string;
}

/** Where the namespace of a decision came from. */
export type CiAccessNamespaceSource =
  | 'rule'
  | 'default_namespace'
  | 'managed_resources';

export interface CiAccessNamespace {
  source: CiAccessNamespaceSource;
  /** The template as configured. */
  template: string;
  /** After variable expansion. */
  full: string;
  /** What is used: `full`, or its truncation. */
  final: string;
  truncated: boolean;
}

export type CiAccessDenial =
  | 'not_shared'
  | 'environment_not_allowed'
  | 'protected_branch_required'
  | 'when_never'
  | 'no_rule_matched'
  | 'rule_error'
  | 'invalid_namespace';

export interface CiAccessDecision {
  authorized: boolean;
  /** Why not, when not authorized. */
  denial?: CiAccessDenial;
  /** One sentence a person can act on. */
  message: string;
  entry?: CiAccessEntryRef;
  /** Index of the rule that decided; absent when the entry has no rules. */
  ruleIndex?: number;
  namespace?: CiAccessNamespace;
  /** Position-carrying errors of the rule expressions that were evaluated. */
  ruleErrors: Array<{ ruleIndex: number; message: string; position?: number }>;
}
