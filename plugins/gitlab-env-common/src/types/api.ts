import type { EnvironmentDrift } from './gitops';
import type { DesiredObjectDiff, NamespaceNarrowing } from './gitops';
import { GitlabEnvError } from './errors';
import { EnvironmentActionScope } from './actions';
import { ResourceGraph } from './graph';
import { HealthSummary } from './health';
import { KubernetesObject } from './kubernetes';

/** GitLab's deployment tiers, lower-cased as in its REST API. @public */
export const DEPLOYMENT_TIERS = [
  'production',
  'staging',
  'testing',
  'development',
  'other',
] as const;

/** @public */
export type DeploymentTier = (typeof DEPLOYMENT_TIERS)[number];

/** @public */
export type EnvironmentState = 'available' | 'stopping' | 'stopped';

/** @public */
export interface GitlabAgentRef {
  /** The numeric agent id KAS expects in `pat:<agent-id>:<token>`. */
  id: string;
  name: string;
  /** Link to the agent's page in GitLab. */
  webUrl?: string;
  /** Full path of the project that holds the agent's configuration. */
  configProject?: string;
}

/** @public */
export interface GitlabDeploymentRef {
  iid: string;
  status: string;
  ref?: string;
  sha?: string;
  finishedAt?: string;
  webUrl?: string;
}

/** @public */
export interface GitlabProjectRef {
  /** The instance host, as configured under gitlabEnv.instances. */
  instance: string;
  id: string;
  fullPath: string;
  webUrl: string;
}

/**
 * Where an environment's namespace came from, in this order: GitLab's
 * environment settings, a `GitLabDeployment` object in the cluster, the
 * workloads carrying the environment's GitLab markers (`label`), or the Flux
 * object's inventory (its `targetNamespace`, else where most entries live);
 * `name` names the object. @public
 */
export interface NamespaceMapping {
  source: 'gitlab' | 'gitlabDeployment' | 'label' | 'inventory';
  /** The object that says so, e.g. the GitLabDeployment's name. */
  name?: string;
  /** The kubectl command that shows it. */
  kubectl?: string;
  /** What the object's status says (its Ready condition), when it has one. */
  status?: string;
  /**
   * Every project the same GitLabDeployment serves (groups as `<group>/*`):
   * one namespace serving several projects shows here.
   */
  serves?: string[];
  /**
   * Set when others share the namespace: how reads keep only this
   * environment's objects (narrowToEnvironment).
   */
  narrowing?: NamespaceNarrowing;
}

/** A GitLab environment as the plugin shows it. @public */
export interface GitlabEnvironment {
  id: string;
  name: string;
  slug: string;
  tier: DeploymentTier;
  state: EnvironmentState;
  /** GitLab's environment type: the folder before the first `/`, if any. */
  folder?: string;
  externalUrl?: string;
  webUrl?: string;
  autoStopAt?: string;
  namespace?: string;
  /** Where `namespace` came from, when it is set. */
  namespaceSource?: NamespaceMapping;
  /**
   * When no source gave a namespace: why the cluster-side sources could
   * not all be asked (a list across the cluster RBAC refuses).
   */
  namespaceLookup?: string;
  fluxResourcePath?: string;
  agent?: GitlabAgentRef;
  lastDeployment?: GitlabDeploymentRef;
  /**
   * The rolled-up health of the environment's resources, when the backend
   * computed it for the list; the UI then needs no resource read per card.
   */
  health?: HealthSummary;
  /**
   * How many objects Flux manages drifted, as the backend counts them (with
   * health, and in every resources answer): the UI shows this count and
   * never derives its own.
   */
  driftedCount?: number;
  /**
   * Errors and warnings of this environment: settings GitLab holds that the
   * backend refused, and, with health, what the health read could not get.
   */
  errors?: GitlabEnvError[];
  /** What the entity may act on in this environment, as the backend decided it. */
  actionScope?: EnvironmentActionScope;
}

/** `GET /entity/:namespace/:kind/:name/environments` @public */
export interface EntityEnvironmentsResponse {
  entityRef: string;
  project: GitlabProjectRef;
  /** The label selector applied to cluster reads, when the entity sets one. */
  labelSelector?: string;
  environments: GitlabEnvironment[];
  /** Why the list itself may be incomplete (a pagination loop, a limit). */
  errors?: GitlabEnvError[];
}

/**
 * The repository's manifests against the live objects, for a Flux
 * Kustomization whose GitRepository is a project of the same GitLab
 * instance: read through the repository files API at the applied revision.
 * @public
 */
export interface DesiredStateComparison {
  /** Where the manifests were read; absent when they could not be. */
  source?: { project: string; ref: string; path: string };
  /** Why there is no comparison, in plain words (a HelmRelease, another host, no access…). */
  unavailable?: string;
  /** What the backend could not render without kustomize or Helm. */
  notRendered: string[];
  objects: DesiredObjectDiff[];
}

/** A shared namespace narrowed to one environment's objects. @public */
export interface NarrowedScope {
  by: NamespaceNarrowing['by'];
  sharedWith: string[];
  /** Objects of the namespace left out as others'. */
  hidden: number;
  hiddenOwners: string[];
}

/**
 * `GET /entity/:namespace/:kind/:name/environments/:slug/desired`: desired vs
 * live, against the objects the environment's state holds (the live tab's
 * when it is followed); the only place the comparison is served. No
 * `desired` when the environment has no Flux object.
 * @public
 */
export interface EnvironmentDesiredStateResponse {
  /** The comparison, or why there is none (`unavailable`). */
  desired?: DesiredStateComparison;
}

/** `GET /entity/:namespace/:kind/:name/environments/:slug/resources` @public */
export interface EnvironmentResourcesResponse {
  entityRef: string;
  environment: GitlabEnvironment;
  /** The namespace and selector the reads used, so the UI can say so. */
  scope: {
    namespace?: string;
    labelSelector?: string;
    /** The namespace is shared: what narrowing to this environment's objects left out. */
    narrowed?: NarrowedScope;
  };
  /** Objects as read, trimmed of managedFields and last-applied annotations. */
  resources: KubernetesObject[];
  graph: ResourceGraph;
  health: HealthSummary;
  /** Failures that did not stop the rest of the data from loading. */
  errors: GitlabEnvError[];
  /** ISO time the data was read from the cluster (it may come from cache). */
  fetchedAt: string;
  /**
   * The objects of this state that drifted, by node id with their drift
   * reports, as the backend's one owner of the drift computed them (absent:
   * nothing drifted; `environment.driftedCount` counts them). The tree
   * marks these nodes and the drawer shows their reports; neither derives
   * drift again. A backend older than this field sends none: nothing is
   * marked then, the count still shows. In the live stream's `resources`
   * form it is the snapshot's: patches do not update it (the `tree` form's
   * patches carry the marks).
   */
  drift?: EnvironmentDrift;
}

/** The body of every error response of the backend's routes. @public */
export interface GitlabEnvErrorResponse {
  error: { name: string; message: string };
  gitlabEnv: GitlabEnvError;
}
