import { GitlabEnvironment } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { failure, GitlabEnvFailure } from '../errors';

/**
 * Why an environment cannot be read from its cluster, from what GitLab said
 * about it; undefined when it has an agent and a namespace. The entity tab
 * and the overview both use it, so they name the same cause.
 */
export function missingKubernetesSetting(
  environment: GitlabEnvironment,
): GitlabEnvFailure | undefined {
  const { agent, namespace, fluxResourcePath, name } = environment;
  if (!agent && (namespace || fluxResourcePath)) {
    // GitLab sets an environment's agent, namespace and Flux resource together
    // (environment:kubernetes, or the environment's settings page); Kubernetes
    // settings without an agent mean GitLab hides the agent from the token's
    // user: Environment.clusterAgent is null without read_cluster_agent
    // (app/policies/clusters/agent_policy.rb).
    return failure(
      'AGENT_NOT_VISIBLE',
      `The environment ${name} has Kubernetes settings, but GitLab shows the token's user no agent for it: the user cannot see the environment's agent.`,
      {
        hint: "Make the token's user a Developer of the agent's configuration project, or cover it by the agent's user_access (a project, or a group it is a direct member of). If the environment really has no agent, set environment:kubernetes:agent.",
      },
    );
  }
  if (!agent) {
    return failure(
      'NO_AGENT',
      `The environment ${name} has no agent for Kubernetes.`,
      {
        hint: "Set environment:kubernetes:agent in .gitlab-ci.yml, or pick the agent on the environment's settings page in GitLab.",
      },
    );
  }
  if (!namespace) {
    // GitLab has none, and no GitLabDeployment, workload carrying the
    // environment's GitLab markers or Flux inventory named one.
    return failure(
      'NO_NAMESPACE',
      `The environment ${name} has no Kubernetes namespace, and nothing in its agent's cluster names one (a GitLabDeployment, workloads annotated app.gitlab.com/env, a Flux inventory).${
        environment.namespaceLookup ? ` ${environment.namespaceLookup}` : ''
      }`,
      {
        hint: "Set environment:kubernetes:namespace in .gitlab-ci.yml, or the namespace on the environment's settings page in GitLab, or create a GitLabDeployment for it.",
      },
    );
  }
  return undefined;
}
