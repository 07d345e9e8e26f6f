import { ANNOTATION_KUBERNETES_AUTH_PROVIDER } from '@backstage/plugin-kubernetes-common';

/**
 * The auth provider name of clusters behind a GitLab agent. The Kubernetes
 * plugin dispatches on `kubernetes.io/auth-provider` and refuses strategy
 * names with a `-`.
 *
 * @public
 */
export const GITLAB_AGENT_AUTH_PROVIDER = 'gitlabAgent';

/** The GitLab instance (a host under `gitlabEnv.instances`) of the cluster's agent. */
export const GITLAB_INSTANCE_METADATA = 'gitlab-env/instance';
/** The agent's numeric id, the `<agent id>` of `pat:<agent id>:<token>`. */
export const GITLAB_AGENT_ID_METADATA = 'gitlab-env/agent-id';
/** The agent's name and its configuration project, for people. */
export const GITLAB_AGENT_METADATA = 'gitlab-env/agent';

export { ANNOTATION_KUBERNETES_AUTH_PROVIDER };
