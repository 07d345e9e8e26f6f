import {
  buildSchema,
  DocumentNode,
  execute,
  GraphQLError,
  GraphQLSchema,
  parse,
  validate,
} from 'graphql';
import {
  ScenarioAgent,
  ScenarioEnvironment,
  ScenarioGroup,
  ScenarioProject,
} from '../scenario/types';
import { environmentSlug } from '../scenario/slug';
import { Caller, GitlabDirectory } from './access';
import { connection, ConnectionArgs } from './connection';
import { MAX_DEPTH, queryDepth } from './depth';
import { gitlabSchemaSdl } from './schema.graphql';
import { deploymentNode, jobNode } from './deploymentNodes';
import {
  DeploymentQuery,
  findDeployments,
  InefficientQueryError,
} from './deploymentsFinder';
import { DeployRunner } from './jobs';
import { AgentPresence } from '../kas/agentPresence';

/** GitLab's `/api/graphql`: the schema above, executed with GitLab's visibility rules and limits. */

export interface GraphqlContext {
  directory: GitlabDirectory;
  caller?: Caller;
  baseUrl: string;
  kasProxyUrl: string;
  kasEnabled: boolean;
  /** Whether each agent's agentk is connected, and when it was last seen. */
  agentPresence: (agent: ScenarioAgent) => AgentPresence;
  /** Resolutions of `Project.environments` in this operation (GitLab allows one). */
  environmentsCalls: number;
  /** Resolutions of `Environment.deployments` in this operation (GitLab allows one). */
  deploymentsCalls: number;
  /** Runs retried deploy jobs (`jobRetry`). */
  runner: DeployRunner;
}

/**
 * A resolver raised what GitlabController answers with 500 and
 * `{"errors":[{"message":"Internal server error"}]}` (an unrescued
 * exception, e.g. DeploymentsFinder::InefficientQueryError from
 * `Environment.deployments`).
 */
export class GraphqlInternalError extends Error {}

const NOT_AVAILABLE =
  "The resource that you are attempting to access does not exist or you don't have permission to perform this action";

/**
 * `Environment.deployments` (app/graphql/resolvers/deployments_resolver.rb,
 * types/deployments_order_by_input_type.rb): one environment per operation
 * (FieldCallCount); `orderBy` with exactly one of createdAt or finishedAt;
 * `statuses`; then DeploymentsFinder, whose refusals are unrescued (500).
 */
function environmentDeployments(
  project: ScenarioProject,
  env: ScenarioEnvironment,
  ctx: GraphqlContext,
  args: ConnectionArgs & {
    statuses?: string[] | null;
    orderBy?: { createdAt?: string | null; finishedAt?: string | null } | null;
  },
) {
  ctx.deploymentsCalls += 1;
  if (ctx.deploymentsCalls > 1) {
    throw new GraphQLError(
      '"deployments" field can be requested only for 1 Environment(s) at a time.',
    );
  }
  let orderBy: DeploymentQuery['orderBy'];
  let sort: DeploymentQuery['sort'];
  if (args.orderBy) {
    const keys = Object.entries(args.orderBy).filter(
      ([, v]) => v !== null && v !== undefined,
    );
    if (keys.length !== 1) {
      throw new GraphQLError(
        'orderBy parameter must contain one key-value pair.',
      );
    }
    orderBy = keys[0][0] === 'createdAt' ? 'created_at' : 'finished_at';
    sort = keys[0][1] === 'DESC' ? 'desc' : 'asc';
  }
  let found;
  try {
    found = findDeployments(project, {
      environment: env,
      statuses: args.statuses?.map(s => s.toLowerCase()),
      orderBy,
      sort,
    });
  } catch (error) {
    if (error instanceof InefficientQueryError)
      throw new GraphqlInternalError(error.message);
    throw error;
  }
  return connection(
    found,
    f => f.deployment.id,
    f => deploymentNode(ctx, project, f.env, f.deployment),
    args,
  );
}

