/**
 * The simulated world: a GitLab instance (users, tokens, groups, projects,
 * environments, agents) and, per agent, the Kubernetes cluster it connects.
 * Loaded from `examples/scenarios/<name>/` or generated for benchmarks.
 */

/** A Kubernetes object as the simulated API server stores it. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: KubeObjectMeta;
  spec?: any;
  status?: any;
  [key: string]: any;
}

export interface KubeObjectMeta {
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: Array<{
    apiVersion: string;
    kind: string;
    name: string;
    uid: string;
    controller?: boolean;
    blockOwnerDeletion?: boolean;
  }>;
  [key: string]: any;
}

/** GitLab membership roles, in increasing order of power. */
export type AccessRole =
  | 'guest'
  | 'reporter'
  | 'developer'
  | 'maintainer'
  | 'owner';

export type Visibility = 'private' | 'internal' | 'public';

export interface ScenarioUser {
  id: number;
  username: string;
  name: string;
}

export interface ScenarioToken {
  token: string;
  username: string;
  /** e.g. `read_api`, `api`, `k8s_proxy`, `read_user`. */
  scopes: string[];
  name?: string;
  /** ISO date; a token past it answers like an unknown one. */
  expiresAt?: string;
  revoked?: boolean;
}

export interface ScenarioGroup {
  id: number;
  fullPath: string;
  name: string;
  visibility: Visibility;
}

export interface ScenarioMembership {
  username: string;
  /** Full path of a group (inherited by its subgroups and projects) or a project. */
  path: string;
  role: AccessRole;
}

export type DeploymentStatus =
  | 'CREATED'
  | 'RUNNING'
  | 'SUCCESS'
  | 'FAILED'
  | 'CANCELED'
  | 'SKIPPED'
  | 'BLOCKED';

/** CI job statuses (`Ci::HasStatus`), as REST writes them. */
export type JobStatus =
  | 'created'
  | 'pending'
  | 'running'
  | 'success'
  | 'failed'
  | 'canceled'
  | 'skipped'
  | 'manual';

export interface ScenarioPipeline {
  /** Global id (`gid://gitlab/Ci::Pipeline/<id>`). */
  id: number;
  /** Per-project number (`#<iid>` in GitLab's UI). */
  iid: number;
}

/** The CI job that deployed (`Deployment#deployable`, a `Ci::Build`). */
export interface ScenarioJob {
  /** Global id (`gid://gitlab/Ci::Build/<id>`). */
  id: number;
  name: string;
  stage: string;
  status: JobStatus;
  /** A newer job (its retry) replaced it: it is no longer retryable. */
  retried: boolean;
  pipeline: ScenarioPipeline;
  createdAt: string;
  startedAt?: string;
  finishedAt?: string;
  /** Who ran the job (the deployment's triggerer). */
  user: string;
}

export interface ScenarioDeployment {
  /** Global id, increasing with creation time across the instance. */
  id: number;
  /** Per-project number. */
  iid: number;
  status: DeploymentStatus;
  ref: string;
  /** Is `ref` a tag? */
  tag: boolean;
  sha: string;
  createdAt: string;
  updatedAt: string;
  finishedAt?: string;
  /** Username of who triggered it. */
  triggerer: string;
  job: ScenarioJob;
  /**
   * Images the deploy job sets on the environment's workloads (matched by
   * repository, `registry/path:tag`): what a retry of the job re-applies.
   */
  images: string[];
}

export type DeploymentTier =
  | 'production'
  | 'staging'
  | 'testing'
  | 'development'
  | 'other';

export interface ScenarioEnvironment {
  id: number;
  name: string;
  tier: DeploymentTier;
  state: 'available' | 'stopping' | 'stopped';
  externalUrl?: string;
  kubernetesNamespace?: string;
  fluxResourcePath?: string;
  /** Name of the agent (in `Scenario.agents`) the environment is linked to. */
  agent?: string;
  autoStopAt?: string;
  createdAt: string;
  updatedAt: string;
  /** Newest first. */
  deployments: ScenarioDeployment[];
  /**
   * A protected environment (Premium): who is "Allowed to deploy"
   * (doc/ci/environments/protected_environments.md). Roles include higher ones.
   */
  protected?: { deployAccess: Array<{ role?: AccessRole; user?: string }> };
}

