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

export interface ScenarioDeployment {
  id: number;
  iid: number;
  status: DeploymentStatus;
  ref: string;
  sha: string;
  createdAt: string;
  finishedAt?: string;
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
}

export interface ScenarioProject {
  id: number;
  fullPath: string;
  name: string;
  description?: string;
  visibility: Visibility;
  defaultBranch: string;
  environments: ScenarioEnvironment[];
  /** Repository files on the default branch, by path. */
  files: Record<string, string>;
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