/** `jobRetry` (app/graphql/mutations/ci/job/retry.rb): authorizes like the REST retry, answers GitLab's errors. */
function jobRetry(
  ctx: GraphqlContext,
  input: { id: string; clientMutationId?: string },
) {
  const { caller, directory } = ctx;
  // Mutations need the api scope (BaseMutation.authorization_scopes).
  if (!caller || !directory.hasScope(caller, 'api'))
    throw new GraphQLError(NOT_AVAILABLE);
  const gid = /^gid:\/\/gitlab\/([A-Za-z:]+)\/(\d+)$/.exec(String(input.id));
  if (!gid) throw new GraphQLError(`"${input.id}" is not a valid Global ID`);
  if (
    !['Ci::Build', 'Ci::Bridge', 'Ci::Processable', 'CommitStatus'].includes(
      gid[1],
    )
  )
    throw new GraphQLError(
      `"${input.id}" does not represent an instance of Ci::Processable`,
    );
  const jobId = Number(gid[2]);
  const project = directory.scenario.projects.find(p =>
    p.environments.some(e => e.deployments.some(d => d.job.id === jobId)),
  );
  if (!project || !directory.canReadProject(caller, project))
    throw new GraphQLError(NOT_AVAILABLE);
  const result = ctx.runner.retry(caller, project, jobId);
  if (result === 'not_found' || result === 'forbidden')
    throw new GraphQLError(NOT_AVAILABLE);
  return {
    clientMutationId: input.clientMutationId ?? null,
    errors: result === 'not_retryable' ? ['Job is not retryable'] : [],
    job: result === 'not_retryable' ? null : jobNode(ctx, project, result),
  };
}

const VALID_STATES = ['available', 'stopping', 'stopped'];

interface EnvironmentFilter {
  name?: string | null;
  search?: string | null;
  states?: string[] | null;
  type?: string | null;
}

function environmentType(name: string): string | null {
  const slash = name.indexOf('/');
  return slash < 0 ? null : name.slice(0, slash);
}

export function filterEnvironments(
  environments: ScenarioEnvironment[],
  filter: EnvironmentFilter,
): ScenarioEnvironment[] {
  if (filter.states && filter.states.some(s => !VALID_STATES.includes(s))) {
    throw new GraphQLError('Requested states are invalid');
  }
  return environments
    .filter(e => !filter.name || e.name === filter.name)
    .filter(
      e =>
        !filter.search ||
        e.name.toLowerCase().includes(filter.search.toLowerCase()),
    )
    .filter(
      e =>
        !filter.states ||
        filter.states.length === 0 ||
        filter.states.includes(e.state),
    )
    .filter(e => !filter.type || environmentType(e.name) === filter.type)
    .sort((a, b) => a.id - b.id);
}

function agentNode(agent: ScenarioAgent, ctx: GraphqlContext) {
  return {
    id: `gid://gitlab/Clusters::Agent/${agent.id}`,
    name: agent.name,
    webPath: `/${agent.configProject}/-/cluster_agents/${agent.name}`,
    createdAt: agent.createdAt,
    updatedAt: agent.createdAt,
    project: () => {
      const project = ctx.directory.project(agent.configProject);
      return project && ctx.directory.canReadProject(ctx.caller, project)
        ? projectNode(project, ctx)
        : null;
    },
    // KAS's live view of agentk's connections, which Rails asks KAS for
    // (Gitlab::Kas::Client#get_connected_agentks_by_agent_ids); shown to
    // Maintainers of the agent's project only, an empty list to anyone else
    // (app/graphql/resolvers/kas/agent_connections_resolver.rb). Without
    // KAS, the field fails with ResourceNotAvailable.
    connections: (args: ConnectionArgs) => {
      if (!ctx.kasEnabled)
        throw new GraphQLError('Gitlab::Kas::Client::ConfigurationError');
      const visible = ctx.directory.canAdministerAgent(ctx.caller, agent);
      const presence = ctx.agentPresence(agent);
      return connection(
        visible && presence.connected ? [agent] : [],
        a => a.id,
        a => ({
          connectedAt: a.configReportedAt ?? a.createdAt,
          connectionId: String(7_000_000 + a.id),
          metadata: {
            version: 'v17.11.0',
            commit: 'c0ffee12',
            podName: `gitlab-agent-${a.name}-7c9d6f5b8-x2k4p`,
            podNamespace: 'gitlab-agent',
          },
        }),
        args,
      );
    },
    // agentk authenticates with its token whenever it calls KAS, so a token
    // never used means an agent that never connected, and one not used for
    // a while an agent that is not connected (GitLab's own UI reads
    // `tokens { nodes { lastUsedAt } }` for both: environment_cluster_agent.query.graphql,
    // clusters_list/constants.js ACTIVE_CONNECTION_TIME). Active tokens only,
    // to whom GitLab shows them (see canReadAgentTokens).
    tokens: (args: ConnectionArgs) =>
      connection(
        ctx.directory.canReadAgentTokens(ctx.caller, agent) ? [agent] : [],
        a => a.id,
        a => ({
          id: `gid://gitlab/Clusters::AgentToken/${a.id}`,
          name: `${a.name}-token`,
          status: 'ACTIVE',
          createdAt: a.createdAt,
          lastUsedAt: ctx.agentPresence(a).lastContactAt ?? null,
        }),
        args,
      ),
  };
}

