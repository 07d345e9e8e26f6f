import { GitlabEnvError } from './errors';
import type { DesiredObjectDiff, FieldChange } from './gitops';
import { ActionTarget } from './actions';
import { HealthStatus } from './health';

/** GitLab's deployment statuses, lower-cased as its REST API writes them. @public */
export type DeploymentStatus =
  | 'created'
  | 'running'
  | 'success'
  | 'failed'
  | 'canceled'
  | 'skipped'
  | 'blocked';

/** A GitLab user as a deployment or commit names it. @public */
export interface GitlabUserRef {
  username?: string;
  name: string;
  webUrl?: string;
  avatarUrl?: string;
}

/** The deploy job of a deployment and its pipeline. @public */
export interface DeploymentJob {
  /** The numeric job id (REST `deployable.id`, GraphQL `CiJob.id`'s number). */
  id: string;
  name?: string;
  status?: string;
  webUrl?: string;
  /** GitLab says the job may be retried (`CiJob.retryable`; REST: inferred from its status). */
  retryable?: boolean;
  pipeline?: {
    id: string;
    iid?: string;
    status?: string;
    webUrl?: string;
  };
}

/** One commit a deployment brought. @public */
export interface DeploymentCommit {
  sha: string;
  shortSha: string;
  title: string;
  authorName?: string;
  createdAt?: string;
  webUrl?: string;
}

/** A merge request the commits of a deployment came from. @public */
export interface DeploymentMergeRequest {
  iid: number;
  title: string;
  state?: string;
  authorName?: string;
  webUrl?: string;
}

/** An image that changed with a deployment, as the cluster still shows it. @public */
export interface DeploymentImageChange {
  /** The workload, e.g. `apps/Deployment checkout/checkout-api`. */
  workload: string;
  container: string;
  from?: string;
  to: string;
  /** The revision that carries it: a ReplicaSet's, a ControllerRevision's, or Flux's history. */
  source: 'ReplicaSet' | 'ControllerRevision' | 'Flux';
  /** `deployment.kubernetes.io/revision` or `ControllerRevision.revision`. */
  revision?: number;
}

/**
 * What a deployment brought since the previous successful one: the
 * commits (repository compare API), the merge requests they came from and
 * the images that changed where the cluster still keeps them.
 *
 * @public
 */
export interface DeploymentChanges {
  /** The successful deployment compared against; absent for the first. */
  since?: { iid: string; sha?: string; ref?: string };
  commits: DeploymentCommit[];
  /**
   * `back`: the deployment went to an older commit (a rollback): `commits`
   * are the ones it took back.
   */
  direction?: 'back';
  /** Set when GitLab said the commit list is cut short (compare limits) or the backend stopped reading. */
  commitsTruncated?: boolean;
  mergeRequests: DeploymentMergeRequest[];
  /** How the merge requests were found: GitLab's own links (deployments/:id/merge_requests) or each commit's. */
  mergeRequestsFrom?: 'deployment' | 'commits';
  images: DeploymentImageChange[];
  /** GitLab's comparison page. */
  compareUrl?: string;
  /** Why part of it could not be said (a commit gone after a force push, the cluster not read). */
  notes?: string[];
}

/**
 * One deployment of an environment, as GitLab keeps it.
 *
 * @public
 */
export interface DeploymentRecord {
  /** GitLab's global deployment id. */
  id: string;
  iid: string;
  status: DeploymentStatus | string;
  ref?: string;
  /** The ref is a tag. */
  tag?: boolean;
  sha?: string;
  shortSha?: string;
  commitTitle?: string;
  triggerer?: GitlabUserRef;
  job?: DeploymentJob;
  createdAt?: string;
  finishedAt?: string;
  /** Seconds from created to finished. */
  durationSeconds?: number;
  webUrl?: string;
  /** Present when asked for (`changes=true`) and the deployment succeeded. */
  changes?: DeploymentChanges;
  /**
   * Whether re-running its deploy job is offered (a successful deployment
   * that is not the latest, with a job), and why not.
   */
  rollback?: {
    available: boolean;
    reason?: string;
    /** The same rollback by hand (curl against GitLab's REST API), when it has a job. */
    command?: string;
  };
}

