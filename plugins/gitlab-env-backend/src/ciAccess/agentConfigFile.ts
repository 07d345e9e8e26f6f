import {
  CiAccessConfig,
  CiAccessEntry,
  CiAccessRule,
  DEFAULT_MANAGED_NAMESPACE_TEMPLATE,
  DeleteResourcesPolicy,
  PATTERN_LIMITS,
  yamlErrorReason,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { Document, LineCounter, parseDocument } from 'yaml';
import { failure, GitlabEnvFailure } from '../errors';
import { MAX_ALIAS_COUNT } from '../transport/gitlabRest';

/**
 * Reads the `ci_access` of an agent configuration file and the parts of an
 * environment template the portal needs, checking every value it uses; a
 * problem becomes AGENT_CONFIG_INVALID naming the file and the line.
 */

type Path = Array<string | number>;

class Checker {
  constructor(
    private readonly doc: Document,
    private readonly lines: LineCounter,
    private readonly file: string,
  ) {}

  lineOf(path: Path): number | undefined {
    for (let depth = path.length; depth >= 0; depth--) {
      const node = this.doc.getIn(path.slice(0, depth), true) as
        | { range?: [number, number, number] }
        | undefined;
      if (node && typeof node === 'object' && node.range) {
        return this.lines.linePos(node.range[0]).line;
      }
    }
    return undefined;
  }

  fail(path: Path, message: string): GitlabEnvFailure {
    const line = this.lineOf(path);
    const where = path
      .map(p => (typeof p === 'number' ? `[${p}]` : `.${p}`))
      .join('')
      .replace(/^\./, '');
    return failure(
      'AGENT_CONFIG_INVALID',
      `${this.file}${line ? ` line ${line}` : ''}: ${where} ${message}`,
      {
        file: this.file,
        line,
        hint: `Fix ${where} in ${this.file}; GitLab uses the file on the default branch.`,
      },
    );
  }

  string(path: Path, value: unknown, optional = true): string | undefined {
    if (value === undefined || value === null) {
      if (optional) return undefined;
      throw this.fail(path, 'is required');
    }
    if (typeof value !== 'string' && typeof value !== 'number') {
      throw this.fail(path, 'must be a string');
    }
    return String(value);
  }

  boolean(path: Path, value: unknown): boolean | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'boolean')
      throw this.fail(path, 'must be true or false');
    return value;
  }

  record(path: Path, value: unknown): Record<string, unknown> | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'object' || Array.isArray(value)) {
      throw this.fail(path, 'must be a map');
    }
    return value as Record<string, unknown>;
  }

  list(path: Path, value: unknown): unknown[] | undefined {
    if (value === undefined || value === null) return undefined;
    if (!Array.isArray(value)) throw this.fail(path, 'must be a list');
    return value;
  }
}

function parseYaml(
  text: string,
  file: string,
): { doc: Document; lines: LineCounter } {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true });
  const error = doc.errors[0];
  if (error) {
    const line = error.linePos?.[0]?.line;
    throw failure(
      'AGENT_CONFIG_INVALID',
      `${file}${
        line ? ` line ${line}` : ''
      } is not valid YAML: ${yamlErrorReason(error)}.`,
      { file, line, hint: `Fix the YAML syntax of ${file}.` },
    );
  }
  return { doc, lines };
}

/**
 * The document as plain data. Aliases are expanded with a bound, so a few
 * hundred bytes of nested aliases (a "billion laughs" file) are refused
 * instead of growing into gigabytes.
 */
function plainOf(doc: Document, file: string): unknown {
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    throw failure(
      'AGENT_CONFIG_INVALID',
      `${file} cannot be read as data: ${
        /alias/i.test(String((error as Error)?.message))
          ? `it expands YAML aliases more than ${MAX_ALIAS_COUNT} times (an alias bomb)`
          : String((error as Error)?.message ?? error)
      }.`,
      {
        file,
        hint: `Write ${file} without nested aliases (*name) that multiply: expand them.`,
      },
    );
  }
}

function readRule(c: Checker, path: Path, value: unknown): CiAccessRule {
  const rule = c.record(path, value) ?? {};
  const when = c.string([...path, 'when'], rule.when);
  if (when !== undefined && when !== 'never') {
    throw c.fail([...path, 'when'], `must be "never" (got "${when}")`);
  }
  return {
    if: c.string([...path, 'if'], rule.if),
    namespace: c.string([...path, 'namespace'], rule.namespace),
    when,
  };
}

