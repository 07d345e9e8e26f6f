import { KubernetesObject, KubernetesObjectMeta, ResourceKey } from '../types';

/** API group of an apiVersion: '' for the core group (`v1`). @public */
export function groupOfApiVersion(apiVersion: unknown): string {
  if (typeof apiVersion !== 'string') return '';
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** Version of an apiVersion: `v1` for `apps/v1` and for `v1`. @public */
export function versionOfApiVersion(apiVersion: unknown): string {
  if (typeof apiVersion !== 'string') return '';
  return apiVersion.slice(apiVersion.indexOf('/') + 1);
}

/**
 * A stable id for an object across reads: `group/Kind/namespace/name`, with
 * an empty group for the core group and an empty namespace for
 * cluster-scoped objects, e.g. `apps/Deployment/shop/web`, `/Pod/shop/web-1`.
 * Names cannot hold `/`, so the id parses back unambiguously.
 *
 * @public
 */
export function resourceId(key: ResourceKey): string {
  return `${key.group}/${key.kind}/${key.namespace}/${key.name}`;
}

/** The inverse of resourceId; undefined for anything else. @public */
export function parseResourceId(id: string): ResourceKey | undefined {
  const parts = id.split('/');
  if (parts.length !== 4 || !parts[1] || !parts[3]) return undefined;
  const [group, kind, namespace, name] = parts;
  return { group, kind, namespace, name };
}

/** Whether an object has what its key needs: a kind and a name. */
export function hasResourceKey(
  object: KubernetesObject,
): object is KubernetesObject & {
  kind: string;
  metadata: KubernetesObjectMeta & { name: string };
} {
  const metadata = object?.metadata;
  return (
    typeof object?.kind === 'string' &&
    !!metadata &&
    typeof metadata.name === 'string'
  );
}

/** An object's namespace; empty for cluster-scoped objects. */
export function namespaceOf(object: KubernetesObject): string {
  const namespace = object.metadata?.namespace;
  return typeof namespace === 'string' ? namespace : '';
}

/** The key of an object, or undefined when it lacks a kind or a name. @public */
export function resourceKeyOf(
  object: KubernetesObject,
): ResourceKey | undefined {
  if (!hasResourceKey(object)) return undefined;
  return {
    group: groupOfApiVersion(object.apiVersion),
    kind: object.kind,
    namespace: namespaceOf(object),
    name: object.metadata.name,
  };
}
