import { LoggerService } from '@backstage/backend-plugin-api';
import { Entity, stringifyEntityRef } from '@backstage/catalog-model';
import {
  CiAccessMatrixResponse,
  compareStaleNamespaces,
  DeleteNamespaceResponse,
  GitlabAgentRef,
  StaleNamespace,
  StaleNamespacesResponse,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { SharedReadCache } from '../caching/sharedCache';
import { GitlabEnvConfig } from '../config';
import { asGitlabEnvError, failure, GitlabEnvFailure } from '../errors';
import { claimRefusal, LocatedEntity, NamespaceClaims } from '../locating';
import { AgentConnections } from '../locating/agentConnection';
import { explainKasRefusal } from '../planning/explainKasRefusal';
import { GitlabEnvTransport } from '../transport';
import { isDns1123Label } from '../validation';
import { AgentConfigs } from './agentConfigs';
import { ciAccessMatrix, DecisionDeps } from './decisions';
import { deleteNamespace } from './deleteNamespace';
import { ciAccessContext, CiAccessContext } from './entityContext';
import { staleForAgent, StaleDeps } from './staleNamespaces';

export interface CiAccessServiceDeps {
  config: GitlabEnvConfig;
  /** The plugin's transport: its clients and budgets are shared with the reads and watches. */
  transport: GitlabEnvTransport;
  /** The plugin's read cache. */
  cache: SharedReadCache;
  logger: LoggerService;
  /** The portal's claims on namespaces: a namespace another project uses is never stale. */
  claims: () => Promise<NamespaceClaims | undefined>;
}

/**
 * CI access rules and stale namespaces of an entity the request pipeline
 * located through the one locator: the matrix (decisions.ts), the
 * namespaces stopped or deleted environments left (staleNamespaces.ts) and
 * their deletion (deleteNamespace.ts), on the shared transport's clients
 * and the plugin's read cache; no entity lookup, client, cache or
 * credential of its own.
 */
export class CiAccessService {
  private readonly configs: AgentConfigs;
  private readonly decisions: DecisionDeps;

  constructor(private readonly deps: CiAccessServiceDeps) {
    this.configs = new AgentConfigs(deps.transport, deps.cache);
    this.decisions = {
      configs: this.configs,
      namespaceOverflow: deps.config.ciAccess.namespaceOverflow,
      logger: deps.logger,
    };
  }

  /** `signal`: the call's (its deadline included), carried by every read for it. */
  private context(
    located: LocatedEntity,
    signal?: AbortSignal,
  ): Promise<CiAccessContext> {
    return ciAccessContext(located, this.deps, signal);
  }

  /**
   * The agent's cluster through KAS, at the URL the instance check found;
   * an agent GitLab says is not connected is refused without asking KAS.
   */
  private async kas(ctx: CiAccessContext, agent: GitlabAgentRef) {
    const { transport, config, cache } = this.deps;
    const facts = await transport.usableInstance(ctx.instance);
    const environment = ctx.environments.find(e => e.agent?.id === agent.id);
    if (environment)
      await AgentConnections.of(transport, config, cache).refuseDisconnected(
        {
          instance: ctx.instance,
          projectFullPath: ctx.project.fullPath,
          environmentName: environment.name,
          agent,
        },
        ctx.signal,
      );
    return transport.kas(ctx.instance, facts, agent, ctx.signal);
  }

  /** An agent's KAS refusal named as the environment reads name it (never connected, token). */
  private explainRefusal(
    ctx: CiAccessContext,
    agent: GitlabAgentRef,
    error: unknown,
  ): Promise<never> {
    const environment = ctx.environments.find(e => e.agent?.id === agent.id);
    if (!environment) throw error;
    return explainKasRefusal(
      this.deps.transport,
      ctx.instance,
      {
        projectFullPath: ctx.project.fullPath,
        environmentName: environment.name,
      },
      agent,
      error,
    );
  }

  private async staleDeps(): Promise<StaleDeps> {
    return {
      ...this.decisions,
      platformNamespaces: this.deps.config.ownership.platformNamespaces,
      claims: await this.deps.claims(),
    };
  }

  /** Per environment and agent: authorized or not, by which entry and rule, in which namespace. */
  async matrix(
    entity: Entity,
    located: LocatedEntity,
    branch?: string,
    signal?: AbortSignal,
  ): Promise<CiAccessMatrixResponse> {
    return ciAccessMatrix(
      await this.context(located, signal),
      stringifyEntityRef(entity),
      branch,
      this.decisions,
    );
  }

  /**
   * Each agent's namespaces the entity's stopped or deleted environments
   * left in its cluster, as a read of its own: a slow or absent agent
   * holds only its own answer. `locateFor` locates the entity again
   * waiting for one environment's agent only (the pipeline's locate with
   * `environment`): with it, `located` may be GitLab's answer alone
   * (`clusterLookups: 'known'`) and each agent's read waits for the
   * namespaces its own cluster gives, never another's. Every read carries
   * `signal`: a one-shot call's (its deadline included), a stream's.
   */
  async staleByAgent(
    entity: Entity,
    located: LocatedEntity,
    locateFor?: (environmentSlug: string) => Promise<LocatedEntity>,
    signal?: AbortSignal,
  ): Promise<
    Array<{ agent: GitlabAgentRef; stale: Promise<StaleNamespace[]> }>
  > {
    const listed = await this.context(located, signal);
    const entityRef = stringifyEntityRef(entity);
    const deps = await this.staleDeps();
    const contextFor = async (agent: GitlabAgentRef) => {
      const environment = listed.environments.find(
        e => e.agent?.id === agent.id,
      );
      return locateFor && environment
        ? this.context(await locateFor(environment.slug), signal)
        : listed;
    };
    return listed.agents.map(agent => ({
      agent,
      stale: contextFor(agent).then(async ctx =>
        staleForAgent(
          ctx,
          entityRef,
          agent,
          await this.kas(ctx, agent),
          deps,
        ).catch(error => this.explainRefusal(ctx, agent, error)),
      ),
    }));
  }

  /** Namespaces the entity's stopped or deleted environments left in each agent's cluster. */
  async staleNamespaces(
    entity: Entity,
    located: LocatedEntity,
    signal?: AbortSignal,
  ): Promise<StaleNamespacesResponse> {
    const entityRef = stringifyEntityRef(entity);
    const result: StaleNamespacesResponse = { namespaces: [], errors: [] };
    await Promise.all(
      (
        await this.staleByAgent(entity, located, undefined, signal)
      ).map(({ agent, stale }) =>
        stale.then(
          namespaces => result.namespaces.push(...namespaces),
          error =>
            result.errors.push({
              agent: agent.name,
              entityRef,
              error: asGitlabEnvError(error),
            }),
        ),
      ),
    );
    result.namespaces.sort(compareStaleNamespaces);
    return result;
  }

  /**
   * Deletes a namespace the backend lists as stale for this entity and
   * agent, recomputed now, not taken from the browser, when the entity's
   * claim on its project is verified.
   */
  async deleteNamespace(
    entity: Entity,
    located: LocatedEntity,
    agentId: string,
    name: string,
  ): Promise<DeleteNamespaceResponse> {
    const entityRef = stringifyEntityRef(entity);
    if (!/^\d+$/.test(agentId) || !isDns1123Label(name)) {
      throw failure(
        'NAMESPACE_NOT_STALE',
        `"${String(name).slice(
          0,
          80,
        )}" is not a namespace this entity left behind.`,
      );
    }
    const ctx = await this.context(located);
    const unverified = claimRefusal(
      entity,
      located,
      ctx.instance,
      this.deps.config.ownership,
    );
    if (unverified) throw new GitlabEnvFailure(unverified);
    const agent = ctx.agents.find(a => a.id === agentId);
    const kas = agent && (await this.kas(ctx, agent));
    // Whether it is stale needs no count of what it holds: a refusal costs
    // the namespace list alone.
    const stale =
      agent && kas
        ? await staleForAgent(
            ctx,
            entityRef,
            agent,
            kas,
            await this.staleDeps(),
            { contents: false },
          )
        : [];
    if (!agent || !kas || !stale.some(s => s.name === name)) {
      throw failure(
        'NAMESPACE_NOT_STALE',
        `${name} is not listed as a namespace ${entityRef} left behind on agent ${
          agent?.name ?? agentId
        }; nothing was deleted.`,
      );
    }
    return deleteNamespace(kas, agent, name);
  }
}
