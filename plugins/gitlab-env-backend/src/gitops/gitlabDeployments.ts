import {
  GitlabEnvironment,
  KubernetesObject,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { isDns1123Label } from '../validation';
import { ListableKind } from '../service/discovery';
import { isRecord } from '../service/json';

/** The GitLabDeployment kind of examples/gitlab-deployment/crd.yaml. */
export const GITLAB_DEPLOYMENT_KIND: ListableKind = {
  group: 'gitlab.com',
  version: 'v1alpha1',
  plural: 'gitlabdeployments',
  kind: 'GitLabDeployment',
  label: 'gitlab.com/GitLabDeployment',
  basePath: '/apis/gitlab.com/v1alpha1',
  clusterScoped: true,
};

const strings = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.filter((v): v is string => typeof v === 'string')
    : [];

/** Whether a GitLabDeployment serves a project: named, or under a group it names. */
function serves(spec: Record<string, unknown>, projectPath: string): boolean {
  return (
    strings(spec.projects).includes(projectPath) ||
    strings(spec.groups).some(group => projectPath.startsWith(`${group}/`))
  );
}

/**
 * The namespace GitLabDeployment objects give an environment of a project:
 * the object whose `spec.environment` is the environment's name and whose
 * `spec.projects` (or `spec.groups`, by prefix) cover the project; its
 * `spec.namespace`, else its name. The first by name wins when several do;
 * a namespace that is not a valid name is never used.
 */
export function namespaceFromGitlabDeployments(
  deployments: readonly KubernetesObject[],
  projectPath: string,
  environmentName: string,
): { namespace: string; name: string } | undefined {
  const matches = deployments
    .filter(
      d =>
        isRecord(d.spec) &&
        d.spec.environment === environmentName &&
        serves(d.spec, projectPath),
    )
    .map(d => ({
      name: String(d.metadata?.name ?? ''),
      namespace: d.spec.namespace ?? d.metadata?.name,
    }))
    .filter(m => isDns1123Label(m.namespace))
    .sort((a, b) => a.name.localeCompare(b.name));
  return matches[0];
}

/**
 * The environments with their namespace's source: GitLab's when GitLab has
 * one; else the GitLabDeployment objects of the environment's agent
 * (`deploymentsOf` lists them; undefined when it could not).
 */
export async function mapNamespaces(
  environments: GitlabEnvironment[],
  projectPath: string,
  deploymentsOf: (
    agentId: string,
  ) => Promise<readonly KubernetesObject[] | undefined>,
): Promise<GitlabEnvironment[]> {
  const lists = new Map<
    string,
    Promise<readonly KubernetesObject[] | undefined>
  >();
  return Promise.all(
    environments.map(async environment => {
      if (environment.namespace)
        return {
          ...environment,
          namespaceSource: { source: 'gitlab' as const },
        };
      const agent = environment.agent;
      if (!agent) return environment;
      if (!lists.has(agent.id)) lists.set(agent.id, deploymentsOf(agent.id));
      const deployments = await lists.get(agent.id)!;
      const mapping =
        deployments &&
        namespaceFromGitlabDeployments(
          deployments,
          projectPath,
          environment.name,
        );
      if (!mapping) return environment;
      return {
        ...environment,
        namespace: mapping.namespace,
        namespaceSource: {
          source: 'gitlabDeployment' as const,
          name: mapping.name,
          kubectl: `kubectl get gitlabdeployments.gitlab.com ${mapping.name} -o yaml`,
        },
      };
    }),
  );
}