function environmentNode(
  project: ScenarioProject,
  env: ScenarioEnvironment,
  ctx: GraphqlContext,
) {
  return {
    id: `gid://gitlab/Environment/${env.id}`,
    name: env.name,
    slug: environmentSlug(env.name),
    tier: env.tier.toUpperCase(),
    state: env.state,
    environmentType: environmentType(env.name),
    externalUrl: env.externalUrl ?? null,
    path: `/${project.fullPath}/-/environments/${env.id}`,
    description: null,
    createdAt: env.createdAt,
    updatedAt: env.updatedAt,
    autoStopAt: env.autoStopAt ?? null,
    autoDeleteAt: null,
    kubernetesNamespace: env.kubernetesNamespace ?? null,
    fluxResourcePath: env.fluxResourcePath ?? null,
    deploymentsDisplayCount:
      env.deployments.length > 999 ? '999+' : String(env.deployments.length),
    clusterAgent: () => {
      const agent = env.agent
        ? ctx.directory.agentByName(env.agent)
        : undefined;
      return agent && ctx.directory.canReadAgent(ctx.caller, agent)
        ? agentNode(agent, ctx)
        : null;
    },
    lastDeployment: ({ status }: { status: string }) => {
      const deployment = env.deployments.find(d => d.status === status);
      return deployment ? deploymentNode(ctx, project, env, deployment) : null;
    },
    deployments: (args: Parameters<typeof environmentDeployments>[3]) =>
      environmentDeployments(project, env, ctx, args),
  };
}

/**
 * Agents shared with a project through `user_access` or `ci_access`, with the
 * authorizing config entry; only for Developers of the project, as in GitLab.
 */
function authorizedAgents(
  project: ScenarioProject,
  kind: 'user_access' | 'ci_access',
  ctx: GraphqlContext,
  args: ConnectionArgs,
) {
  const developer = ctx.directory.hasRole(
    ctx.caller?.user,
    project.fullPath,
    'developer',
  );
  const authorizations = developer
    ? ctx.directory.scenario.agents
        .map(agent => ({
          agent,
          entry: ctx.directory.authorizationFor(agent, kind, project),
        }))
        .filter(a => a.entry !== undefined)
    : [];
  return connection(
    authorizations,
    a => a.agent.id,
    a => ({
      agent: agentNode(a.agent, ctx),
      // GitLab returns the entry's settings, with access_as from the agent's user_access.
      config:
        kind === 'user_access'
          ? { access_as: a.agent.config.user_access?.access_as, ...a.entry }
          : a.entry,
    }),
    args,
  );
}

