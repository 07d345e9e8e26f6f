import {
  GitlabAgentRef,
  GitlabEnvironment,
  groupOfApiVersion,
  KubernetesObject,
  fluxInventoryKeys,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { checkFluxResourcePath, isDns1123Label } from '../validation';
import { KasClient } from '../transport/kasClient';
import { getObject, listKind } from '../reading/objectSource';
import { ReadBounds } from '../reading/readBounds';
import { ListableKind } from '../reading/discovery';
import { isRecord } from '../validation/json';
import { GitlabEnvConfig } from '../config';
import {
  listMarkedWorkloads,
  MarkedWorkloads,
  namespaceFromMarkers,
} from './markedWorkloads';
import { markersOf, markSharedNamespaces } from './sharedNamespaces';
import { mostCommonNamespace } from './mostCommonNamespace';
import { gitlabDeploymentCommand, inventoryCommand } from './mappingCommands';

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

/** The Ready condition of a GitLabDeployment's status, as one line. */
function readyText(deployment: KubernetesObject): string | undefined {
  const conditions: unknown = deployment.status?.conditions;
  if (!Array.isArray(conditions)) return undefined;
  const ready = conditions.find(c => isRecord(c) && c.type === 'Ready');
  if (!isRecord(ready) || typeof ready.status !== 'string') return undefined;
  const message = typeof ready.message === 'string' ? `: ${ready.message}` : '';
  return `Ready=${ready.status}${message}`.slice(0, 300);
}

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
):
  | { namespace: string; name: string; status?: string; serves: string[] }
  | undefined {
  const matches = deployments
    .filter(
      d =>
        isRecord(d.spec) &&
        d.spec.environment === environmentName &&
        serves(d.spec, projectPath),
    )
    .map(d => {
      const status = readyText(d);
      return {
        name: String(d.metadata?.name ?? ''),
        namespace: d.spec.namespace ?? d.metadata?.name,
        ...(status && { status }),
        serves: [
          ...strings(d.spec.projects),
          ...strings(d.spec.groups).map(group => `${group}/*`),
        ].slice(0, 100),
      };
    })
    .filter(m => isDns1123Label(m.namespace))
    .sort((a, b) => a.name.localeCompare(b.name));
  return matches[0];
}

/** Where mapNamespaces looks in an agent's cluster; each answers undefined when it could not read. */
export interface ClusterNamespaceSources {
  deploymentsOf(
    agentId: string,
  ): Promise<readonly KubernetesObject[] | undefined>;
  /** `known`: the namespaces the agent is known to deploy to, for RBAC that refuses lists across the cluster. */
  workloadsOf?(
    agentId: string,
    known: readonly string[],
  ): Promise<MarkedWorkloads | undefined>;
  fluxObjectOf?(
    environment: GitlabEnvironment,
  ): Promise<KubernetesObject | undefined>;
}

/** Memoizes a per-agent read: every environment of the agent shares one. */
function perAgent<T>(
  read: (agentId: string) => Promise<T>,
): (agentId: string) => Promise<T> {
  const reads = new Map<string, Promise<T>>();
  return agentId => {
    if (!reads.has(agentId)) reads.set(agentId, read(agentId));
    return reads.get(agentId)!;
  };
}

/**
 * The environments with their namespace's source, the first that gives
 * one: GitLab's settings; else the GitLabDeployment objects of the
 * environment's agent; else the workloads of the agent's cluster carrying
 * the environment's GitLab markers (label); else, for an environment with
 * a Flux object, the namespace its inventory applies to. Then environments
 * sharing a namespace get how to narrow it (markSharedNamespaces).
 */
export async function mapNamespaces(
  environments: GitlabEnvironment[],
  project: { fullPath: string; id?: string },
  sources: ClusterNamespaceSources,
): Promise<GitlabEnvironment[]> {
  const deploymentsOf = perAgent(sources.deploymentsOf);
  const fluxObjectOf = sources.fluxObjectOf ?? (async () => undefined);
  const declared = await Promise.all(
    environments.map(async environment => {
      if (environment.namespace)
        return {
          ...environment,
          namespaceSource: { source: 'gitlab' as const },
        };
      const agent = environment.agent;
      // A value GitLab holds that was refused stays refused: nothing is
      // read for that environment, and no other source stands in for it.
      const refused = environment.errors?.some(
        e => e.code === 'INVALID_ENVIRONMENT_SETTING',
      );
      if (!agent || refused) return environment;
      const deployments = await deploymentsOf(agent.id);
      const mapping =
        deployments &&
        namespaceFromGitlabDeployments(
          deployments,
          project.fullPath,
          environment.name,
        );
      if (!mapping) return environment;
      return {
        ...environment,
        namespace: mapping.namespace,
        namespaceSource: {
          source: 'gitlabDeployment' as const,
          name: mapping.name,
          kubectl: gitlabDeploymentCommand(mapping.name),
          ...(mapping.status && { status: mapping.status }),
          serves: mapping.serves,
        },
      };
    }),
  );
  // Where the agent is known to deploy: where to look one namespace at a
  // time when RBAC refuses the lists across the cluster.
  const known = (agentId: string) => [
    ...new Set(
      declared
        .filter(e => e.agent?.id === agentId && e.namespace)
        .map(e => e.namespace!),
    ),
  ];
  const workloadsOf = perAgent(async (agentId: string) =>
    sources.workloadsOf?.(agentId, known(agentId)),
  );
  const mapped = await Promise.all(
    declared.map(async environment => {
      const agent = environment.agent;
      const refused = environment.errors?.some(
        e => e.code === 'INVALID_ENVIRONMENT_SETTING',
      );
      if (environment.namespace || !agent || refused) return environment;
      const workloads = await workloadsOf(agent.id);
      const byMarkers =
        workloads &&
        namespaceFromMarkers(
          workloads.objects,
          markersOf(environment, project),
        );
      if (byMarkers)
        return {
          ...environment,
          namespace: byMarkers.namespace,
          namespaceSource: byMarkers.mapping,
        };
      const byInventory = await withInventoryNamespace(
        environment,
        fluxObjectOf,
      );
      if (byInventory.namespace || !workloads?.failures.length)
        return byInventory;
      return {
        ...environment,
        namespaceLookup: `Its GitLab annotations could not be looked for everywhere: ${workloads.failures.join(
          '; ',
        )}.`,
      };
    }),
  );
  return markSharedNamespaces(mapped, project);
}