/**
 * `GET /entity/:namespace/:kind/:name/environments/:slug/deployments`:
 * newest first, one page; `cursor` asks for the next.
 *
 * @public
 */
export interface DeploymentHistoryResponse {
  environment: { name: string; slug: string; webUrl?: string };
  project: { fullPath: string; webUrl: string };
  deployments: DeploymentRecord[];
  /** Pass as `cursor` for the next (older) page. */
  nextCursor?: string;
  /** Where GitLab's history came from: GraphQL `Environment.deployments` or the REST deployments API. */
  source: 'graphql' | 'rest';
  /** Whether the GitLab rollback can run at all, and why not (no job token configured). */
  gitlabRollback: { configured: boolean; reason?: string };
  /** What could not be read (the cluster for images, a compare). */
  errors?: GitlabEnvError[];
}

/** `POST …/environments/:slug/deployments/:deploymentId/rollback` answer. @public */
export interface GitlabRollbackResponse {
  /** The new deploy job GitLab started. */
  job: DeploymentJob;
  /** What happened, in a sentence. */
  message: string;
  /** The same request by hand (curl against the REST API). */
  command: string;
}

/** One revision of a Deployment, StatefulSet or DaemonSet, as `kubectl rollout history` lists it. @public */
export interface WorkloadRevision {
  revision: number;
  /** The ReplicaSet or ControllerRevision that holds it. */
  source: { kind: 'ReplicaSet' | 'ControllerRevision'; name: string };
  createdAt?: string;
  /** `kubernetes.io/change-cause`. */
  changeCause?: string;
  /** Container name → image. */
  images: Record<string, string>;
  /** The workload runs this revision's template now. */
  current: boolean;
  /** The pod template's fields that differ from the current one (`before` = now, `after` = this revision). */
  diffFromCurrent: TemplateChange[];
}

/** One field of a pod template that differs. @public */
export interface TemplateChange {
  /** e.g. `spec.containers[name=api].image`. */
  path: string;
  change: 'added' | 'changed' | 'removed';
  before?: unknown;
  after?: unknown;
}

/** Who reverts a manual change of a workload. @public */
export type WorkloadManager =
  | {
      by: 'flux';
      /** The Flux object that applies it, to suspend first. */
      object: ActionTarget;
      suspended: boolean;
      /** What will happen, in plain words. */
      warning: string;
    }
  | { by: 'gitlab'; warning: string };

/** A workload's revisions. @public */
export interface WorkloadHistory {
  target: ActionTarget;
  revisions: WorkloadRevision[];
  managedBy?: WorkloadManager;
  /** `kubectl rollout history …`. */
  historyCommand: string;
}

/** `GET …/environments/:slug/revisions`. @public */
export interface WorkloadRevisionsResponse {
  workloads: WorkloadHistory[];
  errors?: GitlabEnvError[];
}

/** The kinds of timeline entries. @public */
export const TIMELINE_ENTRY_KINDS = [
  'deployment',
  'rollout',
  'flux',
  'health',
  'event',
  'action',
] as const;

/** @public */
export type TimelineEntryKind = (typeof TIMELINE_ENTRY_KINDS)[number];

/** What an entry links to. @public */
export interface TimelineLink {
  label: string;
  /** A GitLab page (deployment, job, pipeline). */
  url?: string;
  /** An object of the environment, to open in the tab. */
  object?: { apiVersion: string; kind: string; namespace: string; name: string };
}

/**
 * One moment of an environment's timeline, as recorded in the plugin's
 * database.
 *
 * @public
 */
export interface TimelineEntry {
  id: string;
  kind: TimelineEntryKind;
  /** When it happened (ISO 8601). */
  at: string;
  /** GitLab environment slug. */
  environment: string;
  /** One line for people, e.g. `Healthy → Degraded`. */
  summary: string;
  /** More, e.g. the cause of a health transition. */
  detail?: string;
  /** For health entries. */
  health?: { from?: HealthStatus; to: HealthStatus };
  /** Warning, failure. */
  severity?: 'info' | 'warning' | 'error';
  links: TimelineLink[];
}