function projectNode(project: ScenarioProject, ctx: GraphqlContext): any {
  const readable = () => ctx.directory.canReadEnvironments(ctx.caller, project);
  const groupPath = project.fullPath.slice(
    0,
    project.fullPath.lastIndexOf('/'),
  );
  return {
    id: `gid://gitlab/Project/${project.id}`,
    fullPath: project.fullPath,
    path: project.fullPath.split('/').pop(),
    name: project.name,
    nameWithNamespace: project.fullPath.split('/').join(' / '),
    description: project.description ?? null,
    webUrl: `${ctx.baseUrl}/${project.fullPath}`,
    visibility: project.visibility,
    archived: false,
    group: () => {
      const group = ctx.directory.group(groupPath);
      return group && ctx.directory.canReadGroup(ctx.caller, group)
        ? groupNode(group, ctx)
        : null;
    },
    environment: (args: EnvironmentFilter) => {
      if (!readable()) return null;
      const env = filterEnvironments(project.environments, args)[0];
      return env ? environmentNode(project, env, ctx) : null;
    },
    environments: (args: EnvironmentFilter & ConnectionArgs) => {
      ctx.environmentsCalls += 1;
      if (ctx.environmentsCalls > 1) {
        throw new GraphQLError(
          '"environments" field can be requested only for 1 Project(s) at a time.',
        );
      }
      const environments = readable()
        ? filterEnvironments(project.environments, args)
        : [];
      return connection(
        environments,
        e => e.id,
        e => environmentNode(project, e, ctx),
        args,
      );
    },
    clusterAgent: ({ name }: { name: string }) => {
      const agent = ctx.directory.scenario.agents.find(
        a => a.name === name && a.configProject === project.fullPath,
      );
      return agent && ctx.directory.canReadAgent(ctx.caller, agent)
        ? agentNode(agent, ctx)
        : null;
    },
    userAccessAuthorizedAgents: (args: ConnectionArgs) =>
      authorizedAgents(project, 'user_access', ctx, args),
    ciAccessAuthorizedAgents: (args: ConnectionArgs) =>
      authorizedAgents(project, 'ci_access', ctx, args),
    clusterAgents: (args: ConnectionArgs) => {
      const agents = ctx.directory.scenario.agents.filter(
        a =>
          a.configProject === project.fullPath &&
          ctx.directory.canReadAgent(ctx.caller, a),
      );
      return connection(
        agents,
        a => a.id,
        a => agentNode(a, ctx),
        args,
      );
    },
  };
}

function groupNode(group: ScenarioGroup, ctx: GraphqlContext) {
  return {
    id: `gid://gitlab/Group/${group.id}`,
    fullPath: group.fullPath,
    name: group.name,
    webUrl: `${ctx.baseUrl}/groups/${group.fullPath}`,
    visibility: group.visibility,
    projects: (
      args: ConnectionArgs & { includeSubgroups?: boolean; search?: string },
    ) => {
      const projects = ctx.directory
        .projectsInGroup(group, !!args.includeSubgroups)
        .filter(p => ctx.directory.canReadProject(ctx.caller, p))
        .filter(
          p =>
            !args.search ||
            p.fullPath.toLowerCase().includes(args.search.toLowerCase()),
        );
      return connection(
        projects,
        p => p.id,
        p => projectNode(p, ctx),
        args,
      );
    },
  };
}

function rootValue(ctx: GraphqlContext) {
  const { directory, caller } = ctx;
  return {
    project: ({ fullPath }: { fullPath: string }) => {
      const project = /^\d+$/.test(fullPath)
        ? undefined
        : directory.project(fullPath);
      return project && directory.canReadProject(caller, project)
        ? projectNode(project, ctx)
        : null;
    },
    projects: (
      args: ConnectionArgs & {
        ids?: string[];
        fullPaths?: string[];
        search?: string;
        membership?: boolean;
      },
    ) => {
      const ids = args.ids?.map(id =>
        Number(id.replace('gid://gitlab/Project/', '')),
      );
      const projects = directory.scenario.projects
        .filter(p => directory.canReadProject(caller, p))
        .filter(p => !ids || ids.includes(p.id))
        .filter(p => !args.fullPaths || args.fullPaths.includes(p.fullPath))
        .filter(p => !args.search || p.fullPath.includes(args.search))
        .filter(
          p =>
            !args.membership || directory.roleIn(caller?.user, p.fullPath) > 0,
        )
        .sort((a, b) => a.id - b.id);
      return connection(
        projects,
        p => p.id,
        p => projectNode(p, ctx),
        args,
      );
    },
    group: ({ fullPath }: { fullPath: string }) => {
      const group = directory.group(fullPath);
      return group && directory.canReadGroup(caller, group)
        ? groupNode(group, ctx)
        : null;
    },
    metadata: () =>
      caller
        ? {
            version: directory.scenario.instance.version,
            revision: directory.scenario.instance.revision,
            enterprise: directory.scenario.instance.version.endsWith('-ee'),
            kas: {
              enabled: ctx.kasEnabled,
              externalUrl: ctx.kasEnabled
                ? `${ctx.baseUrl.replace(/^http/, 'ws')}/-/kubernetes-agent/`
                : null,
              externalK8sProxyUrl: ctx.kasEnabled ? ctx.kasProxyUrl : null,
              version: ctx.kasEnabled
                ? directory.scenario.instance.kasVersion
                : null,
            },
          }
        : null,
    jobRetry: ({
      input,
    }: {
      input: { id: string; clientMutationId?: string };
    }) => jobRetry(ctx, input),
    currentUser: () =>
      caller
        ? {
            id: `gid://gitlab/User/${caller.user.id}`,
            username: caller.user.username,
            name: caller.user.name,
            webUrl: `${ctx.baseUrl}/${caller.user.username}`,
          }
        : null,
  };
}

