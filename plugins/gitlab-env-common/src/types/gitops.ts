// The shapes of GitOps answers the API carries: what the repository holds
// against the cluster, and how a shared namespace is narrowed to one
// environment's objects. Computed in gitops/.

/** One field that differs between what was applied and what is live. @public */
export interface FieldChange {
  /** As people read it, e.g. `spec.replicas`. */
  path: string;
  /** `added`: live has it, desired does not; `removed`: the reverse. */
  change: 'added' | 'changed' | 'removed';
  desired?: unknown;
  live?: unknown;
  /** The field manager that owns the live value, when managedFields say. */
  by?: string;
  /** When that manager last wrote it. */
  at?: string;
}

/** What saw an object's drift. @public */
export type DriftSignal =
  | 'fluxEvent'
  | 'fluxCondition'
  | 'managedFields'
  | 'lastApplied';

/** What the cluster says about one object's drift. @public */
export interface DriftReport {
  drifted: boolean;
  /** Each signal that saw drift, with what it says. */
  signals: Array<{ signal: DriftSignal; detail: string; time?: string }>;
  changes: FieldChange[];
}

/**
 * The drift of one state of an environment, by node id: only the objects
 * that drifted. Its owner computes it once per state (the backend's
 * LiveEnvironment, with gitops/environmentDrift) and everything else reads
 * it: the count on the cards and in live patches, the nodes the tree marks
 * drifted, the GitOps view, the read and the drawer.
 *
 * @public
 */
export type EnvironmentDrift = Readonly<Record<string, DriftReport>>;

/** One object of the repository against the live one. @public */
export interface DesiredObjectDiff {
  /** Node id of the object, as the graph names it. */
  id: string;
  file: string;
  /** `missing`: the repository has it and the cluster does not. */
  state: 'same' | 'differs' | 'missing';
  changes: FieldChange[];
}

/**
 * What GitLab puts on the objects of one environment, so they can be told
 * apart from other environments' objects in the same cluster:
 * - the deploy-board annotations `app.gitlab.com/app: $CI_PROJECT_PATH_SLUG`
 *   and `app.gitlab.com/env: $CI_ENVIRONMENT_SLUG` (GitLab docs, "Deploy
 *   boards", https://docs.gitlab.com/ee/user/project/deploy_boards.html#enabling-deploy-boards:
 *   "Ensure Kubernetes annotations of app.gitlab.com/env: $CI_ENVIRONMENT_SLUG
 *   and app.gitlab.com/app: $CI_PROJECT_PATH_SLUG are applied to the
 *   deployments, replica sets, and pods");
 * - the label of GitLab-managed resources (17.9+),
 *   `agent.gitlab.com/env-<environment slug>-<project id>-<agent id>`.
 *
 * @public
 */
export interface GitlabMarkers {
  /** `$CI_PROJECT_PATH_SLUG`. */
  app: string;
  /** `$CI_ENVIRONMENT_SLUG`. */
  env: string;
  /** The GitLab-managed resources label, when the project and agent ids are known. */
  managedLabel?: string;
}

/**
 * How an environment keeps its own objects in a namespace others share:
 * by its Flux object's inventory (`by: 'inventory'`), or by GitLab's
 * markers (`by: 'label'`). @public
 */
export interface NamespaceNarrowing {
  by: 'inventory' | 'label';
  /** Who else the namespace serves: other environments, or the GitLabDeployment's projects. */
  sharedWith: string[];
  /** The environment's Flux applier, for `by: 'inventory'`. */
  flux?: { kind: string; namespace: string; name: string };
  markers: GitlabMarkers;
  /** The kubectl command that shows what the environment's objects are. */
  kubectl?: string;
}
