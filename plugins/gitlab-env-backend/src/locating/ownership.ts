import {
  ANNOTATION_LOCATION,
  ANNOTATION_ORIGIN_LOCATION,
  Entity,
  parseLocationRef,
  stringifyEntityRef,
} from '@backstage/catalog-model';
import {
  ActionTarget,
  EnvironmentActionScope,
  fluxDependenciesOf,
  GitlabEnvError,
  GitlabEnvironment,
  gitlabSlugify,
  isPlatformNamespace,
  KubernetesObject,
  parseFluxResourcePath,
  readOnlyReason,
  targetKey,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { GitlabInstanceConfig, OwnershipSettings } from '../config';
import { failure, GitlabEnvFailure } from '../errors';
import { isProjectFullPath } from '../validation';
import type { LocatedEntity } from './EnvironmentLocator';

/**
 * What an entity owns, in one place (the README's "Ownership"); every
 * route, stream and action decides from it, never from what cluster data
 * or GitLab values say about themselves. The per-object rule lives in the
 * engine (readOnlyReason), so the graph the page shows marks exactly what
 * the backend refuses.
 *
 * 1. The entity's claim on its GitLab project counts for writes, logs and
 *    repository reads only when verified: its catalog file lies in that
 *    project's repository on that instance (backstage.io/managed-by-location,
 *    else managed-by-origin-location; the catalog sets both from where it
 *    read the entity, overriding what a catalog-info.yaml says:
 *    catalog-backend ProcessorOutputCollector), or app-config names the
 *    pairing (gitlabEnv.ownership.claims).
 * 2. An environment owns its namespace when GitLab's environment settings
 *    or a GitLabDeployment give it, it is not a platform namespace, and no
 *    environment of another project claims it, unless a GitLabDeployment
 *    settles it (it is authoritative when present). A namespace inferred
 *    from cluster data (workload annotations, a Flux inventory) is not owned.
 * 3. Objects: see readOnlyReason.
 */

/** Projects claiming namespaces and Flux roots, portal-wide (see PortalClaims). */
export interface NamespaceClaims {
  /** The projects (paths) whose running environments name this namespace of the agent. */
  projectsClaiming(host: string, agentId: string, namespace: string): string[];
}

const LOCATION_SEGMENTS = ['blob', 'raw', 'tree', 'edit'];

/**
 * The GitLab project a catalog location's URL lies in, on this instance:
 * `url:https://<host>/<project>/-/blob/<ref>/<file>` (also `raw`, `tree`,
 * `edit`, and the form without `-/`); undefined for another host, another
 * type of location, or a path that is not a project's.
 */
export function projectOfLocation(
  location: string,
  instance: Pick<GitlabInstanceConfig, 'host' | 'baseUrl'>,
): string | undefined {
  let target: string;
  try {
    const ref = parseLocationRef(location);
    if (ref.type !== 'url') return undefined;
    target = ref.target;
  } catch {
    return undefined;
  }
  let url: URL;
  let base: URL;
  try {
    url = new URL(target);
    base = new URL(instance.baseUrl);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  const sameHost =
    url.host.toLowerCase() === base.host.toLowerCase() ||
    url.hostname.toLowerCase() === instance.host.toLowerCase();
  if (!sameHost) return undefined;
  const basePath = base.pathname.replace(/\/+$/, '');
  if (basePath && !url.pathname.startsWith(`${basePath}/`)) return undefined;
  let segments: string[];
  try {
    segments = decodeURIComponent(url.pathname.slice(basePath.length))
      .split('/')
      .filter(Boolean);
  } catch {
    return undefined;
  }
  const dash = segments.indexOf('-');
  const at =
    dash > 0 && LOCATION_SEGMENTS.includes(segments[dash + 1])
      ? dash
      : segments.findIndex((s, i) => i > 1 && LOCATION_SEGMENTS.includes(s));
  if (at <= 0) return undefined;
  const path = segments.slice(0, at).join('/');
  return isProjectFullPath(path) ? path : undefined;
}

/** Why the entity's claim on the located project is not verified; undefined when it is. */
export function claimRefusal(
  entity: Entity,
  located: Pick<LocatedEntity, 'host' | 'project'>,
  instance: Pick<GitlabInstanceConfig, 'host' | 'baseUrl'>,
  settings: Pick<OwnershipSettings, 'claims'>,
): GitlabEnvError | undefined {
  const entityRef = stringifyEntityRef(entity);
  const { fullPath, id } = located.project;
  const samePath = (path: string | undefined) =>
    path !== undefined && path.toLowerCase() === fullPath.toLowerCase();
  const vouched = settings.claims.some(
    claim =>
      claim.entity === entityRef.toLowerCase() &&
      claim.host === located.host &&
      (samePath(claim.project) || claim.project === id),
  );
  if (vouched) return undefined;
  const annotations = entity.metadata.annotations ?? {};
  const location =
    annotations[ANNOTATION_LOCATION] ?? annotations[ANNOTATION_ORIGIN_LOCATION];
  if (location && samePath(projectOfLocation(location, instance)))
    return undefined;
  return {
    code: 'CLAIM_UNVERIFIED',
    message: `${entityRef} claims the GitLab project ${fullPath}, but nothing vouches for it: its catalog file (${
      location ? location.slice(0, 300) : 'none recorded'
    }) does not lie in that project's repository on ${
      located.host
    }, and gitlabEnv.ownership.claims names no such pairing. Its environments show; nothing is changed, no log and no repository is read for it.`,
    hint: `Register ${entityRef} from a catalog-info.yaml in ${instance.baseUrl}/${fullPath}, or add { entity: ${entityRef}, project: ${fullPath} } under gitlabEnv.ownership.claims.`,
  };
}

/** The GitLabDeployment objects of an agent that give a namespace, and to whom. */
export interface NamespaceDeployment {
  name: string;
  namespace: string;
  /** Projects by path, groups as `group/*`. */
  serves: string[];
}

function serves(deployment: NamespaceDeployment, projectPath: string) {
  return deployment.serves.some(entry =>
    entry.endsWith('/*')
      ? projectPath.startsWith(entry.slice(0, -1))
      : entry === projectPath,
  );
}

function notOwned(message: string, hint: string): GitlabEnvError {
  return { code: 'NOT_OWNED', message, hint };
}

/**
 * Why the environment does not own its namespace, or undefined when it
 * does. `deployments` are the agent's GitLabDeployments when known
 * (authoritative: the namespace is whoever they serve); `claims` the
 * portal's index of other projects' environments.
 */
export function namespaceRefusal(
  environment: GitlabEnvironment,
  projectPath: string,
  context: {
    host: string;
    platformNamespaces: string[];
    claims?: NamespaceClaims;
    deployments?: readonly NamespaceDeployment[];
  },
): GitlabEnvError | undefined {
  const namespace = environment.namespace;
  const agent = environment.agent;
  if (!namespace || !agent) return undefined;
  const source = environment.namespaceSource?.source ?? 'gitlab';
  if (isPlatformNamespace(context, namespace))
    return notOwned(
      `Environment ${environment.name} names namespace ${namespace}, where the agent or the cluster's platform runs (gitlabEnv.ownership.platformNamespaces): no environment owns it, so nothing in it is acted on.`,
      'Deploy the environment to a namespace of its own and set it in GitLab’s environment settings.',
    );
  if (source === 'label' || source === 'inventory')
    return notOwned(
      `Environment ${
        environment.name
      }'s namespace ${namespace} was inferred from the cluster (${
        source === 'label'
          ? 'workloads carrying its GitLab annotations'
          : 'its Flux inventory'
      }): the portal acts only in a namespace GitLab's environment settings or a GitLabDeployment give the environment.`,
      `Set the namespace in the environment's settings in GitLab, or map it with a GitLabDeployment (examples/gitlab-deployment).`,
    );
  if (source === 'gitlabDeployment') return undefined;
  const mapping = context.deployments?.filter(d => d.namespace === namespace);
  if (mapping && mapping.length > 0) {
    if (mapping.some(d => serves(d, projectPath))) return undefined;
    return notOwned(
      `GitLabDeployment ${
        mapping[0].name
      } gives namespace ${namespace} of agent ${agent.name} to ${
        mapping[0].serves.join(', ') || 'no project'
      }, not to ${projectPath}: environment ${
        environment.name
      }'s setting does not make it its own, so nothing in it is acted on.`,
      `Fix environment ${environment.name}'s namespace in GitLab, or add ${projectPath} to the GitLabDeployment's spec.projects.`,
    );
  }
  const others = (
    context.claims?.projectsClaiming(context.host, agent.id, namespace) ?? []
  ).filter(p => p.toLowerCase() !== projectPath.toLowerCase());
  if (others.length > 0)
    return {
      code: 'NAMESPACE_CONTESTED',
      message: `Namespace ${namespace} of agent ${
        agent.name
      } is claimed by environments of ${[projectPath, ...others]
        .slice(0, 5)
        .join(
          ' and ',
        )}, and no GitLabDeployment settles whose it is: its objects are read-only.`,
      hint: `Map the namespace with a GitLabDeployment (spec.namespace: ${namespace}) that names the project owning it (examples/gitlab-deployment), or fix the other environment's namespace in GitLab.`,
    };
  return undefined;
}

/**
 * The environment's action scope for this entity: what its objects'
 * read-only marks and every write decide from.
 */
export function actionScopeOf(
  environment: GitlabEnvironment,
  located: Pick<LocatedEntity, 'host' | 'project'>,
  context: {
    entityRefusal?: GitlabEnvError;
    platformNamespaces: string[];
    claims?: NamespaceClaims;
    deployments?: readonly NamespaceDeployment[];
  },
): EnvironmentActionScope {
  const { fullPath, id } = located.project;
  const refusal = namespaceRefusal(environment, fullPath, {
    host: located.host,
    platformNamespaces: context.platformNamespaces,
    claims: context.claims,
    deployments: context.deployments,
  });
  const flux = environment.fluxResourcePath
    ? parseFluxResourcePath(environment.fluxResourcePath)
    : undefined;
  const mapping = environment.namespaceSource;
  // Made for every environment each time an entity is located: built in
  // place, in the order its fields are sent, rather than from a spread of
  // a throwaway object per optional field.
  const scope = {} as EnvironmentActionScope;
  if (environment.namespace && !refusal)
    scope.namespace = environment.namespace;
  if (refusal) scope.namespaceRefusal = refusal;
  if (flux)
    scope.root = {
      group: flux.group,
      kind: flux.kind,
      namespace: flux.namespace,
      name: flux.name,
    };
  scope.platformNamespaces = context.platformNamespaces;
  scope.projectPathSlug = gitlabSlugify(fullPath);
  if (/^\d+$/.test(id)) scope.projectId = id;
  if (context.entityRefusal) scope.entityRefusal = context.entityRefusal;
  const repositories: string[] = [];
  if (!context.entityRefusal) {
    repositories.push(fullPath);
    if (mapping?.source === 'gitlabDeployment')
      for (const p of mapping.serves ?? [])
        if (!p.endsWith('/*')) repositories.push(p);
  }
  scope.repositories = repositories;
  return scope;
}

/**
 * What the object-level marks depend on, for the read cache's key: two
 * entities of one project share a read only when their marks would agree
 * (the entity's own refusal is not a mark: see checkTarget).
 */
export function scopeKey(scope: EnvironmentActionScope | undefined): string {
  if (!scope) return '';
  return JSON.stringify([
    scope.namespace ?? '',
    scope.namespaceRefusal?.message ?? '',
    scope.platformNamespaces,
  ]);
}

/**
 * Throws why the environment may not act on (or read the logs of) this
 * object: the entity's unverified claim, the environment's namespace, or
 * the object's own reason (readOnlyReason), as a typed failure with what
 * to do. `objects` are the environment's, for naming a dependsOn upstream.
 */
export function checkTarget(
  scope: EnvironmentActionScope | undefined,
  target: ActionTarget,
  object: KubernetesObject | undefined,
  objects: readonly KubernetesObject[] = [],
): void {
  if (!scope)
    throw failure(
      'NOT_OWNED',
      `The environment's ownership was not decided, so nothing in it is acted on.`,
    );
  if (scope.entityRefusal) throw new GitlabEnvFailure(scope.entityRefusal);
  const key = targetKey(target);
  const reason = readOnlyReason(scope, key, object);
  if (reason === undefined) return;
  if (scope.namespaceRefusal && reason === scope.namespaceRefusal.message)
    throw new GitlabEnvFailure(scope.namespaceRefusal);
  const root =
    scope.root &&
    objects.find(
      o =>
        o.kind === scope.root!.kind &&
        o.metadata?.namespace === scope.root!.namespace &&
        o.metadata?.name === scope.root!.name,
    );
  const upstream =
    root &&
    fluxDependenciesOf(root).some(
      d =>
        d.kind === key.kind &&
        d.namespace === key.namespace &&
        d.name === key.name,
    );
  throw failure(
    'NOT_OWNED',
    upstream
      ? `${target.kind} ${target.namespace}/${target.name} is what ${
          root!.kind
        } ${scope.root!.namespace}/${
          scope.root!.name
        } depends on (spec.dependsOn): it belongs to its own owners; shown, never acted on.`
      : reason,
    {
      hint: 'Act on it from the entity that owns it, or with kubectl and credentials of your own.',
    },
  );
}

/** Why the repository comparison may not read this project for the environment; undefined when it may. */
export function repositoryRefusal(
  scope: EnvironmentActionScope | undefined,
  project: string,
): string | undefined {
  if (scope?.entityRefusal) return scope.entityRefusal.message;
  const allowed = scope?.repositories ?? [];
  if (allowed.some(p => p.toLowerCase() === project.toLowerCase()))
    return undefined;
  return `The Flux source names the repository ${project}, which is neither this entity's project${
    allowed[0] ? ` (${allowed[0]})` : ''
  } nor one its GitLabDeployment names: the backend reads no repository on the strength of cluster data.`;
}