/**
 * `GET /entity/:namespace/:kind/:name/timeline` (`environment=<slug>` for
 * one), newest first within `[from, to)`.
 *
 * @public
 */
export interface TimelineResponse {
  entries: TimelineEntry[];
  /** Pass as `cursor` for the next (older) page. */
  nextCursor?: string;
  /** What is kept: the configured retention. */
  retentionDays: number;
  /** What is recorded while nobody views the environment (see the backend's README). */
  recording: string;
}

/** What one environment runs, for the versions matrix. @public */
export interface EnvironmentVersion {
  environment: { name: string; slug: string; tier: string; webUrl?: string };
  ref?: string;
  sha?: string;
  shortSha?: string;
  deployedAt?: string;
  /** Images of its workloads: `<workload>/<container>` → image. */
  images: Record<string, string>;
  /** Relative to the environment it is compared with (the next lower tier's). */
  comparedWith?: {
    slug: string;
    name: string;
    /** Commits the other has that this one lacks. */
    behind: number;
    /** Commits this one has that the other lacks. */
    ahead: number;
    /** GitLab's comparison page. */
    compareUrl?: string;
    /** e.g. `production is 14 commits behind staging`. */
    summary: string;
  };
  errors?: GitlabEnvError[];
}

/** One entity's versions across its environments. @public */
export interface EntityVersions {
  entityRef: string;
  title?: string;
  project?: { fullPath: string; webUrl: string };
  environments: EnvironmentVersion[];
  errors?: GitlabEnvError[];
}

/** `GET /entity/:namespace/:kind/:name/versions` and, per system, `GET /versions?system=`. @public */
export interface VersionsResponse {
  entities: EntityVersions[];
}

/** One difference between two environments' objects. @public */
export interface PromotionDifference {
  /** `apps/Deployment/checkout/checkout-api`-style id without the namespace: workloads match by kind and name. */
  object: { kind: string; name: string };
  aspect: 'workload' | 'image' | 'replicas' | 'config';
  /** e.g. `container api`, `key CURRENCY`. */
  what?: string;
  /** In the environment compared from (e.g. staging). */
  from?: string;
  /** In the environment compared to (e.g. production). */
  to?: string;
  /** Secrets: only the key's presence is compared, never its value. */
  secret?: boolean;
}

/** `GET /entity/:namespace/:kind/:name/promotion?from=<slug>&to=<slug>`. @public */
export interface PromotionDiffResponse {
  from: EnvironmentVersion;
  to: EnvironmentVersion;
  differences: PromotionDifference[];
  errors?: GitlabEnvError[];
}

/** What a merge request would change in one environment. @public */
export interface MergeRequestEnvironmentPreview {
  environment: { name: string; slug: string };
  /** The Flux object that would apply it. */
  fluxObject?: string;
  /** The manifests' directory the merge request touches. */
  path?: string;
  added: Array<Pick<DesiredObjectDiff, 'id' | 'file'>>;
  changed: Array<{ id: string; file: string; changes: FieldChange[] }>;
  /** Objects Flux applies now that the head no longer lists (pruned when the Kustomization prunes). */
  removed: Array<{ id: string; pruned: boolean }>;
  /** Objects that already differ at the deployed revision: drift, not the merge request's doing. */
  alreadyDrifted: number;
  /** What cannot be compared, in plain words (Helm values, generators, patches). */
  notCompared: string[];
  /** Why there is no comparison at all for this environment. */
  unavailable?: string;
}

/** An open merge request and what it would change. @public */
export interface MergeRequestPreview {
  iid: number;
  title: string;
  webUrl?: string;
  authorName?: string;
  headSha: string;
  sourceBranch?: string;
  targetBranch?: string;
  /** Files it changes under a directory a Flux environment applies. */
  touchedFiles: string[];
  environments: MergeRequestEnvironmentPreview[];
}

/** `GET /entity/:namespace/:kind/:name/merge-requests/preview`. @public */
export interface MergeRequestPreviewResponse {
  mergeRequests: MergeRequestPreview[];
  /** Open merge requests touching no manifest an environment applies. */
  untouched: number;
  errors?: GitlabEnvError[];
}
