import { LoggerService } from '@backstage/backend-plugin-api';
import { Entity, stringifyEntityRef } from '@backstage/catalog-model';
import {
  CiAccessAgent,
  CiAccessCell,
  CiAccessConfig,
  CiAccessEntry,
  CiAccessMatrixResponse,
  DeleteNamespaceResponse,
  evaluateCiAccess,
  GitlabAgentRef,
  GitlabEnvironment,
  KubernetesObject,
  NamespaceOverflow,
  parseManagedResourceLabel,
  StaleNamespace,
  StaleNamespacesResponse,
  StaleReason,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { GitlabEnvConfig, GitlabInstanceConfig } from '../config';
import { asGitlabEnvError, failure, isDefinitiveFailure } from '../errors';
import { GitlabEnvTransport, Limit, SharedTransport } from '../transport';
import { CoalescingCache } from '../caching/cache';
import {
  EntityScope,
  isInScope,
  readEntityScope,
} from '../locating/entityScope';
import { GitlabClient, ProjectEnvironments } from '../transport/gitlabClient';
import { requestUpstream } from '../transport/http';
import { isRecord } from '../validation/json';
import { KasClient } from '../transport/kasClient';
import {
  BUILT_IN_DEFAULT_TEMPLATE,
  EnvironmentTemplate,
  parseAgentConfigFile,
  parseEnvironmentTemplate,
} from './agentConfigFile';
import { GitlabRestClient } from '../transport/gitlabRest';
import { jobVariables } from './jobVariables';
import { AgentConnections } from '../locating/agentConnection';
import { namespaceCreator, readNamespaceContents } from './namespaceContents';
import { explainKasRefusal } from '../planning/explainKasRefusal';
import {
  agentConfigPath,
  environmentTemplatePath,
  isBranchName,
  isProjectPath,
  isTemplateName,
} from '../validation/gitlabPaths';
import { isDns1123Label } from '../validation';

export interface CiAccessOptions {
  namespaceOverflow: NamespaceOverflow;
}

interface AgentConfigRead {
  agent: CiAccessAgent;
  ciAccess?: CiAccessConfig;
  ref?: string;
}

interface EntityContext {
  scope: EntityScope;
  data: ProjectEnvironments;
  /** KAS's proxy URL: configured, or from the instance check. */
  kasProxyUrl?: string;
  projectDefaultBranch: string;
  protectedBranches?: string[];
  environments: GitlabEnvironment[];
  agents: GitlabAgentRef[];
}

/** Namespaces are listed once per agent, with at most this many items. */
const NAMESPACE_LIST_LIMIT = 2000;
const TEMPLATE_ANNOTATION_PREFIX = 'agent.gitlab.com/env-';

/** Namespaces of the cluster itself and of the tools that run it. */
function isSystemNamespace(name: string): boolean {
  return (
    ['default', 'flux-system', 'gitlab-agent', 'cert-manager'].includes(name) ||
    name.startsWith('kube-') ||
    name.startsWith('gitlab-agent-')
  );
}

function allEntries(config: CiAccessConfig | undefined): CiAccessEntry[] {
  if (!config) return [];
  return [
    ...(config.projects ?? []),
    ...(config.groups ?? []),
    ...(config.instance ? [config.instance] : []),
  ];
}

function uniqueAgents(environments: GitlabEnvironment[]): GitlabAgentRef[] {
  const byId = new Map<string, GitlabAgentRef>();
  for (const e of environments) if (e.agent) byId.set(e.agent.id, e.agent);
  return [...byId.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * CI access rules and namespaces of an entity's environments: which agent
 * configuration entry and rule decide each environment's deployments, and
 * which namespaces stopped or deleted environments left in the clusters.
 * Reads GitLab's REST API (project, protected branches, repository files)
 * and the clusters through KAS; deletes only namespaces it lists as stale.
 */
export class CiAccessService {
  private readonly cache: CoalescingCache;

  constructor(
    private readonly config: GitlabEnvConfig,
    private readonly options: CiAccessOptions,
    private readonly logger: LoggerService,
    /** The plugin's transport: its budgets are shared with the resource reads and watches. */
    private readonly transport: GitlabEnvTransport = new SharedTransport(
      config,
    ),
  ) {
    const ttlMs = config.cacheTtlSeconds * 1000;
    this.cache = new CoalescingCache({
      ttlMs,
      failureTtlMs: error =>
        isDefinitiveFailure(error)
          ? ttlMs
          : config.transientCacheSeconds * 1000,
      deadlineMs: config.requestDeadlineMs,
    });
  }

  private limit(host: string): Limit {
    return this.transport.instanceLimit(host);
  }

  private rest(instance: GitlabInstanceConfig) {
    return new GitlabRestClient(
      instance,
      this.config.requestTimeoutMs,
      this.limit(instance.host),
    );
  }

  /** KAS's URL as the instance check finds it (GitLab's metadata, or derived before 17.6). */
  private async kasProxyUrlOf(
    instance: GitlabInstanceConfig,
  ): Promise<string | undefined> {
    if (instance.kasProxyUrl) return instance.kasProxyUrl;
    const facts = await this.transport.probe(instance).facts();
    return facts.kasUrl?.replace(/\/+$/, '');
  }

  private async entityContext(entity: Entity): Promise<EntityContext> {
    const scope = readEntityScope(entity, this.config.instances);
    const { instance } = scope;
    const data = await this.cache.getOrLoad(
      `ci-env|${instance.host}|${JSON.stringify(scope.project)}`,
      () =>
        new GitlabClient(
          instance,
          this.config.requestTimeoutMs,
          this.limit(instance.host),
        ).listEnvironments(scope.project, ['available', 'stopping', 'stopped']),
    );
    const rest = this.rest(instance);
    const path = data.project.fullPath;
    const [project, protectedBranches] = await Promise.all([
      this.cache.getOrLoad(`ci-project|${instance.host}|${path}`, () =>
        rest.project(path),
      ),
      this.cache.getOrLoad(`ci-protected|${instance.host}|${path}`, () =>
        rest.protectedBranches(path),
      ),
    ]);
    const environments = data.environments.filter(e => isInScope(scope, e));
    return {
      scope,
      data,
      kasProxyUrl: await this.kasProxyUrlOf(instance),
      projectDefaultBranch: project?.defaultBranch ?? 'main',
      protectedBranches,
      environments,
      agents: uniqueAgents(environments),
    };
  }

  /** The agent's configuration file at its project's default branch, parsed and checked. */
  private readAgentConfig(
    instance: GitlabInstanceConfig,
    agent: GitlabAgentRef,
  ): Promise<AgentConfigRead> {
    const key = `ci-config|${instance.host}|${agent.configProject}|${agent.name}`;
    return this.cache.getOrLoad(key, async () => {
      const base: CiAccessAgent = {
        id: agent.id,
        name: agent.name,
        configProject: agent.configProject,
      };
      try {
        if (!isDns1123Label(agent.name)) {
          throw failure(
            'UPSTREAM_MALFORMED',
            `GitLab named an agent ${JSON.stringify(
              agent.name,
            )}, which is no agent name.`,
          );
        }
        if (!agent.configProject || !isProjectPath(agent.configProject)) {
          throw failure(
            'AGENT_CONFIG_UNREADABLE',
            `The configuration project of agent ${agent.name} is not visible to the configured token.`,
            {
              hint: "Give the token's user the Reporter role on the agent's configuration project.",
            },
          );
        }
        const rest = this.rest(instance);
        const project = await rest.project(agent.configProject);
        if (!project) {
          throw failure(
            'AGENT_CONFIG_UNREADABLE',
            `The configured token cannot read ${agent.configProject}, the configuration project of agent ${agent.name}.`,
            {
              hint: `Give the token's user the Reporter role on ${agent.configProject}.`,
            },
          );
        }
        const filePath = agentConfigPath(agent.name);
        const file = `${agent.configProject}: ${filePath}@${project.defaultBranch}`;
        const text = await rest.file(
          agent.configProject,
          filePath,
          project.defaultBranch,
        );
        if (text === undefined) {
          throw failure('AGENT_CONFIG_MISSING', `${file} does not exist.`, {
            file,
            hint: `Add ${filePath} to ${agent.configProject} on its default branch (${project.defaultBranch}).`,
          });
        }
        const ciAccess = parseAgentConfigFile(text, file);
        return {
          agent: { ...base, configFile: file, ciAccess },
          ciAccess,
          ref: project.defaultBranch,
        };
      } catch (error) {
        return { agent: { ...base, error: asGitlabEnvError(error) } };
      }
    });
  }

  /** An environment template; GitLab's built-in one when `default.yaml` is absent. */
  private readTemplate(
    instance: GitlabInstanceConfig,
    agent: GitlabAgentRef,
    ref: string,
    name: string,
  ): Promise<EnvironmentTemplate | undefined> {
    const key = `ci-template|${instance.host}|${agent.configProject}|${agent.name}|${name}`;
    return this.cache.getOrLoad(key, async () => {
      if (!isTemplateName(name) || !agent.configProject) return undefined;
      const filePath = environmentTemplatePath(agent.name, name);
      const text = await this.rest(instance).file(
        agent.configProject,
        filePath,
        ref,
      );
      if (text === undefined)
        return name === 'default' ? BUILT_IN_DEFAULT_TEMPLATE : undefined;
      return parseEnvironmentTemplate(
        text,
        `${agent.configProject}: ${filePath}@${ref}`,
      );
    });
  }

  private async decide(
    ctx: EntityContext,
    read: AgentConfigRead,
    agent: GitlabAgentRef,
    environment: GitlabEnvironment,
    branch: string,
  ): Promise<CiAccessCell> {
    const project = {
      id: ctx.data.project.id,
      fullPath: ctx.data.project.fullPath,
    };
    const variables = jobVariables({
      project,
      defaultBranch: ctx.projectDefaultBranch,
      environment,
      branch,
      protectedBranches: ctx.protectedBranches,
    });
    let template: EnvironmentTemplate | undefined;
    try {
      template = read.ref
        ? await this.readTemplate(
            ctx.scope.instance,
            agent,
            read.ref,
            'default',
          )
        : undefined;
    } catch (error) {
      this.logger.debug(
        `No environment template for agent ${agent.name}: ${error}`,
      );
    }
    const decision = evaluateCiAccess(
      read.ciAccess,
      project.fullPath,
      variables,
      {
        namespaceOverflow: this.options.namespaceOverflow,
        managedNamespace: template?.namespaceTemplate
          ? {
              template: template.namespaceTemplate,
              context: {
                environment: {
                  name: environment.name,
                  slug: environment.slug,
                  tier: environment.tier,
                  url: environment.externalUrl,
                  id: Number(environment.id),
                },
                project: {
                  id: Number(project.id),
                  path: project.fullPath,
                  slug: project.fullPath.replace(/\//g, '-'),
                },
                agent: { id: Number(agent.id), name: agent.name },
              },
            }
          : undefined,
      },
    );
    return {
      environment: environment.name,
      agentId: agent.id,
      decision,
      variables,
    };
  }

  /** Per environment and agent: authorized or not, by which entry and rule, in which namespace. */
  async matrix(
    entity: Entity,
    branch?: string,
  ): Promise<CiAccessMatrixResponse> {
    if (branch !== undefined && !isBranchName(branch)) {
      throw failure(
        'INVALID_BRANCH',
        `"${String(branch).slice(0, 80)}" is not a valid branch name.`,
        {
          hint: 'Pick a branch name such as main or feature/x.',
        },
      );
    }
    const ctx = await this.entityContext(entity);
    const reads = await Promise.all(
      ctx.agents.map(a => this.readAgentConfig(ctx.scope.instance, a)),
    );
    const shown = ctx.environments.filter(e => e.state !== 'stopped');
    // Without a pick, every job runs on the default branch: the last
    // deployment's ref may be a tag, which has no CI_COMMIT_BRANCH.
    const refOf = () => branch ?? ctx.projectDefaultBranch;
    const cells: CiAccessCell[] = [];
    for (const environment of shown) {
      for (const [i, agent] of ctx.agents.entries()) {
        if (reads[i].ciAccess)
          cells.push(
            await this.decide(ctx, reads[i], agent, environment, refOf()),
          );
      }
    }
    return {
      entityRef: stringifyEntityRef(entity),
      project: {
        id: ctx.data.project.id,
        fullPath: ctx.data.project.fullPath,
        defaultBranch: ctx.projectDefaultBranch,
      },
      branch,
      agents: reads.map(r => r.agent),
      environments: shown.map(e => ({
        name: e.name,
        slug: e.slug,
        tier: e.tier,
        state: e.state,
        namespace: e.namespace,
        agentId: e.agent?.id,
        ref: refOf(),
      })),
      cells,
    };
  }

  private kas(ctx: EntityContext, agent: GitlabAgentRef): KasClient {
    const kasProxyUrl = ctx.kasProxyUrl;
    if (!kasProxyUrl || !ctx.scope.instance.token) {
      throw failure(
        'KAS_UNAVAILABLE',
        `KAS is not enabled on ${ctx.scope.instance.host}.`,
      );
    }
    return this.transport.kasAt(kasProxyUrl, ctx.scope.instance, agent);
  }

  /** The names each environment's deployments use with this agent (rule, managed resources, environment setting). */
  private async producedNames(
    ctx: EntityContext,
    read: AgentConfigRead,
    agent: GitlabAgentRef,
    environment: GitlabEnvironment,
  ): Promise<Array<{ name: string; producedBy: StaleReason['producedBy'] }>> {
    const names: Array<{
      name: string;
      producedBy: StaleReason['producedBy'];
    }> = [];
    if (environment.agent?.id === agent.id && environment.namespace) {
      names.push({
        name: environment.namespace,
        producedBy: 'environment_namespace',
      });
    }
    if (read.ciAccess) {
      const ref = isBranchName(environment.lastDeployment?.ref)
        ? environment.lastDeployment!.ref!
        : ctx.projectDefaultBranch;
      const { decision } = await this.decide(
        ctx,
        read,
        agent,
        environment,
        ref,
      );
      if (decision.namespace) {
        names.push({
          name: decision.namespace.final,
          producedBy:
            decision.namespace.source === 'managed_resources'
              ? 'managed_resources'
              : 'rule',
        });
      }
    }
    return names;
  }

  private async staleForAgent(
    ctx: EntityContext,
    entityRef: string,
    agent: GitlabAgentRef,
  ): Promise<StaleNamespace[]> {
    const read = await this.readAgentConfig(ctx.scope.instance, agent);
    // An agent GitLab says is not connected is not asked through KAS.
    await AgentConnections.of(this.transport, this.config).refuseDisconnected({
      instance: ctx.scope.instance,
      projectFullPath: ctx.data.project.fullPath,
      environmentName: ctx.environments.find(e => e.agent?.id === agent.id)!
        .name,
      agent,
    });
    const kas = this.kas(ctx, agent);
    const list = await kas.get(
      `/api/v1/namespaces?limit=${NAMESPACE_LIST_LIMIT}`,
      'namespaces',
    );
    const namespaces = (
      isRecord(list) && Array.isArray(list.items) ? list.items : []
    ) as KubernetesObject[];
    const byName = new Map(
      namespaces.filter(n => n.metadata?.name).map(n => [n.metadata!.name!, n]),
    );

    const inUse = new Set<string>();
    const candidates = new Map<string, StaleReason[]>();
    const add = (name: string, reason: StaleReason) => {
      if (!isDns1123Label(name)) return;
      candidates.set(name, [...(candidates.get(name) ?? []), reason]);
    };
    // Every environment of the project, also those the entity's annotations
    // filter out: an environment hidden from the tab still uses its namespace.
    const all = ctx.data.environments;
    const relevant = all.filter(e => e.agent?.id === agent.id);
    for (const environment of relevant) {
      const produced = await this.producedNames(ctx, read, agent, environment);
      for (const { name, producedBy } of produced) {
        if (environment.state === 'stopped') {
          add(name, {
            producedBy,
            environment: environment.name,
            environmentState: 'stopped',
          });
        } else {
          inUse.add(name);
        }
      }
    }
    // Namespaces GitLab labelled for an environment of this project and agent.
    const bySlug = new Map(all.map(e => [e.slug, e]));
    for (const [name, namespace] of byName) {
      for (const label of Object.keys(namespace.metadata?.labels ?? {})) {
        const parsed = parseManagedResourceLabel(label);
        if (
          !parsed ||
          String(parsed.projectId) !== ctx.data.project.id ||
          String(parsed.agentId) !== agent.id
        )
          continue;
        const environment = bySlug.get(parsed.environmentSlug);
        if (environment && environment.state !== 'stopped') inUse.add(name);
        else {
          add(name, {
            producedBy: 'label',
            environment: environment?.name ?? parsed.environmentSlug,
            environmentState: environment ? 'stopped' : 'deleted',
          });
        }
      }
    }

    // Never offered for deletion: the cluster's own namespaces, and the
    // default_namespace of any entry, which other projects may share.
    for (const entry of allEntries(read.ciAccess)) {
      if (typeof entry.default_namespace === 'string') {
        inUse.add(entry.default_namespace);
      }
    }
    const stale: StaleNamespace[] = [];
    for (const [name, reasons] of candidates) {
      const namespace = byName.get(name);
      if (
        !namespace ||
        inUse.has(name) ||
        isSystemNamespace(name) ||
        namespace.metadata?.deletionTimestamp
      ) {
        continue;
      }
      const creator = namespaceCreator(namespace);
      const deleteResources =
        creator === 'gitlab_managed_resources' && read.ref
          ? await this.templateOf(ctx, agent, read.ref, namespace)
          : undefined;
      stale.push({
        name,
        agent: { id: agent.id, name: agent.name },
        entityRef,
        projectPath: ctx.data.project.fullPath,
        reasons,
        createdAt: namespace.metadata?.creationTimestamp,
        creator,
        gitlabDeletes: deleteResources === 'on_stop',
        deleteResources,
        contents: await readNamespaceContents(kas, name),
        kubectl: `kubectl delete namespace ${name}`,
      });
    }
    return stale;
  }

  /** `delete_resources` of the template named in GitLab's annotation on a managed namespace. */
  private async templateOf(
    ctx: EntityContext,
    agent: GitlabAgentRef,
    ref: string,
    namespace: KubernetesObject,
  ) {
    const annotations = namespace.metadata?.annotations ?? {};
    const key = Object.keys(annotations).find(k =>
      k.startsWith(TEMPLATE_ANNOTATION_PREFIX),
    );
    let templateName = 'default';
    try {
      const parsed = key ? JSON.parse(annotations[key]) : undefined;
      if (isRecord(parsed) && typeof parsed.template_name === 'string')
        templateName = parsed.template_name;
    } catch {
      // An unreadable annotation: fall back to the default template, as GitLab does without a name.
    }
    try {
      return (
        await this.readTemplate(ctx.scope.instance, agent, ref, templateName)
      )?.deleteResources;
    } catch {
      return undefined;
    }
  }

  /** An agent's KAS refusal named as the environment reads name it (never connected, token). */
  private explainRefusal(
    ctx: EntityContext,
    agent: GitlabAgentRef,
    error: unknown,
  ): Promise<never> {
    const environment = ctx.environments.find(e => e.agent?.id === agent.id);
    if (!environment) throw error;
    return explainKasRefusal(
      this.transport,
      ctx.scope.instance,
      {
        projectFullPath: ctx.data.project.fullPath,
        environmentName: environment.name,
      },
      agent,
      error,
    );
  }

  /** Namespaces the entity's stopped or deleted environments left in each agent's cluster. */
  async staleNamespaces(entity: Entity): Promise<StaleNamespacesResponse> {
    const ctx = await this.entityContext(entity);
    const entityRef = stringifyEntityRef(entity);
    const result: StaleNamespacesResponse = { namespaces: [], errors: [] };
    await Promise.all(
      ctx.agents.map(async agent => {
        try {
          result.namespaces.push(
            ...(await this.staleForAgent(ctx, entityRef, agent).catch(error =>
              this.explainRefusal(ctx, agent, error),
            )),
          );
        } catch (error) {
          result.errors.push({
            agent: agent.name,
            entityRef,
            error: asGitlabEnvError(error),
          });
        }
      }),
    );
    result.namespaces.sort(
      (a, b) =>
        b.contents.total - a.contents.total || a.name.localeCompare(b.name),
    );
    return result;
  }

  /**
   * Deletes a namespace the backend lists as stale for this entity and
   * agent — recomputed now, not taken from the browser — through KAS, once
   * (a DELETE is never retried).
   */
  async deleteNamespace(
    entity: Entity,
    agentId: string,
    name: string,
  ): Promise<DeleteNamespaceResponse> {
    if (!/^\d+$/.test(agentId) || !isDns1123Label(name)) {
      throw failure(
        'NAMESPACE_NOT_STALE',
        `"${String(name).slice(
          0,
          80,
        )}" is not a namespace this entity left behind.`,
      );
    }
    const ctx = await this.entityContext(entity);
    const agent = ctx.agents.find(a => a.id === agentId);
    const stale = agent
      ? await this.staleForAgent(ctx, stringifyEntityRef(entity), agent)
      : [];
    if (!agent || !stale.some(s => s.name === name)) {
      throw failure(
        'NAMESPACE_NOT_STALE',
        `${name} is not listed as a namespace ${stringifyEntityRef(
          entity,
        )} left behind on agent ${
          agent?.name ?? agentId
        }; nothing was deleted.`,
      );
    }
    const kasProxyUrl = ctx.kasProxyUrl!;
    const response = await this.transport.agentLimit(
      ctx.scope.instance.host,
      agent.id,
    )(() =>
      requestUpstream({
        url: `${kasProxyUrl}/api/v1/namespaces/${encodeURIComponent(name)}`,
        method: 'DELETE',
        headers: {
          authorization: `Bearer pat:${agent.id}:${ctx.scope.instance.token}`,
          accept: 'application/json',
        },
        timeoutMs: this.config.requestTimeoutMs,
        upstream: 'KAS',
        retries: 0,
      }),
    );
    if (response.status < 200 || response.status >= 300) {
      const message =
        isRecord(response.body) && typeof response.body.message === 'string'
          ? response.body.message
          : undefined;
      throw failure(
        'NAMESPACE_DELETE_FAILED',
        `Deleting namespace ${name} through agent ${
          agent.name
        } failed with HTTP ${response.status}${message ? `: ${message}` : ''}.`,
        {
          upstreamStatus: response.status,
          hint: `Check that the agent may delete namespaces, or run: kubectl delete namespace ${name}`,
        },
      );
    }
    const phase =
      isRecord(response.body) && isRecord(response.body.status)
        ? String(response.body.status.phase ?? '')
        : '';
    return {
      name,
      agentId: agent.id,
      phase: phase || 'Terminating',
      upstreamStatus: response.status,
    };
  }
}
