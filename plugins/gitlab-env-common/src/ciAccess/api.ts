import type { GitlabEnvError } from '../types';
import type { CiAccessConfig, CiAccessDecision } from './types';
import type { DeleteResourcesPolicy } from './managedResources';

/**
 * What the backend answers for the "Access and namespaces" view and the
 * clean-up lists.
 */

/** One agent an entity's environments use, with its configuration file. */
export interface CiAccessAgent {
  id: string;
  name: string;
  configProject?: string;
  /** `<config project>: .gitlab/agents/<agent>/config.yaml@<ref>` */
  configFile?: string;
  /** The file's `ci_access`, as read. */
  ciAccess?: CiAccessConfig;
  /** Why the configuration could not be used (missing, invalid with line, unreadable). */
  error?: GitlabEnvError;
}

export interface CiAccessEnvironmentRow {
  name: string;
  slug: string;
  tier: string;
  state: string;
  /** The namespace set on the GitLab environment (dashboard), if any. */
  namespace?: string;
  agentId?: string;
  /** The branch a deployment job is assumed to run on. */
  ref: string;
}

export interface CiAccessCell {
  environment: string;
  agentId: string;
  decision: CiAccessDecision;
  /** The CI variables the decision was made with. */
  variables: Record<string, string>;
}

export interface CiAccessMatrixResponse {
  entityRef: string;
  project: { id: string; fullPath: string; defaultBranch: string };
  /** The branch the user picked; absent: the project's default branch. */
  branch?: string;
  agents: CiAccessAgent[];
  environments: CiAccessEnvironmentRow[];
  cells: CiAccessCell[];
}

/** Who created a namespace, from its labels and annotations. */
export type NamespaceCreator =
  | 'gitlab_managed_resources'
  | 'flux'
  | 'helm'
  | 'kubectl'
  | 'unknown';

/** Why a namespace is considered left behind. */
export interface StaleReason {
  /** What produced the name: a ci_access rule, managed resources, the environment's namespace setting, or a managed-resource label. */
  producedBy: 'rule' | 'managed_resources' | 'environment_namespace' | 'label';
  environment: string;
  environmentState: 'stopped' | 'deleted';
}

export interface StaleNamespace {
  name: string;
  agent: { id: string; name: string };
  entityRef: string;
  projectPath: string;
  reasons: StaleReason[];
  createdAt?: string;
  creator: NamespaceCreator;
  /** GitLab-managed with `delete_resources: on_stop`: GitLab is expected to delete it. */
  gitlabDeletes: boolean;
  deleteResources?: DeleteResourcesPolicy;
  contents: {
    /** Objects by kind (`Deployment`, `Pod`, ...). */
    counts: Record<string, number>;
    total: number;
    /** Pods in phase Running. */
    runningPods: number;
    /** Deployments, StatefulSets and DaemonSets with ready replicas. */
    runningWorkloads: number;
    /** Kinds that could not be counted (RBAC, errors). */
    uncounted: string[];
  };
  /** The command a person would run instead. */
  kubectl: string;
}

export interface StaleNamespacesResponse {
  namespaces: StaleNamespace[];
  /** Agents (or entities) whose namespaces could not be read, with why. */
  errors: Array<{ agent?: string; entityRef?: string; error: GitlabEnvError }>;
}

export interface DeleteNamespaceResponse {
  name: string;
  agentId: string;
  /** The Kubernetes API's answer: the namespace is Terminating. */
  phase: string;
  upstreamStatus: number;
}
