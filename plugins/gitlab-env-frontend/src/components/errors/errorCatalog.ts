import { GitlabEnvErrorCode } from '@gitlab-env/backstage-plugin-gitlab-env-common';

export interface ErrorAdvice {
  title: string;
  /** What to do, when the backend sent no hint. */
  advice: string;
  /** Not a fault: a state to explain, shown as information. */
  severity: 'error' | 'warning' | 'info';
}

/** A title and a fallback next step for every error code the backend sends. */
export const ERROR_CATALOG: Record<GitlabEnvErrorCode, ErrorAdvice> = {
  MISSING_ANNOTATION: {
    title: 'No GitLab project for this entity',
    advice:
      'Add the gitlab.com/project-slug (or gitlab.com/project-id) annotation to the entity.',
    severity: 'info',
  },
  INVALID_ANNOTATION: {
    title: 'An annotation is not valid',
    advice:
      'Fix the annotation named in the message in the entity’s catalog-info.yaml.',
    severity: 'error',
  },
  UNKNOWN_INSTANCE: {
    title: 'Unknown GitLab instance',
    advice:
      'Add the host to gitlabEnv.instances in app-config.yaml, or fix the gitlab.com/instance annotation.',
    severity: 'error',
  },
  MISSING_TOKEN: {
    title: 'No GitLab token configured',
    advice:
      'Set a token for this instance under gitlabEnv.instances in app-config.yaml.',
    severity: 'error',
  },
  GITLAB_UNAUTHORIZED: {
    title: 'GitLab does not know the configured token',
    advice:
      'Ask a Backstage admin to check gitlabEnv.instances[].token: it must be an access token of this GitLab instance.',
    severity: 'error',
  },
  TOKEN_EXPIRED: {
    title: 'The GitLab token has expired',
    advice:
      'Ask a Backstage admin to create a new token with the read_api and k8s_proxy scopes and configure it.',
    severity: 'error',
  },
  TOKEN_REVOKED: {
    title: 'The GitLab token was revoked',
    advice:
      'Ask a Backstage admin to create a new token with the read_api and k8s_proxy scopes and configure it.',
    severity: 'error',
  },
  TOKEN_SCOPE_MISSING: {
    title: 'The GitLab token lacks a scope',
    advice:
      'Ask a Backstage admin for a token with both the read_api and k8s_proxy scopes (api alone does not pass KAS).',
    severity: 'error',
  },
  GITLAB_VERSION_UNSUPPORTED: {
    title: 'This GitLab version is too old',
    advice:
      'The plugin needs GitLab 16.4 or later (personal access tokens through KAS); ask your GitLab admin to upgrade.',
    severity: 'error',
  },
  PROJECT_NOT_FOUND: {
    title: 'GitLab project not found',
    advice:
      'Check the project slug or id annotation, and that the token can see the project.',
    severity: 'error',
  },
  ENVIRONMENT_NOT_FOUND: {
    title: 'Environment not found',
    advice:
      'The environment may have been deleted or filtered out by the entity’s gitlab-env annotations.',
    severity: 'warning',
  },
  NO_AGENT: {
    title: 'No agent for Kubernetes on this environment',
    advice:
      'In GitLab, open Operate › Environments › Edit and select the GitLab agent for this environment.',
    severity: 'info',
  },
  AGENT_NOT_VISIBLE: {
    title: 'The agent is hidden from Backstage’s GitLab user',
    advice:
      'Make the token’s user a Developer of the agent’s project, or cover it by the agent’s user_access.',
    severity: 'warning',
  },
  AGENT_NEVER_CONNECTED: {
    title: 'The agent has never connected',
    advice:
      'Install agentk in the cluster with the agent’s token; its user_access takes effect once it has connected.',
    severity: 'warning',
  },
  AGENT_NOT_SHARED: {
    title: 'The agent does not share this cluster',
    advice:
      'List a project or group the token’s user is a Developer of (groups: a direct membership) under user_access in the agent’s config.yaml.',
    severity: 'warning',
  },
  NO_NAMESPACE: {
    title: 'No Kubernetes namespace on this environment',
    advice: 'In GitLab, edit the environment and set its Kubernetes namespace.',
    severity: 'info',
  },
  KAS_UNAVAILABLE: {
    title: 'GitLab’s Kubernetes agent server is unavailable',
    advice:
      'KAS may be disabled on this GitLab instance or unreachable from Backstage; ask your GitLab admin.',
    severity: 'error',
  },
  AGENT_NOT_CONNECTED: {
    title: 'The agent is not connected',
    advice:
      'Check that agentk is running in the cluster and can reach GitLab (kubectl logs -n gitlab-agent deploy/...).',
    severity: 'warning',
  },
  KIND_FORBIDDEN: {
    title: 'The cluster refused to list a kind',
    advice:
      'Grant the agent’s impersonated user list access to this kind in the namespace (RBAC).',
    severity: 'warning',
  },
  KIND_FAILED: {
    title: 'A kind could not be listed',
    advice: 'Retry; if it persists, check the cluster API server.',
    severity: 'warning',
  },
  NO_RESOURCES: {
    title: 'No resources found',
    advice:
      'Nothing in the namespace matches; check the namespace and the gitlab-env/label-selector annotation.',
    severity: 'info',
  },
  UPSTREAM_TIMEOUT: {
    title: 'GitLab did not answer in time',
    advice: 'Retry in a moment; the data refreshes on its own.',
    severity: 'warning',
  },
  UPSTREAM_MALFORMED: {
    title: 'GitLab answered with something unexpected',
    advice:
      'The GitLab or KAS version may not be supported; report it to your Backstage admin.',
    severity: 'error',
  },
  UPSTREAM_ERROR: {
    title: 'GitLab failed',
    advice: 'Retry in a moment; if it persists, check GitLab’s status.',
    severity: 'error',
  },
  NOT_ALLOWED: {
    title: 'You are not allowed to see this',
    advice:
      'Ask the entity’s owners for access (permission gitlab-env.resources.read).',
    severity: 'warning',
  },
  INVALID_REQUEST: {
    title: 'This page asked for something that is not valid',
    advice:
      'The address of the page is malformed; open the entity again from the catalog.',
    severity: 'error',
  },
  ENTITY_NOT_FOUND: {
    title: 'Entity not found',
    advice:
      'The catalog has no such entity, or you cannot see it; check the address or refresh the catalog.',
    severity: 'warning',
  },
  INVALID_ENVIRONMENT_SETTING: {
    title: 'GitLab holds an invalid setting for this environment',
    advice:
      'Fix the value the message names in the environment’s settings in GitLab (or in .gitlab-ci.yml); nothing is read until it is valid.',
    severity: 'error',
  },
  LIMIT_REACHED: {
    title: 'Not everything is shown',
    advice:
      'The read stopped at a configured limit; narrow it with the gitlab-env/label-selector annotation.',
    severity: 'warning',
  },
  AGENT_CONFIG_MISSING: {
    title: 'Agent configuration file not found',
    advice:
      'Add .gitlab/agents/<agent>/config.yaml to the agent’s configuration project, on its default branch.',
    severity: 'error',
  },
  AGENT_CONFIG_INVALID: {
    title: 'Agent configuration file is not valid',
    advice: 'Fix the line named in the message in the agent’s config.yaml.',
    severity: 'error',
  },
  AGENT_CONFIG_UNREADABLE: {
    title: 'Agent configuration cannot be read',
    advice:
      'Give the Backstage token’s user the Reporter role on the agent’s configuration project.',
    severity: 'error',
  },
  NAMESPACE_NOT_STALE: {
    title: 'Not a stale namespace',
    advice:
      'Only namespaces listed as left behind can be deleted here; reload the list.',
    severity: 'warning',
  },
  NAMESPACE_DELETE_FAILED: {
    title: 'The namespace could not be deleted',
    advice:
      'Check the agent’s RBAC (delete on namespaces) or run the kubectl command shown.',
    severity: 'error',
  },
  INVALID_BRANCH: {
    title: 'Not a branch name',
    advice: 'Enter a branch name such as main or feature/x.',
    severity: 'warning',
  },
  ACTION_FORBIDDEN: {
    title: 'The cluster refused this',
    advice:
      'The agent’s RBAC (or your impersonated user’s) does not allow it: ask the cluster’s administrators to grant the verb named in the message, or run the kubectl command shown with credentials that have it.',
    severity: 'error',
  },
  OBJECT_NOT_FOUND: {
    title: 'The object no longer exists',
    advice:
      'It was deleted or replaced since the page loaded; refresh the page.',
    severity: 'warning',
  },
  OBJECT_CONFLICT: {
    title: 'The object changed',
    advice:
      'Someone or a controller changed it at the same time, or it is in a state that does not allow this; refresh the page and try again.',
    severity: 'warning',
  },
  ACTION_INVALID: {
    title: 'The cluster rejected the change as invalid',
    advice:
      'Read the message from the API server, fix the value and try again.',
    severity: 'error',
  },
  ACTION_NOT_APPLICABLE: {
    title: 'This action does not apply to this kind',
    advice: 'Choose an action the object’s menu offers.',
    severity: 'warning',
  },
  OUTSIDE_ENVIRONMENT: {
    title: 'The object is not part of this environment',
    advice:
      'The plugin acts only on the objects it lists for the environment; refresh the page to see the current ones.',
    severity: 'error',
  },
  LOGS_UNAVAILABLE: {
    title: 'No logs to show',
    advice:
      'The container has not started yet or has no previous instance; choose another container or turn off “previous”.',
    severity: 'info',
  },
  CLAIM_UNVERIFIED: {
    title: 'This entity’s claim on the GitLab project is not verified',
    advice:
      'Its objects show, but nothing is changed for it: register the entity from a catalog-info.yaml in that project’s repository, or ask the portal’s administrators to pair it with the project in app-config (gitlabEnv.ownership.claims).',
    severity: 'warning',
  },
  NOT_OWNED: {
    title: 'The environment shows this object but does not own it',
    advice:
      'It belongs to another team, to the agent or to the cluster’s platform; act on it from where it is owned.',
    severity: 'info',
  },
  NAMESPACE_CONTESTED: {
    title: 'Two projects claim this namespace',
    advice:
      'Its objects are read-only until a GitLabDeployment names the project that owns the namespace, or the other environment’s settings are fixed.',
    severity: 'warning',
  },
  WRITE_OUTCOME_UNKNOWN: {
    title: 'The change may or may not have been applied',
    advice:
      'The connection dropped after the request was sent: check the object with the kubectl command shown before trying again.',
    severity: 'error',
  },
  FLUX_OBJECT_MISSING: {
    title: 'The environment’s Flux object does not exist',
    advice:
      'Fix the environment’s Flux resource path in GitLab, or create the Kustomization or HelmRelease it names.',
    severity: 'warning',
  },
  TOO_MANY_STREAMS: {
    title: 'Too many followed logs',
    advice:
      'Close another followed log (another tab, another pod) and try again.',
    severity: 'warning',
  },
  ROLLBACK_TOKEN_MISSING: {
    title: 'GitLab rollback is not configured',
    advice:
      'Ask a Backstage admin to set gitlabEnv.instances[].rollbackToken to a token with the api scope whose user may deploy to this environment.',
    severity: 'info',
  },
  ROLLBACK_TOKEN_SCOPE: {
    title: 'The rollback token may not run jobs',
    advice:
      'The token set as gitlabEnv.instances[].rollbackToken needs the api scope (read_api is read-only).',
    severity: 'error',
  },
  JOB_RETRY_FORBIDDEN: {
    title: 'GitLab refused to re-run the deploy job',
    advice:
      'The rollback token’s user must be at least a Developer and allowed to deploy to the environment (protected environments) and to its ref (protected branches and tags).',
    severity: 'error',
  },
  JOB_NOT_RETRYABLE: {
    title: 'GitLab cannot re-run this job',
    advice:
      'The job is still running, pending or was already retried; pick another deployment or wait for it to finish.',
    severity: 'warning',
  },
  DEPLOYMENT_NOT_FOUND: {
    title: 'No such deployment',
    advice:
      'The deployment is not one of this environment’s, or it has no deploy job (it was created through the API); refresh the history.',
    severity: 'warning',
  },
  REVISION_NOT_FOUND: {
    title: 'No such revision',
    advice:
      'The workload no longer keeps that revision (revisionHistoryLimit); refresh and pick one it lists.',
    severity: 'warning',
  },
  MERGE_REQUEST_NOT_FOUND: {
    title: 'Merge request not found',
    advice: 'It may have been merged or closed meanwhile; refresh the list.',
    severity: 'info',
  },
  TIMELINE_UNAVAILABLE: {
    title: 'The timeline cannot be read',
    advice:
      'The plugin’s database did not answer; ask a Backstage admin to check backend.database and the backend’s logs.',
    severity: 'error',
  },
};
