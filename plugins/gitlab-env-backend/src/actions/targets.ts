import {
  ActionTarget,
  groupOfApiVersion,
  KubernetesObject,
  versionOfApiVersion,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { failure } from '../errors';
import { EnvironmentAgent } from '../facade/GitlabEnvironmentsService';
import { checkTarget } from '../locating/ownership';
import {
  isApiGroup,
  isDns1123Label,
  isKindName,
  isPathSegmentName,
  objectPath,
  quote,
  ResourceAddress,
} from '../validation';

/**
 * The plural of every kind an action or a log read applies to (see the
 * common package's actionsForKind). A target of any other kind never gets
 * an address, so no path is built for it.
 */
const PLURALS: Record<string, string> = {
  '/Pod': 'pods',
  'apps/Deployment': 'deployments',
  'apps/StatefulSet': 'statefulsets',
  'apps/DaemonSet': 'daemonsets',
  'apps/ReplicaSet': 'replicasets',
  'kustomize.toolkit.fluxcd.io/Kustomization': 'kustomizations',
  'helm.toolkit.fluxcd.io/HelmRelease': 'helmreleases',
  'source.toolkit.fluxcd.io/GitRepository': 'gitrepositories',
  'source.toolkit.fluxcd.io/OCIRepository': 'ocirepositories',
  'source.toolkit.fluxcd.io/HelmRepository': 'helmrepositories',
  'source.toolkit.fluxcd.io/HelmChart': 'helmcharts',
  'source.toolkit.fluxcd.io/Bucket': 'buckets',
};

function invalid(message: string) {
  return failure('INVALID_REQUEST', message, {
    hint: 'Pick the object from the environment’s page again.',
  });
}

/**
 * The request's target, each field checked against its Kubernetes grammar:
 * the body comes from the browser.
 */
export function readTarget(value: unknown): ActionTarget {
  if (typeof value !== 'object' || value === null)
    throw invalid('The request names no target object.');
  const { apiVersion, kind, namespace, name } = value as Record<
    string,
    unknown
  >;
  const group = groupOfApiVersion(apiVersion);
  const version = versionOfApiVersion(apiVersion);
  if (
    typeof apiVersion !== 'string' ||
    !isApiGroup(group) ||
    !isDns1123Label(version)
  )
    throw invalid(`The target's apiVersion ${quote(apiVersion)} is not valid.`);
  if (!isKindName(kind))
    throw invalid(`The target's kind ${quote(kind)} is not valid.`);
  if (!isDns1123Label(namespace))
    throw invalid(`The target's namespace ${quote(namespace)} is not valid.`);
  if (!isPathSegmentName(name))
    throw invalid(`The target's name ${quote(name)} is not valid.`);
  return { apiVersion, kind, namespace, name };
}

/** `apps/Deployment prod/web`, for messages and the audit log. */
export function describeTarget(target: ActionTarget): string {
  const group = groupOfApiVersion(target.apiVersion);
  return `${group ? `${group}/` : ''}${target.kind} ${target.namespace}/${
    target.name
  }`;
}

export function addressOf(target: ActionTarget): ResourceAddress | undefined {
  const group = groupOfApiVersion(target.apiVersion);
  const plural = PLURALS[`${group}/${target.kind}`];
  return plural
    ? { group, version: versionOfApiVersion(target.apiVersion), plural }
    : undefined;
}

/** The object's API path; the target was checked by readTarget (or comes from a checked object). */
export function pathOf(target: ActionTarget, subresource?: string): string {
  const address = addressOf(target);
  if (!address)
    throw failure(
      'ACTION_NOT_APPLICABLE',
      `No action applies to ${describeTarget(target)}.`,
    );
  const path = objectPath(
    address,
    target.namespace,
    target.name,
    `the target ${describeTarget(target)}`,
  );
  return subresource ? `${path}/${subresource}` : path;
}

export function outsideEnvironment(
  target: ActionTarget,
  environmentName: string,
) {
  return failure(
    'OUTSIDE_ENVIRONMENT',
    `${describeTarget(
      target,
    )} is not one of the objects of environment ${environmentName}: the backend acts only on those.`,
    {
      hint: 'Refresh the page: the object may be gone, or belong to another environment.',
    },
  );
}

/**
 * The environment's object the target names, or OUTSIDE_ENVIRONMENT:
 * nothing reaches the cluster for an object the environment's state does
 * not hold. The state answers (its read or live state, no upstream
 * request); an object newer than it (a pod a restart just made) costs at
 * most one list of its kind in its namespace, shared with concurrent
 * requests (EnvironmentAgent.findObject).
 */
export async function environmentObject(
  target: ActionTarget,
  agent: Pick<EnvironmentAgent, 'environment' | 'findObject'>,
): Promise<KubernetesObject> {
  const object = await agent.findObject(target);
  if (!object) throw outsideEnvironment(target, agent.environment.name);
  return object;
}

/**
 * The environment's object the target names, when the environment owns it
 * (checkTarget): OUTSIDE_ENVIRONMENT for an object it does not show,
 * CLAIM_UNVERIFIED, NAMESPACE_CONTESTED or NOT_OWNED for one it shows but
 * may not act on. Nothing reaches the cluster for either.
 */
export async function ownedObject(
  target: ActionTarget,
  agent: Pick<
    EnvironmentAgent,
    'environment' | 'resources' | 'findObject' | 'scope'
  >,
): Promise<KubernetesObject> {
  // The entity's own refusal needs no lookup.
  if (agent.scope.entityRefusal) checkTarget(agent.scope, target, undefined);
  const object = await environmentObject(target, agent);
  checkTarget(agent.scope, target, object, agent.resources);
  return object;
}
