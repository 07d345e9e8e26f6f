/**
 * Every failure a user or an upstream can cause, as a stable code the
 * frontend can render its own panel for.
 *
 * @public
 */
export const GITLAB_ENV_ERROR_CODES = [
  /** The entity carries neither gitlab.com/project-slug nor gitlab.com/project-id. */
  'MISSING_ANNOTATION',
  /** An annotation is present but malformed (bad slug, bad glob, bad selector). */
  'INVALID_ANNOTATION',
  /** gitlab.com/instance names a host that is not under gitlabEnv.instances. */
  'UNKNOWN_INSTANCE',
  /** The instance has no token configured. */
  'MISSING_TOKEN',
  /** GitLab rejected the configured token itself (unknown to it, or without read_api). */
  'GITLAB_UNAUTHORIZED',
  /** The configured token is past its expiry date. */
  'TOKEN_EXPIRED',
  /** The configured token was revoked. */
  'TOKEN_REVOKED',
  /** The configured token lacks a scope the plugin needs (read_api, k8s_proxy). */
  'TOKEN_SCOPE_MISSING',
  /** The GitLab instance is older than the plugin supports (16.4). */
  'GITLAB_VERSION_UNSUPPORTED',
  /** The project does not exist or the token cannot see it. */
  'PROJECT_NOT_FOUND',
  /** The environment slug is not one of the entity's environments. */
  'ENVIRONMENT_NOT_FOUND',
  /** The environment has no agent for Kubernetes set. */
  'NO_AGENT',
  /**
   * The environment has Kubernetes settings but GitLab shows it no agent: the
   * token's user cannot see the agent (not Developer+ in the agent's project
   * and not covered by its user_access or ci_access).
   */
  'AGENT_NOT_VISIBLE',
  /** KAS refused the token for this agent: the user is not under user_access. */
  'AGENT_NOT_SHARED',
  /**
   * The agent's agentk never connected to GitLab, so GitLab holds no
   * user_access authorization for it yet (KAS refuses every token).
   */
  'AGENT_NEVER_CONNECTED',
  /** The environment has no Kubernetes namespace set. */
  'NO_NAMESPACE',
  /** The instance has KAS disabled, or KAS cannot be reached. */
  'KAS_UNAVAILABLE',
  /** KAS answered but the agent (agentk) is not connected. */
  'AGENT_NOT_CONNECTED',
  /** The cluster's RBAC refused to list a kind (403 from the API server). */
  'KIND_FORBIDDEN',
  /** Listing one kind failed for another reason. */
  'KIND_FAILED',
  /** Nothing was found in the namespace with the label selector used. */
  'NO_RESOURCES',
  /** GitLab or KAS did not answer in time. */
  'UPSTREAM_TIMEOUT',
  /** GitLab or KAS answered with something that is not what its API promises. */
  'UPSTREAM_MALFORMED',
  /** GitLab or KAS failed (5xx, connection reset). */
  'UPSTREAM_ERROR',
  /** The signed-in user lacks the permission to see this. */
  'NOT_ALLOWED',
  /** The browser's request itself is wrong (bad route parameter or encoding): not GitLab's or KAS's fault. */
  'INVALID_REQUEST',
  /** The catalog has no entity with the requested ref (or the caller cannot see it). */
  'ENTITY_NOT_FOUND',
  /**
   * A value GitLab holds for an environment (namespace, Flux resource path,
   * agent id) breaks the Kubernetes or GitLab grammar it must follow, so the
   * backend refuses to put it into a URL.
   */
  'INVALID_ENVIRONMENT_SETTING',
  /** A read stopped at a configured bound (pages, objects, deadline); what came before is shown. */
  'LIMIT_REACHED',
  /** The agent's configuration file does not exist in its configuration project. */
  'AGENT_CONFIG_MISSING',
  /** The agent's configuration file is not valid YAML or has invalid ci_access values. */
  'AGENT_CONFIG_INVALID',
  /** The token cannot read the agent's configuration project (needs Reporter). */
  'AGENT_CONFIG_UNREADABLE',
  /** A namespace asked to be deleted is not one the backend listed as stale. */
  'NAMESPACE_NOT_STALE',
  /** The cluster refused or failed to delete a namespace. */
  'NAMESPACE_DELETE_FAILED',
  /** A branch given to evaluate CI access rules for is not a valid branch name. */
  'INVALID_BRANCH',
  /**
   * The cluster refused an action or a log read (403 from the API server):
   * the agent's RBAC, or the impersonated user's, does not allow it.
   */
  'ACTION_FORBIDDEN',
  /** The object an action names no longer exists in the cluster (404). */
  'OBJECT_NOT_FOUND',
  /** The object changed or is in a state the action cannot apply to (409). */
  'OBJECT_CONFLICT',
  /** The API server rejected the change as invalid (400/422). */
  'ACTION_INVALID',
  /** The action does not apply to the object's kind (e.g. scaling a DaemonSet). */
  'ACTION_NOT_APPLICABLE',
  /**
   * An action or log read named an object that is not among the
   * environment's objects (another namespace, another environment); the
   * backend refused it without asking the cluster.
   */
  'OUTSIDE_ENVIRONMENT',
  /** The container has no logs to show (not started yet, or no previous instance). */
  'LOGS_UNAVAILABLE',
  /**
   * The entity's claim on its GitLab project is not verified: its catalog
   * file does not lie in that project's repository and app-config names no
   * such pairing. Reads work; writes, logs and repository reads are refused.
   */
  'CLAIM_UNVERIFIED',
  /**
   * An action or log read named an object the environment shows but does
   * not own (another namespace, a Flux dependsOn upstream or shared source,
   * the agent's own objects); refused without asking the cluster.
   */
  'NOT_OWNED',
  /**
   * Environments of two projects claim the environment's namespace and no
   * GitLabDeployment settles whose it is: its objects are read-only.
   */
  'NAMESPACE_CONTESTED',
  /**
   * The connection to KAS dropped after a write was sent: the change may or
   * may not have been applied. The hint names the kubectl command to check.
   */
  'WRITE_OUTCOME_UNKNOWN',
  /** The environment names a Flux object (fluxResourcePath) the cluster does not hold. */
  'FLUX_OBJECT_MISSING',
  /** A cap on long-lived streams was reached (followed logs per user, or the agent's share of tunnels). */
  'TOO_MANY_STREAMS',
  /**
   * A GitLab rollback was asked for but the instance has no token that may
   * run jobs (gitlabEnv.instances[].rollbackToken).
   */
  'ROLLBACK_TOKEN_MISSING',
  /** The rollback token lacks the `api` scope GitLab needs to retry a job (`read_api` is read-only). */
  'ROLLBACK_TOKEN_SCOPE',
  /**
   * GitLab refused to re-run the deploy job: the token's user may not deploy
   * to the protected environment, push to the protected ref, or is below
   * Developer.
   */
  'JOB_RETRY_FORBIDDEN',
  /** GitLab says the deploy job cannot be retried (running, pending, already retried, or a job GitLab does not retry). */
  'JOB_NOT_RETRYABLE',
  /** The deployment asked for is not one of the environment's, or it has no deploy job (created through the API). */
  'DEPLOYMENT_NOT_FOUND',
  /** The workload has no such revision in its history (or none to roll back to). */
  'REVISION_NOT_FOUND',
  /** The merge request does not exist, is not open, or the token cannot see it. */
  'MERGE_REQUEST_NOT_FOUND',
  /** The plugin's database could not be read or written (the timeline). */
  'TIMELINE_UNAVAILABLE',
] as const;

/** @public */
export type GitlabEnvErrorCode = (typeof GITLAB_ENV_ERROR_CODES)[number];

/**
 * A failure, as the API reports it. `message` says what happened, `hint`
 * what to do about it; both are written for the person looking at the page.
 *
 * @public
 */
export interface GitlabEnvError {
  code: GitlabEnvErrorCode;
  message: string;
  hint?: string;
  /** Set for failures scoped to one resource kind, e.g. `apps/Deployment`. */
  resource?: string;
  /** The upstream HTTP status, when there was one. */
  upstreamStatus?: number;
  /**
   * A refusal the agent's RBAC makes on purpose (Secrets, or a kind
   * configured under gitlabEnv.expectedForbiddenKinds): information about the
   * environment, not a warning.
   */
  expected?: boolean;
  /** For configuration files: the file and the 1-based line of the problem. */
  file?: string;
  line?: number;
}