/** One commit of a project's repository. */
export interface ScenarioCommit {
  /** 40 hex digits. */
  id: string;
  /** First parent first; two for a merge commit. */
  parents: string[];
  title: string;
  message: string;
  /** Username of the author (and committer). */
  author: string;
  authoredAt: string;
  committedAt: string;
  /**
   * Files changed against the first parent: the new content, or null for a
   * deleted file. A merge commit's changes are what its second parent's
   * branch brought.
   */
  changes: Record<string, string | null>;
}

export interface ScenarioRepository {
  /** By id. */
  commits: Map<string, ScenarioCommit>;
  /** Branch name → head commit id. */
  branches: Record<string, string>;
  /** Tag name → commit id. */
  tags: Record<string, string>;
  /** Protected tag names (wildcards allowed); default none. */
  protectedTags?: string[];
}

export type MergeRequestState = 'opened' | 'merged' | 'closed';

export interface ScenarioMergeRequest {
  /** Global id. */
  id: number;
  iid: number;
  title: string;
  description: string;
  state: MergeRequestState;
  sourceBranch: string;
  targetBranch: string;
  /** Username. */
  author: string;
  createdAt: string;
  updatedAt: string;
  mergedAt?: string;
  mergedBy?: string;
  closedAt?: string;
  /** The source branch's head. */
  sha: string;
  /** Where the branch left the target branch (the diff's base). */
  baseSha: string;
  /** The merge commit on the target branch, once merged. */
  mergeCommitSha?: string;
  /** Its commits, oldest first. */
  commits: string[];
}

export interface ScenarioProject {
  id: number;
  fullPath: string;
  name: string;
  description?: string;
  visibility: Visibility;
  defaultBranch: string;
  environments: ScenarioEnvironment[];
  /**
   * Repository files of the first commit, by path (with no history: of the
   * default branch); commits change them (`repository`).
   */
  files: Record<string, string>;
  repository: ScenarioRepository;
  mergeRequests: ScenarioMergeRequest[];
  /** Protected branch names (wildcards allowed); default: the default branch. */
  protectedBranches?: string[];
}

export interface AgentAuthorizationEntry {
  id: string;
  default_namespace?: string;
  environments?: string[];
  access_as?: Record<string, unknown>;
}

/** The parts of `.gitlab/agents/<name>/config.yaml` the simulator acts on. */
export interface AgentConfig {
  user_access?: {
    access_as?: Record<string, unknown>;
    projects?: AgentAuthorizationEntry[];
    groups?: AgentAuthorizationEntry[];
  };
  ci_access?: {
    projects?: AgentAuthorizationEntry[];
    groups?: AgentAuthorizationEntry[];
  };
  [key: string]: unknown;
}

export interface ScenarioAgent {
  id: number;
  name: string;
  /** Full path of the project holding `.gitlab/agents/<name>/config.yaml`. */
  configProject: string;
  config: AgentConfig;
  /** false: agentk is not connected to KAS now. */
  connected: boolean;
  /**
   * When agentk last reported the agent's configuration (it does so while it
   * polls KAS); undefined: agentk never connected. GitLab stores the
   * `user_access`/`ci_access` authorizations only from a reported
   * configuration (`Clusters::Agents::Authorizations::UserAccess::RefreshService`,
   * gitlab-agent `internal/module/agent_configuration/server/server.go`).
   */
  configReportedAt?: string;
  createdAt: string;
  /**
   * The cluster's RBAC for agentk's service account: resources it may not
   * read, as `plural` or `group/plural` (like the `forbiddenKinds` knob).
   */
  forbiddenResources: string[];
  /** Writes the service account may not make, as `<verb> <resource>` (like the `forbiddenActions` knob). */
  forbiddenActions?: string[];
  /** false: the cluster runs no metrics-server (no `metrics.k8s.io`); default true. */
  metricsServer?: boolean;
}

export interface ScenarioCluster {
  /** Name of the agent connected to this cluster. */
  agent: string;
  kubernetesVersion: string;
  /** Everything the API server holds, already expanded (Pods, ReplicaSets...). */
  objects: KubeObject[];
}

export interface ScenarioInstance {
  /** The host name catalog entities use, e.g. gitlab.example.com. */
  host: string;
  version: string;
  revision: string;
  kasVersion: string;
}

export interface Scenario {
  name: string;
  instance: ScenarioInstance;
  users: ScenarioUser[];
  tokens: ScenarioToken[];
  groups: ScenarioGroup[];
  memberships: ScenarioMembership[];
  projects: ScenarioProject[];
  agents: ScenarioAgent[];
  clusters: ScenarioCluster[];
}