/**
 * The namespace a Flux object deploys to: `spec.targetNamespace`, else the
 * namespace most of its inventory's namespaced entries live in (first by
 * name on a tie); undefined when neither gives a valid name.
 */
export function namespaceFromInventory(
  flux: KubernetesObject,
): string | undefined {
  const target = flux.spec?.targetNamespace;
  if (isDns1123Label(target)) return target;
  return mostCommonNamespace(
    fluxInventoryKeys(flux)
      .map(key => key.namespace)
      .filter(isDns1123Label),
  );
}

async function withInventoryNamespace(
  environment: GitlabEnvironment,
  fluxObjectOf: (
    environment: GitlabEnvironment,
  ) => Promise<KubernetesObject | undefined>,
): Promise<GitlabEnvironment> {
  if (!environment.fluxResourcePath) return environment;
  const flux = await fluxObjectOf(environment);
  const namespace = flux && namespaceFromInventory(flux);
  if (!namespace) return environment;
  const name = `${flux.kind}/${flux.metadata?.namespace}/${flux.metadata?.name}`;
  return {
    ...environment,
    namespace,
    namespaceSource: {
      source: 'inventory',
      name,
      kubectl: inventoryCommand(
        `${String(flux.kind).toLowerCase()}.${groupOfApiVersion(
          flux.apiVersion,
        )}`,
        String(flux.metadata?.name),
        String(flux.metadata?.namespace),
      ),
    },
  };
}

/**
 * The project's environments with their namespace sources, reading through
 * each agent that has an environment without a namespace: its
 * GitLabDeployment objects, and the environment's Flux object. A failed
 * read leaves the environment as GitLab gave it (logged by the caller).
 */
export function namespaceSourcesThroughAgents(options: {
  environments: GitlabEnvironment[];
  project: { fullPath: string; id?: string };
  kas: (agent: GitlabAgentRef) => Promise<KasClient>;
  bounds: () => ReadBounds;
  /** Where to look for workloads carrying GitLab's annotations (gitlabEnv.namespaceMapping). */
  workloadAnnotations?: GitlabEnvConfig['namespaceMapping']['workloadAnnotations'];
  onFailure: (what: string, error: unknown) => void;
}): Promise<GitlabEnvironment[]> {
  const { environments, kas, bounds, onFailure } = options;
  const agentOf = (agentId: string) =>
    environments.find(e => e.agent?.id === agentId)?.agent!;
  return mapNamespaces(environments, options.project, {
    async deploymentsOf(agentId) {
      const agent = agentOf(agentId);
      try {
        return await listKind(await kas(agent), GITLAB_DEPLOYMENT_KIND, {
          bounds: bounds(),
        });
      } catch (error) {
        onFailure(
          `GitLabDeployment objects through agent ${agent.name}`,
          error,
        );
        return undefined;
      }
    },
    async workloadsOf(agentId, known) {
      const lookup = options.workloadAnnotations ?? 'acrossCluster';
      if (lookup === 'off') return undefined;
      const agent = agentOf(agentId);
      try {
        return await listMarkedWorkloads(
          await kas(agent),
          bounds(),
          known,
          lookup === 'acrossCluster',
        );
      } catch (error) {
        onFailure(`workloads through agent ${agent.name}`, error);
        return undefined;
      }
    },
    async fluxObjectOf(environment) {
      try {
        const path = checkFluxResourcePath(
          environment.fluxResourcePath!,
          'The environment',
        );
        return await getObject(
          await kas(environment.agent!),
          { ...path, label: `${path.group}/${path.kind}` },
          bounds(),
        );
      } catch (error) {
        onFailure(`the Flux object of environment ${environment.name}`, error);
        return undefined;
      }
    },
  });
}
