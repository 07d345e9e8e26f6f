/**
 * The grammars a value must follow before it may become part of a URL path.
 * Each is the rule the upstream itself enforces, so nothing valid is refused:
 * Kubernetes `k8s.io/apimachinery/pkg/util/validation/validation.go`
 * (IsDNS1123Label, IsDNS1123Subdomain) and `pkg/api/validation/path`
 * (ValidatePathSegmentName), GitLab `lib/gitlab/path_regex.rb`.
 */

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN =
  /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** A namespace name, an API version, a resource's plural: at most 63 characters. */
export function isDns1123Label(value: unknown): value is string {
  return (
    typeof value === 'string' && value.length <= 63 && DNS1123_LABEL.test(value)
  );
}

/** An API group, most object names: at most 253 characters. */
export function isDns1123Subdomain(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length <= 253 &&
    DNS1123_SUBDOMAIN.test(value)
  );
}

/**
 * What the API server accepts as an object name in a path, for every kind
 * (RBAC names such as `system:controller:x` are not subdomains):
 * not `.` or `..`, no `/` or `%`. Control characters are refused as well;
 * no kind's name validation admits them.
 */
export function isPathSegmentName(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length > 0 &&
    value.length <= 253 &&
    value !== '.' &&
    value !== '..' &&
    // eslint-disable-next-line no-control-regex
    !/[/%\u0000-\u001f\u007f\s]/.test(value)
  );
}

/** An API group: empty for the core group, else a DNS subdomain. */
export function isApiGroup(value: unknown): value is string {
  return value === '' || isDns1123Subdomain(value);
}

/** A Kind: an identifier, as CRDs require (`spec.names.kind`). */
export function isKindName(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length <= 63 &&
    /^[A-Za-z][A-Za-z0-9]*$/.test(value)
  );
}

/** GitLab's numeric ids (agents, projects). */
export function isNumericId(value: unknown): value is string {
  return typeof value === 'string' && /^[1-9][0-9]{0,18}$/.test(value);
}

/**
 * A GitLab project's full path: namespace segments and the project path,
 * each starting with a letter, digit or `_`, made of letters, digits, `_`,
 * `-` and `.`, not ending in `.git` or `.atom` (GitLab's PathRegex).
 */
export function isProjectFullPath(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > 255) return false;
  const segments = value.split('/');
  return (
    segments.length >= 2 &&
    segments.every(
      s =>
        /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(s) &&
        !/\.(git|atom)$/.test(s) &&
        !s.endsWith('.'),
    )
  );
}

/** An environment slug as GitLab makes it: lower-case letters, digits and dashes, at most 24. */
export function isEnvironmentSlug(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length <= 24 &&
    /^[a-z]([-a-z0-9]*[a-z0-9])?$/.test(value)
  );
}

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;

/** Quotes an untrusted value for a message: bounded length, control characters escaped. */
export function quote(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? '';
  const shown = text.length > 120 ? `${text.slice(0, 117)}...` : text;
  return `\`${shown.replace(
    CONTROL_CHARACTERS,
    c => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )}\``;
}
