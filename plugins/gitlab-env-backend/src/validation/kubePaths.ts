import { failure, GitlabEnvFailure } from '../errors';
import {
  isApiGroup,
  isDns1123Label,
  isPathSegmentName,
  quote,
} from './grammars';

/** Where a value came from, for messages: "GitLab environment production", "the Flux inventory of …". */
export type ValueSource = string;

/** A resource collection: group, version and plural of one kind. */
export interface ResourceAddress {
  group: string;
  version: string;
  plural: string;
}

function refuse(
  source: ValueSource,
  what: string,
  value: unknown,
  grammar: string,
): GitlabEnvFailure {
  return failure(
    'INVALID_ENVIRONMENT_SETTING',
    `${source} has ${what} ${quote(value)}, which is not ${grammar}.`,
    {
      resource: typeof value === 'string' ? value.slice(0, 253) : undefined,
      hint: `Fix the value where ${source} sets it; the backend reads nothing from such a path.`,
    },
  );
}

const LABEL_GRAMMAR =
  'a valid Kubernetes name (RFC 1123 label: lower-case letters, digits and -, at most 63)';

/** Throws unless `namespace` is a namespace name. */
export function checkNamespace(
  namespace: unknown,
  source: ValueSource,
): string {
  if (!isDns1123Label(namespace))
    throw refuse(source, 'Kubernetes namespace', namespace, LABEL_GRAMMAR);
  return namespace;
}

/** Throws unless group, version and plural follow their grammars. */
export function checkResourceAddress(
  address: ResourceAddress,
  source: ValueSource,
): ResourceAddress {
  if (!isApiGroup(address.group))
    throw refuse(
      source,
      'API group',
      address.group,
      'a valid API group (empty or an RFC 1123 subdomain)',
    );
  if (!isDns1123Label(address.version))
    throw refuse(source, 'API version', address.version, LABEL_GRAMMAR);
  if (!isDns1123Label(address.plural))
    throw refuse(source, 'resource', address.plural, LABEL_GRAMMAR);
  return address;
}

/** Throws unless `name` is an object name the API server accepts in a path. */
export function checkObjectName(name: unknown, source: ValueSource): string {
  if (!isPathSegmentName(name))
    throw refuse(
      source,
      'object name',
      name,
      "a valid Kubernetes object name (not '.' or '..', no '/', '%' or spaces)",
    );
  return name;
}

export function basePathOf(group: string, version: string): string {
  return group ? `/apis/${group}/${version}` : `/api/${version}`;
}

/**
 * The path listing a kind in one namespace, or across the cluster when
 * `namespace` is undefined (only the overview's planned cluster-wide reads
 * pass none). Every segment is checked, so the result names exactly that
 * collection: no value can add, remove or climb a segment.
 */
export function collectionPath(
  address: ResourceAddress,
  namespace: string | undefined,
  source: ValueSource,
): string {
  const { group, version, plural } = checkResourceAddress(address, source);
  const scope =
    namespace === undefined
      ? ''
      : `/namespaces/${checkNamespace(namespace, source)}`;
  return `${basePathOf(group, version)}${scope}/${plural}`;
}

/**
 * The path of one object, each segment checked: namespaced, or
 * cluster-scoped when `namespace` is undefined (only for kinds discovery
 * says are cluster-scoped).
 */
export function objectPath(
  address: ResourceAddress,
  namespace: string | undefined,
  name: string,
  source: ValueSource,
): string {
  return `${collectionPath(address, namespace, source)}/${encodeURIComponent(
    checkObjectName(name, source),
  )}`;
}
