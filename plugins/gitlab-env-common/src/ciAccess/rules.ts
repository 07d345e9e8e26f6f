import { stringOf } from '../k8s/objects';
import { evaluateCiExpression } from './evaluate';
import { environmentAllowed } from './environments';
import { PatternLimitError } from './patternLimits';
import {
  EnvironmentTemplateContext,
  renderTemplateString,
} from './managedResources';
import {
  namespaceNameProblem,
  NamespaceOverflow,
  resolveNamespace,
} from './namespace';
import {
  CiAccessConfig,
  CiAccessDecision,
  CiAccessEntry,
  CiAccessEntryRef,
  CiAccessNamespace,
} from './types';

/** @public */
export interface EvaluateCiAccessOptions {
  /** How to handle expanded names longer than 63 characters; default `refuse`. */
  namespaceOverflow?: NamespaceOverflow;
  /**
   * With `resource_management.enabled`: the Namespace name of the
   * environment template in effect and the values it is rendered with.
   */
  managedNamespace?: { template: string; context: EnvironmentTemplateContext };
}

type NamespaceOutcome =
  | { namespace?: CiAccessNamespace }
  | { invalid: string; namespace?: CiAccessNamespace };

function ruleNamespace(
  template: string,
  variables: Record<string, string>,
  overflow: NamespaceOverflow,
): NamespaceOutcome {
  const resolved = resolveNamespace(template, variables, overflow);
  if (!resolved.ok) return { invalid: resolved.message };
  return {
    namespace: {
      source: 'rule',
      template,
      full: resolved.full,
      final: resolved.final,
      truncated: resolved.truncated,
    },
  };
}

/** The namespace when no rule names one: managed resources first, then `default_namespace`. */
function fallbackNamespace(
  entry: CiAccessEntry,
  options: EvaluateCiAccessOptions,
): NamespaceOutcome {
  const overflow = options.namespaceOverflow ?? 'refuse';
  if (entry.resource_management?.enabled && options.managedNamespace) {
    const { template, context } = options.managedNamespace;
    const rendered = renderTemplateString(template, context);
    if ('error' in rendered)
      return { invalid: `Environment template: ${rendered.error}` };
    const resolved = resolveNamespace(rendered.value, {}, overflow);
    if (!resolved.ok) return { invalid: resolved.message };
    return {
      namespace: {
        source: 'managed_resources',
        template,
        full: resolved.full,
        final: resolved.final,
        truncated: resolved.truncated,
      },
    };
  }
  const name = entry.default_namespace;
  if (name === undefined || name === null || name === '') return {};
  const problem = namespaceNameProblem(stringOf(name));
  const namespace: CiAccessNamespace = {
    source: 'default_namespace',
    template: stringOf(name),
    full: stringOf(name),
    final: stringOf(name),
    truncated: false,
  };
  return problem
    ? { invalid: `default_namespace ${problem}`, namespace }
    : { namespace };
}

/**
 * Entries typed by a person (the "try it" box) or read without checks may
 * hold anything; name the first shape problem instead of guessing.
 */
function malformedEntry(entry: unknown): string | undefined {
  if (!entry || typeof entry !== 'object' || Array.isArray(entry)) {
    return 'an entry must be a map';
  }
  const { environments, rules } = entry as Record<string, unknown>;
  if (
    environments !== undefined &&
    environments !== null &&
    !Array.isArray(environments)
  ) {
    return 'environments must be a list';
  }
  if (rules === undefined || rules === null) return undefined;
  if (!Array.isArray(rules)) return 'rules must be a list';
  const index = rules.findIndex(
    r => !r || typeof r !== 'object' || Array.isArray(r),
  );
  return index >= 0 ? `rule ${index + 1} must be a map` : undefined;
}

function describeRef(ref?: CiAccessEntryRef): string {
  if (!ref) return 'the entry';
  return ref.scope === 'instance'
    ? 'ci_access.instance'
    : `ci_access.${ref.scope}[${ref.index}] (${stringOf(ref.id)})`;
}

/**
 * Decides for one `ci_access` entry whether a CI job with these variables
 * may use the agent, and in which namespace. GitLab's shipped controls
 * (`environments`, `protected_branches_only`) gate first; then `rules` are
 * evaluated in order and the first match decides (`when: never` denies).
 * An entry with rules of which none match denies; an entry without `rules`
 * keeps GitLab's behaviour. A rule whose `if` does not parse denies (fail
 * closed): it might have been the `when: never` meant to stop this job.
 * Pure; never throws.
 *
 * @public
 */
