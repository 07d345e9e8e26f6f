import { failure } from '../errors';

/**
 * Values from GitLab and from the browser that end up in URL paths; each is
 * checked against what GitLab or Kubernetes allow before it is encoded.
 * Agent and namespace names are DNS-1123 labels (GitLab's
 * doc/user/clusters/agent/install, "agent name"): isDns1123Label.
 */

/** GitLab project/group path segments: letters, digits, `_`, `-`, `.`; no `..`. */
const PATH_SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;
/** Environment template file names. */
const TEMPLATE_NAME = /^[a-z0-9]([-a-z0-9_.]*[a-z0-9])?$/;

export function isProjectPath(value: unknown): value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 500)
    return false;
  return value
    .split('/')
    .every(
      s => PATH_SEGMENT.test(s) && !s.includes('..') && !s.endsWith('.git'),
    );
}

export function isTemplateName(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length <= 100 &&
    TEMPLATE_NAME.test(value)
  );
}

/**
 * Git ref names a user may pick (git check-ref-format, simplified to what
 * is safe to show and compare): no control characters, spaces, `..`, `~^:?*[\`,
 * no leading `-` or `/`, at most 255 characters.
 */
export function isBranchName(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length > 0 &&
    value.length <= 255 &&
    // eslint-disable-next-line no-control-regex -- control characters are what is refused
    !/[\x00-\x20\x7f~^:?*[\\]/.test(value) &&
    !value.includes('..') &&
    !value.includes('@{') &&
    !/^[-/]|\/$|\.lock$|\.$|\/\//.test(value)
  );
}

export function agentConfigPath(agentName: string): string {
  return `.gitlab/agents/${agentName}/config.yaml`;
}

export function environmentTemplatePath(
  agentName: string,
  template: string,
): string {
  return `.gitlab/agents/${agentName}/environment_templates/${template}.yaml`;
}

export function invalidValue(what: string, value: unknown) {
  return failure(
    'UPSTREAM_MALFORMED',
    `GitLab answered with an invalid ${what}: ${JSON.stringify(value)?.slice(
      0,
      80,
    )}.`,
  );
}
