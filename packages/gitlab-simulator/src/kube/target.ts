import { KubeObject } from '../scenario/types';
import { ApiResource, apiVersionOf } from '../cluster/resources';
import { ClusterStore } from '../cluster/store';
import { KubeStatus, pathNotFound } from './status';

/** What a resource path addresses: `/api/v1/namespaces/ns/pods/name/log` and the like. */
export interface Target {
  resource: ApiResource;
  version: string;
  namespace?: string;
  name?: string;
  subresource?: string;
}

/** Parses the path segments after the proxy prefix; 'discovery' for `/api/v1`, `/apis/<g>/<v>`. */
export function parseTarget(
  store: ClusterStore,
  segments: string[],
): Target | KubeStatus | 'discovery' {
  const core = segments[0] === 'api';
  const group = core ? '' : segments[1];
  const version = core ? segments[1] : segments[2];
  const rest = segments.slice(core ? 2 : 3);
  if (rest.length === 0) return 'discovery';
  let namespace: string | undefined;
  let parts = rest;
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    namespace = rest[1];
    parts = rest.slice(2);
  }
  if (parts.length > 3) return pathNotFound();
  const [plural, name, subresource] = parts;
  const resource = store.registry.forPath(group, version, plural);
  if (!resource || (namespace !== undefined && !resource.namespaced))
    return pathNotFound();
  if (subresource && !resource.subresources.some(s => s.name === subresource))
    return pathNotFound();
  return { resource, version, namespace, name, subresource };
}

/** An object as served at the requested version (CRDs may serve several). */
export function served(object: KubeObject, target: Target): KubeObject {
  const apiVersion = apiVersionOf(target.resource.group, target.version);
  return object.apiVersion === apiVersion ? object : { ...object, apiVersion };
}

/** `resource.group` qualified like API server messages: `deployments.apps`, `pods`. */
export function qualifiedResource(resource: ApiResource): string {
  return `${resource.plural}${resource.group ? `.${resource.group}` : ''}`;
}