export function evaluateCiAccessRules(
  entry: CiAccessEntry,
  variables: Record<string, string>,
  options: EvaluateCiAccessOptions & { entryRef?: CiAccessEntryRef } = {},
): CiAccessDecision {
  const ref = options.entryRef;
  const where = describeRef(ref);
  const base = { entry: ref, ruleErrors: [] as CiAccessDecision['ruleErrors'] };
  const malformed = malformedEntry(entry);
  if (malformed) {
    return {
      ...base,
      authorized: false,
      denial: 'rule_error',
      message: `${where}: ${malformed}`,
    };
  }
  const environment = variables.CI_ENVIRONMENT_NAME;
  let allowed: boolean;
  try {
    allowed = environmentAllowed(entry.environments, environment);
  } catch (error) {
    if (!(error instanceof PatternLimitError)) throw error;
    return {
      ...base,
      authorized: false,
      denial: 'rule_error',
      message: `${where}: ${error.message}. Jobs are denied until it is fixed.`,
    };
  }
  if (!allowed) {
    return {
      ...base,
      authorized: false,
      denial: 'environment_not_allowed',
      message: `${where} allows only the environments ${(
        entry.environments ?? []
      )
        .map(e => `"${stringOf(e)}"`)
        .join(', ')}; "${environment ?? '(none)'}" is not one of them.`,
    };
  }
  if (
    entry.protected_branches_only &&
    variables.CI_COMMIT_REF_PROTECTED !== 'true'
  ) {
    return {
      ...base,
      authorized: false,
      denial: 'protected_branch_required',
      message: `${where} has protected_branches_only: "${
        variables.CI_COMMIT_REF_NAME ?? '(no ref)'
      }" is not protected.`,
    };
  }
  const overflow = options.namespaceOverflow ?? 'refuse';
  if (!Array.isArray(entry.rules)) {
    const outcome = fallbackNamespace(entry, options);
    if ('invalid' in outcome) {
      return {
        ...base,
        ...outcome,
        authorized: false,
        denial: 'invalid_namespace',
        message: outcome.invalid,
      };
    }
    return {
      ...base,
      authorized: true,
      namespace: outcome.namespace,
      message: `${where} has no rules: jobs are authorized as GitLab does today.`,
    };
  }
  for (let index = 0; index < entry.rules.length; index++) {
    const rule = entry.rules[index] ?? {};
    if (rule.if !== undefined && rule.if !== null) {
      const result = evaluateCiExpression(stringOf(rule.if), variables);
      if ('error' in result) {
        return {
          ...base,
          ruleErrors: [{ ruleIndex: index, ...result.error }],
          ruleIndex: index,
          authorized: false,
          denial: 'rule_error',
          message: `Rule ${index + 1} of ${where} does not parse: ${
            result.error.message
          }. Jobs are denied until it is fixed.`,
        };
      }
      if (!result.value) continue;
    }
    if (rule.when === 'never') {
      return {
        ...base,
        ruleIndex: index,
        authorized: false,
        denial: 'when_never',
        message: `Rule ${index + 1} of ${where} matched with when: never.`,
      };
    }
    const outcome =
      rule.namespace !== undefined && rule.namespace !== null
        ? ruleNamespace(stringOf(rule.namespace), variables, overflow)
        : fallbackNamespace(entry, options);
    if ('invalid' in outcome) {
      return {
        ...base,
        ...outcome,
        ruleIndex: index,
        authorized: false,
        denial: 'invalid_namespace',
        message: `Rule ${index + 1} of ${where} matched, but ${
          outcome.invalid
        }`,
      };
    }
    return {
      ...base,
      ruleIndex: index,
      authorized: true,
      namespace: outcome.namespace,
      message: `Rule ${index + 1} of ${where} matched.`,
    };
  }
  return {
    ...base,
    authorized: false,
    denial: 'no_rule_matched',
    message: `None of the ${entry.rules.length} rules of ${where} matched.`,
  };
}

function sameGroupOrAncestor(groupPath: string, projectPath: string): boolean {
  const group = groupPath.toLowerCase().replace(/\/+$/, '');
  const project = projectPath.toLowerCase();
  return project.startsWith(`${group}/`);
}

/**
 * The one entry that applies to a project: a `projects` entry, else the
 * most specific `groups` entry (entries are not merged), else `instance`.
 * https://docs.gitlab.com/user/clusters/agent/ci_cd_workflow/#authorize-the-agent
 *
 * @public
 */
export function selectCiAccessEntry(
  config: CiAccessConfig | undefined,
  projectPath: string,
): { entry: CiAccessEntry; ref: CiAccessEntryRef } | undefined {
  if (!config) return undefined;
  const projects = Array.isArray(config.projects) ? config.projects : [];
  const projectIndex = projects.findIndex(
    e => stringOf(e?.id ?? '').toLowerCase() === projectPath.toLowerCase(),
  );
  if (projectIndex >= 0) {
    return {
      entry: projects[projectIndex],
      ref: {
        scope: 'projects',
        index: projectIndex,
        id: projects[projectIndex].id,
      },
    };
  }
  const groups = Array.isArray(config.groups) ? config.groups : [];
  let best: { entry: CiAccessEntry; ref: CiAccessEntryRef } | undefined;
  groups.forEach((entry, index) => {
    const id = stringOf(entry?.id ?? '');
    if (id === '' || !sameGroupOrAncestor(id, projectPath)) return;
    if (!best || id.length > stringOf(best.ref.id).length) {
      best = { entry, ref: { scope: 'groups', index, id } };
    }
  });
  if (best) return best;
  if (config.instance && typeof config.instance === 'object') {
    return { entry: config.instance, ref: { scope: 'instance', index: 0 } };
  }
  return undefined;
}

/** Selects the entry for the project, then evaluates it. @public */
export function evaluateCiAccess(
  config: CiAccessConfig | undefined,
  projectPath: string,
  variables: Record<string, string>,
  options: EvaluateCiAccessOptions = {},
): CiAccessDecision {
  const selected = selectCiAccessEntry(config, projectPath);
  if (!selected) {
    return {
      authorized: false,
      denial: 'not_shared',
      message: `No ci_access entry shares the agent with ${projectPath}.`,
      ruleErrors: [],
    };
  }
  return evaluateCiAccessRules(selected.entry, variables, {
    ...options,
    entryRef: selected.ref,
  });
}
