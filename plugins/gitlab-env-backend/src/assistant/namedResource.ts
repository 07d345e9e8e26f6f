import {
  ActionTarget,
  GitlabEnvironment,
  groupOfApiVersion,
  KubernetesObject,
  resourceName,
  resourcesNamed,
  ResourceNode,
  versionOfApiVersion,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { failure } from '../errors';
import { quote } from '../validation';
import { readTarget } from '../actions/targets';

const MAX_CANDIDATES = 5;

/**
 * The one resource of an environment's read that a name as the answers
 * give it designates (`Kind/name`, `Kind/namespace/name`; see the engine's
 * resourcesNamed). An `apiVersion` picks one of a kind served by two API
 * groups. None, or several: INVALID_REQUEST naming what to ask instead.
 */
export function namedResource(
  environment: Pick<GitlabEnvironment, 'name' | 'namespace'>,
  nodes: readonly ResourceNode[],
  text: string,
  apiVersion?: string,
): ResourceNode {
  const found = resourcesNamed(nodes, text, environment.namespace).filter(
    node => apiVersion === undefined || apiVersionOf(node) === apiVersion,
  );
  if (found.length === 1) return found[0];
  if (found.length === 0)
    throw failure(
      'INVALID_REQUEST',
      `Environment ${environment.name} has no resource ${quote(text)}${
        apiVersion ? ` of ${apiVersion}` : ''
      }.`,
      {
        hint: 'Name it as the answers do, Kind/name or Kind/namespace/name (e.g. Deployment/web); list the unhealthy resources or describe an owner to find names.',
      },
    );
  throw failure(
    'INVALID_REQUEST',
    `${quote(text)} names ${found.length} resources of environment ${
      environment.name
    }: ${found
      .slice(0, MAX_CANDIDATES)
      .map(n => `${resourceName(n)} (${apiVersionOf(n)})`)
      .join(', ')}.`,
    { hint: 'Add the namespace (Kind/namespace/name) or the apiVersion.' },
  );
}

export function apiVersionOf(node: ResourceNode): string {
  return node.group ? `${node.group}/${node.version}` : node.version;
}

/** The action target of a resource node, each field checked as a browser's target is. */
export function targetOf(node: ResourceNode): ActionTarget {
  return readTarget({
    apiVersion: apiVersionOf(node),
    kind: node.kind,
    namespace: node.namespace,
    name: node.name,
  });
}

/**
 * The environment's objects as the nodes resource names are looked up in
 * (kind, name, namespace, API group and version): a write names its object
 * among the objects its agent acts on, not in an earlier read.
 */
export function objectNodes(
  objects: readonly KubernetesObject[],
): ResourceNode[] {
  return objects.flatMap(o =>
    o.kind
      ? [
          {
            id: '',
            group: groupOfApiVersion(o.apiVersion),
            version: versionOfApiVersion(o.apiVersion),
            kind: o.kind,
            name: o.metadata?.name ?? '',
            namespace: o.metadata?.namespace ?? '',
            childIds: [],
          },
        ]
      : [],
  );
}