const schemas = new Map<string, GraphQLSchema>();

/** The schema of the scenario's GitLab version (fields it does not have yet fail validation). */
function gitlabSchema(version: string): GraphQLSchema {
  let schema = schemas.get(version);
  if (!schema) {
    schema = buildSchema(gitlabSchemaSdl(version));
    schemas.set(version, schema);
  }
  return schema;
}

/** A document parsed and validated against a version's schema, or its errors. */
type CheckedDocument =
  | { schema: GraphQLSchema; document: DocumentNode; depth: number }
  | { errors: unknown[] };

const checkedDocuments = new Map<string, CheckedDocument>();
/** Distinct documents kept; clients send a handful, each thousands of times. */
const MAX_CHECKED_DOCUMENTS = 500;

/**
 * Parses and validates a query once per text and version: both depend on
 * nothing else, and validating every request again cost the simulator
 * more CPU than answering it, which the benchmarks share with the backend
 * (GitLab's own time is modelled by the latency knob).
 */
function checkedDocument(version: string, query: string): CheckedDocument {
  const key = `${version}\n${query}`;
  let checked = checkedDocuments.get(key);
  if (checked) return checked;
  const schema = gitlabSchema(version);
  try {
    const document = parse(query);
    const validationErrors = validate(schema, document);
    checked =
      validationErrors.length > 0
        ? { errors: validationErrors.map(e => e.toJSON()) }
        : { schema, document, depth: queryDepth(document) };
  } catch (error) {
    checked = { errors: [(error as GraphQLError).toJSON()] };
  }
  if (checkedDocuments.size >= MAX_CHECKED_DOCUMENTS) checkedDocuments.clear();
  checkedDocuments.set(key, checked);
  return checked;
}

export interface GraphqlRequest {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
}

/** Runs one GraphQL operation and returns the JSON GitLab would answer with. */
export async function runGraphql(
  request: GraphqlRequest,
  ctx: Omit<GraphqlContext, 'environmentsCalls' | 'deploymentsCalls'>,
) {
  if (typeof request.query !== 'string' || !request.query.trim()) {
    return { errors: [{ message: 'No query string was present' }] };
  }
  const checked = checkedDocument(
    ctx.directory.scenario.instance.version,
    request.query,
  );
  if ('errors' in checked) return { errors: checked.errors };
  const { schema, document, depth } = checked;
  const maxDepth = ctx.caller ? MAX_DEPTH.authenticated : MAX_DEPTH.anonymous;
  if (depth > maxDepth) {
    return {
      errors: [
        {
          message: `Query has depth of ${depth}, which exceeds max depth of ${maxDepth}`,
        },
      ],
    };
  }
  const context: GraphqlContext = {
    ...ctx,
    environmentsCalls: 0,
    deploymentsCalls: 0,
  };
  const result = await execute({
    schema,
    document,
    rootValue: rootValue(context),
    contextValue: context,
    variableValues: (request.variables as Record<string, unknown>) ?? undefined,
    operationName:
      typeof request.operationName === 'string'
        ? request.operationName
        : undefined,
  });
  const internal = result.errors?.find(
    e => e.originalError instanceof GraphqlInternalError,
  );
  if (internal) throw internal.originalError;
  return {
    ...(result.errors ? { errors: result.errors.map(e => e.toJSON()) } : {}),
    ...(result.data !== undefined ? { data: result.data } : {}),
  };
}
