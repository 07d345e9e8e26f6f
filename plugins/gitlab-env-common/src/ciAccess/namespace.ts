/**
 * Namespace names produced by `ci_access` rules: variable expansion,
 * validation as an RFC 1123 label (what Kubernetes requires of a Namespace
 * name) and the configured way to handle names that are too long.
 */

/** Kubernetes: a Namespace name is an RFC 1123 label of at most 63 characters. */
export const NAMESPACE_MAX_LENGTH = 63;
const RFC1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DIGEST_LENGTH = 8;

/** `refuse` (the default) reports an over-long name; `truncate` shortens it with a digest suffix. */
export type NamespaceOverflow = 'refuse' | 'truncate';

/** Why a name is not a valid namespace, or undefined when it is. */
export function namespaceNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'the name is empty';
  if (name.length > NAMESPACE_MAX_LENGTH) {
    return `"${name}" has ${name.length} characters; a namespace may have at most ${NAMESPACE_MAX_LENGTH}`;
  }
  if (!RFC1123_LABEL.test(name)) {
    return `"${name}" is no RFC 1123 label: use lower-case letters, digits and "-", starting and ending with a letter or digit`;
  }
  return undefined;
}

/** Replaces `$VAR` and `${VAR}`; unknown variables expand to nothing and are listed. */
export function expandCiVariables(
  template: string,
  variables: Record<string, string>,
): { value: string; missing: string[] } {
  const missing: string[] = [];
  const value = template.replace(
    /\$\{(\w+)\}|\$(\w+)/g,
    (_match, braced: string | undefined, bare: string | undefined) => {
      const name = (braced ?? bare)!;
      if (Object.prototype.hasOwnProperty.call(variables, name)) {
        return String(variables[name]);
      }
      missing.push(name);
      return '';
    },
  );
  return { value, missing };
}

/** FNV-1a, 32 bits: a short, stable digest that needs no crypto API (browser and Node alike). */
function shortDigest(text: string): string {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(DIGEST_LENGTH, '0');
}

/**
 * Shortens a name to 63 characters predictably: the first 54 characters
 * (trailing dashes dropped), a dash and 8 hex digits of the full name's
 * digest, so two long names that share a prefix stay distinct.
 */
export function truncateNamespaceName(name: string): string {
  if (name.length <= NAMESPACE_MAX_LENGTH) return name;
  const keep = NAMESPACE_MAX_LENGTH - DIGEST_LENGTH - 1;
  const prefix = name.slice(0, keep).replace(/-+$/, '');
  return `${prefix}-${shortDigest(name)}`;
}

export type NamespaceResolution =
  | {
      ok: true;
      /** The name after variable expansion. */
      full: string;
      /** The name used: `full`, or its truncation. */
      final: string;
      truncated: boolean;
    }
  | { ok: false; full: string; message: string; missingVariables: string[] };

/** Expands, validates and (when configured) truncates a namespace template. */
export function resolveNamespace(
  template: string,
  variables: Record<string, string>,
  overflow: NamespaceOverflow = 'refuse',
): NamespaceResolution {
  const { value: full, missing } = expandCiVariables(template, variables);
  const fail = (message: string): NamespaceResolution => ({
    ok: false,
    full,
    message,
    missingVariables: missing,
  });
  if (missing.length > 0 && full.length === 0) {
    return fail(
      `The namespace "${template}" expands to nothing: ${missing
        .map(m => `$${m}`)
        .join(', ')} not set`,
    );
  }
  const tooLong = full.length > NAMESPACE_MAX_LENGTH;
  const final =
    tooLong && overflow === 'truncate' ? truncateNamespaceName(full) : full;
  const problem = namespaceNameProblem(final);
  if (problem) {
    const advice = tooLong
      ? ' Shorten the template or set gitlabEnv.ciAccess.namespaceOverflow to "truncate".'
      : '';
    return fail(
      `The namespace from "${template}" is invalid: ${problem}.${advice}`,
    );
  }
  return { ok: true, full, final, truncated: final !== full };
}
