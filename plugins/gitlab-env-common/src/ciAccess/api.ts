import type { GitlabEnvError } from '../types';
import type { CiAccessConfig, CiAccessDecision } from './types';
import type { DeleteResourcesPolicy } from './managedResources';

/**
 * What the backend answers for the "Access and namespaces" view and the
 * clean-up lists.
 */

/** One agent an entity's environments use, with its configuration file. @public */
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

/** @public */
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

/** @public */
export interface CiAccessCell {
  environment: string;
  agentId: string;
  decision: CiAccessDecision;
  /** The CI variables the decision was made with. */
  variables: Record<string, string>;
}

/** @public */
export interface CiAccessMatrixResponse {
  entityRef: string;
  project: { id: string; fullPath: string; defaultBranch: string };
  /** The branch the user picked; absent: the project's default branch. */
  branch?: string;
  agents: CiAccessAgent[];
  environments: CiAccessEnvironmentRow[];
  cells: CiAccessCell[];
}

/** Who created a namespace, from its labels and annotations. @public */
export type NamespaceCreator =
  | 'gitlab_managed_resources'
  | 'flux'
  | 'helm'
  | 'kubectl'
  | 'unknown';

/** Why a namespace is considered left behind. @public */
export interface StaleReason {
  /** What produced the name: a ci_access rule, managed resources, the environment's namespace setting, or a managed-resource label. */
  producedBy: 'rule' | 'managed_resources' | 'environment_namespace' | 'label';
  environment: string;
  environmentState: 'stopped' | 'deleted';
}

/** @public */
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

/** @public */
export interface StaleNamespacesResponse {
  namespaces: StaleNamespace[];
  /** Agents (or entities) whose namespaces could not be read, with why. */
  errors: Array<{ agent?: string; entityRef?: string; error: GitlabEnvError }>;
}

/**
 * A line of the portal-wide clean-up list as it streams
 * (`GET /ci-access/stale-namespaces` with `Accept: application/x-ndjson`):
 * each entity's agents once it is located, then each agent's namespaces or
 * failure as it settles, so a slow or absent agent holds only its own.
 *
 * @public
 */
export type StaleNamespacesStreamLine =
  | { type: 'start'; entities: number }
  /** The entity's agents whose namespaces are being read. */
  | { type: 'entity'; entityRef: string; agents: string[] }
  /** One agent of the entity: its stale namespaces, or why none could be read. */
  | {
      type: 'agent';
      entityRef: string;
      agent: string;
      namespaces: StaleNamespace[];
      error?: GitlabEnvError;
    }
  /** The entity could not be located or read at all. */
  | { type: 'entityError'; entityRef: string; error: GitlabEnvError }
  | { type: 'done'; elapsedMs: number };

/**
 * The clean-up list so far, folded from its stream's lines: each namespace
 * once, biggest first, and the agents still being read.
 *
 * @public
 */
export interface StaleNamespacesSoFar extends StaleNamespacesResponse {
  /** Agents located but not answered yet, per entity. */
  pending: Array<{ entityRef: string; agent: string }>;
  /** Whether the `done` line arrived. */
  done: boolean;
}

/** @public */
export interface DeleteNamespaceResponse {
  name: string;
  agentId: string;
  /** The Kubernetes API's answer: the namespace is Terminating. */
  phase: string;
  upstreamStatus: number;
}
