import { shellWord } from '@gitlab-env/backstage-plugin-gitlab-env-common';

/**
 * The kubectl commands that show where an environment's namespace came
 * from and what its objects are. Names come from GitLab and the cluster:
 * each is one shell word (shellWord).
 */

/** The GitLabDeployment that maps the environment. */
export function gitlabDeploymentCommand(name: string): string {
  return `kubectl get gitlabdeployments.gitlab.com ${shellWord(name)} -o yaml`;
}

/** The entries of a Flux applier's inventory; `resource` is `<plural or kind>.<group>`. */
export function inventoryCommand(
  resource: string,
  name: string,
  namespace: string,
): string {
  return `kubectl get ${shellWord(resource)} ${shellWord(name)} -n ${shellWord(
    namespace,
  )} -o jsonpath='{.status.inventory.entries[*].id}'`;
}

/** The workloads of a namespace with their GitLab deploy-board annotations. */
export function markersCommand(namespace: string): string {
  const columns =
    'NAME:.metadata.name,APP:.metadata.annotations.app\\.gitlab\\.com/app,ENV:.metadata.annotations.app\\.gitlab\\.com/env';
  return `kubectl get deployments,statefulsets,daemonsets -n ${shellWord(
    namespace,
  )} -o custom-columns=${columns}`;
}