function readEntry(
  c: Checker,
  path: Path,
  value: unknown,
  needsId: boolean,
): CiAccessEntry {
  const entry = c.record(path, value);
  if (!entry) throw c.fail(path, 'must be a map');
  const environments = c.list([...path, 'environments'], entry.environments);
  const resourceManagement = c.record(
    [...path, 'resource_management'],
    entry.resource_management,
  );
  const rules = c.list([...path, 'rules'], entry.rules);
  return {
    id: c.string([...path, 'id'], entry.id, !needsId),
    default_namespace: c.string(
      [...path, 'default_namespace'],
      entry.default_namespace,
    ),
    access_as: c.record([...path, 'access_as'], entry.access_as),
    environments: environments?.map((e, i) => {
      const at = [...path, 'environments', i];
      const pattern = c.string(at, e, false)!;
      if (pattern.length > PATTERN_LIMITS.maxPatternLength)
        throw c.fail(
          at,
          `has ${pattern.length} characters; environment names and wildcards have at most ${PATTERN_LIMITS.maxPatternLength}`,
        );
      return pattern;
    }),
    protected_branches_only: c.boolean(
      [...path, 'protected_branches_only'],
      entry.protected_branches_only,
    ),
    resource_management: resourceManagement && {
      enabled: c.boolean(
        [...path, 'resource_management', 'enabled'],
        resourceManagement.enabled,
      ),
    },
    rules: rules?.map((r, i) => readRule(c, [...path, 'rules', i], r)),
  };
}

/** The `ci_access` of `.gitlab/agents/<agent>/config.yaml`; an empty file shares nothing. */
export function parseAgentConfigFile(
  text: string,
  file: string,
): CiAccessConfig {
  const { doc, lines } = parseYaml(text, file);
  const c = new Checker(doc, lines, file);
  const root = c.record([], plainOf(doc, file)) ?? {};
  const ciAccess = c.record(['ci_access'], root.ci_access);
  if (!ciAccess) return {};
  const projects = c.list(['ci_access', 'projects'], ciAccess.projects);
  const groups = c.list(['ci_access', 'groups'], ciAccess.groups);
  return {
    projects: projects?.map((e, i) =>
      readEntry(c, ['ci_access', 'projects', i], e, true),
    ),
    groups: groups?.map((e, i) =>
      readEntry(c, ['ci_access', 'groups', i], e, true),
    ),
    instance:
      ciAccess.instance === undefined || ciAccess.instance === null
        ? undefined
        : readEntry(c, ['ci_access', 'instance'], ciAccess.instance, false),
  };
}

export interface EnvironmentTemplate {
  /** The Namespace object's `metadata.name`, a Go template string. */
  namespaceTemplate?: string;
  deleteResources: DeleteResourcesPolicy;
}

/** GitLab's built-in default template (doc/user/clusters/agent/managed_kubernetes_resources.md). */
export const BUILT_IN_DEFAULT_TEMPLATE: EnvironmentTemplate = {
  namespaceTemplate: DEFAULT_MANAGED_NAMESPACE_TEMPLATE,
  deleteResources: 'on_stop',
};

/** `environment_templates/<name>.yaml`: its Namespace name and `delete_resources`. */
export function parseEnvironmentTemplate(
  text: string,
  file: string,
): EnvironmentTemplate {
  const { doc, lines } = parseYaml(text, file);
  const c = new Checker(doc, lines, file);
  const root = c.record([], plainOf(doc, file)) ?? {};
  const objects = c.list(['objects'], root.objects) ?? [];
  let namespaceTemplate: string | undefined;
  objects.forEach((o, i) => {
    const object = c.record(['objects', i], o) ?? {};
    if (object.kind === 'Namespace' && namespaceTemplate === undefined) {
      const metadata =
        c.record(['objects', i, 'metadata'], object.metadata) ?? {};
      namespaceTemplate = c.string(
        ['objects', i, 'metadata', 'name'],
        metadata.name,
        false,
      );
    }
  });
  const deleteResources = c.string(['delete_resources'], root.delete_resources);
  if (
    deleteResources !== undefined &&
    !['on_stop', 'never'].includes(deleteResources)
  ) {
    throw c.fail(
      ['delete_resources'],
      `must be on_stop or never (got "${deleteResources}")`,
    );
  }
  // A template without the key: GitLab's default for it is not documented,
  // so the portal does not promise that GitLab deletes anything.
  return {
    namespaceTemplate,
    deleteResources: (deleteResources as DeleteResourcesPolicy) ?? 'never',
  };
}
