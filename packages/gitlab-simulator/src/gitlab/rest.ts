import { IncomingMessage, ServerResponse } from 'http';
import {
  ScenarioAgent,
  ScenarioEnvironment,
  ScenarioProject,
} from '../scenario/types';
import { environmentSlug } from '../scenario/slug';
import { sendJson } from '../http/respond';
import { atLeast } from '../scenario/version';
import { Caller, GitlabDirectory } from './access';
import { handleRepositoryFile } from './repositoryFiles';
import { handleProtectedBranches } from './protectedBranches';
import { deploymentJson } from './entities';
import { DeployRunner } from './jobs';
import { deploymentRoutes } from './routes/deployments';
import { jobRoutes } from './routes/jobs';
import { mergeRequestRoutes } from './routes/mergeRequests';
import { ProjectRequest, ProjectRoute } from './routes/request';
import { repositoryRoutes } from './routes/repository';

/** GitLab's REST API v4: the endpoints the plugins and the CLI use. */

export interface RestContext {
  directory: GitlabDirectory;
  caller?: Caller;
  baseUrl: string;
  kasProxyUrl: string;
  kasEnabled: boolean;
  /** Counts repository file bytes written (SimulatorStats.repositoryFileBytes). */
  countFileBytes?: (bytes: number) => void;
  /** Runs retried deploy jobs. */
  runner: DeployRunner;
}

/** The project routes of the history endpoints, tried in order (`routes/`). */
const PROJECT_ROUTES: ProjectRoute[] = [
  deploymentRoutes,
  jobRoutes,
  repositoryRoutes,
  mergeRequestRoutes,
];

/** The only write the simulator's REST API takes: retrying a job. */
const RETRY = /^\/projects\/[^/]+\/jobs\/\d+\/retry$/;

const NOT_FOUND = { error: '404 Not Found' };

export function paginate<T>(
  url: URL,
  baseUrl: string,
  items: T[],
): { page: T[]; headers: Record<string, string> } {
  const perPage = Math.min(
    100,
    Math.max(1, Number(url.searchParams.get('per_page')) || 20),
  );
  const page = Math.max(1, Number(url.searchParams.get('page')) || 1);
  const totalPages = Math.max(1, Math.ceil(items.length / perPage));
  const link = (p: number) => {
    const target = new URL(`${baseUrl}${url.pathname}${url.search}`);
    target.searchParams.set('page', String(p));
    target.searchParams.set('per_page', String(perPage));
    return target.toString();
  };
  const links: string[] = [];
  if (page > 1) links.push(`<${link(page - 1)}>; rel="prev"`);
  if (page < totalPages) links.push(`<${link(page + 1)}>; rel="next"`);
  links.push(`<${link(1)}>; rel="first"`, `<${link(totalPages)}>; rel="last"`);
  return {
    page: items.slice((page - 1) * perPage, page * perPage),
    headers: {
      Link: links.join(', '),
      'X-Page': String(page),
      'X-Per-Page': String(perPage),
      'X-Next-Page': page < totalPages ? String(page + 1) : '',
      'X-Prev-Page': page > 1 ? String(page - 1) : '',
      'X-Total': String(items.length),
      'X-Total-Pages': String(totalPages),
    },
  };
}

function projectJson(project: ScenarioProject, ctx: RestContext) {
  const namespacePath = project.fullPath.slice(
    0,
    project.fullPath.lastIndexOf('/'),
  );
  const group = ctx.directory.group(namespacePath);
  return {
    id: project.id,
    description: project.description ?? null,
    name: project.name,
    name_with_namespace: project.fullPath.split('/').join(' / '),
    path: project.fullPath.split('/').pop(),
    path_with_namespace: project.fullPath,
    created_at: '2024-03-01T09:00:00.000Z',
    default_branch: project.defaultBranch,
    visibility: project.visibility,
    web_url: `${ctx.baseUrl}/${project.fullPath}`,
    http_url_to_repo: `${ctx.baseUrl}/${project.fullPath}.git`,
    readme_url: `${ctx.baseUrl}/${project.fullPath}/-/blob/${project.defaultBranch}/README.md`,
    namespace: {
      id: group?.id ?? 0,
      name: group?.name ?? namespacePath,
      path: namespacePath.split('/').pop(),
      kind: 'group',
      full_path: namespacePath,
      web_url: `${ctx.baseUrl}/groups/${namespacePath}`,
    },
    archived: false,
    environments_access_level: 'enabled',
  };
}

function environmentJson(env: ScenarioEnvironment) {
  return {
    id: env.id,
    name: env.name,
    slug: environmentSlug(env.name),
    description: null,
    external_url: env.externalUrl ?? null,
    state: env.state,
    tier: env.tier,
    created_at: env.createdAt,
    updated_at: env.updatedAt,
    auto_stop_at: env.autoStopAt ?? null,
    auto_stop_setting: 'always',
    kubernetes_namespace: env.kubernetesNamespace ?? null,
    flux_resource_path: env.fluxResourcePath ?? null,
  };
}

function agentJson(agent: ScenarioAgent, ctx: RestContext) {
  const project = ctx.directory.project(agent.configProject);
  return {
    id: agent.id,
    name: agent.name,
    config_project: project
      ? {
          id: project.id,
          description: project.description ?? null,
          name: project.name,
          name_with_namespace: project.fullPath.split('/').join(' / '),
          path: project.fullPath.split('/').pop(),
          path_with_namespace: project.fullPath,
          created_at: '2024-03-01T09:00:00.000Z',
        }
      : null,
    created_at: agent.createdAt,
    created_by_user_id: 1,
  };
}

function environmentDetailJson(
  project: ScenarioProject,
  env: ScenarioEnvironment,
  ctx: RestContext,
) {
  // `Environment#last_deployment` is the last successful one.
  const deployment = env.deployments.find(d => d.status === 'SUCCESS');
  const agent = env.agent ? ctx.directory.agentByName(env.agent) : undefined;
  return {
    ...environmentJson(env),
    project: projectJson(project, ctx),
    last_deployment: deployment
      ? deploymentJson(
          { directory: ctx.directory, baseUrl: ctx.baseUrl },
          project,
          env,
          deployment,
        )
      : null,
    cluster_agent:
      agent && ctx.directory.canReadAgent(ctx.caller, agent)
        ? agentJson(agent, ctx)
        : null,
  };
}

/** Handles `/api/v4/...`; `path` is the part after `/api/v4`. */
export function handleRest(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  path: string,
  ctx: RestContext,
) {
  const { directory, caller } = ctx;
  const method = req.method ?? 'GET';
  const retry = method === 'POST' && RETRY.test(path);
  if (method !== 'GET' && method !== 'HEAD' && !retry) {
    sendJson(res, 405, { error: '405 Method Not Allowed' });
    return;
  }
  // `read_api` grants GET and HEAD only (lib/api/api.rb
  // `allow_access_with_scope :read_api, if: request.get? || request.head?`).
  if (retry && caller && !directory.hasScope(caller, 'api')) {
    sendJson(res, 403, {
      error: 'insufficient_scope',
      error_description:
        'The request requires higher privileges than provided by the access token.',
      scope: 'api',
    });
    return;
  }
  if (path === '/personal_access_tokens/self') {
    // Any scope may read its own token (lib/api/personal_access_tokens/self_information_api.rb).
    if (!caller) {
      sendJson(res, 401, { message: '401 Unauthorized' });
      return;
    }
    const { token } = caller;
    sendJson(res, 200, {
      id: directory.scenario.tokens.indexOf(token) + 1,
      name: token.name ?? 'token',
      revoked: false,
      created_at: '2024-03-01T09:00:00.000Z',
      scopes: token.scopes,
      user_id: caller.user.id,
      last_used_at: new Date().toISOString(),
      active: true,
      expires_at: token.expiresAt ?? null,
    });
    return;
  }
  // `/metadata` (and its older alias `/version`) also answer read_user tokens (lib/api/metadata.rb).
  const readUserPath = ['/user', '/metadata', '/version'].includes(path);
  if (
    caller &&
    !directory.hasScope(caller, 'api', 'read_api') &&
    !(readUserPath && directory.hasScope(caller, 'read_user'))
  ) {
    sendJson(res, 403, {
      error: 'insufficient_scope',
      error_description:
        'The request requires higher privileges than provided by the access token.',
      scope: 'api read_api',
    });
    return;
  }
  if (path === '/metadata' || path === '/version' || path === '/user') {
    if (!caller) {
      sendJson(res, 401, { message: '401 Unauthorized' });
      return;
    }
    if (path === '/user') {
      sendJson(res, 200, {
        id: caller.user.id,
        username: caller.user.username,
        name: caller.user.name,
        state: 'active',
        locked: false,
        avatar_url: null,
        web_url: `${ctx.baseUrl}/${caller.user.username}`,
        bot: caller.user.username.endsWith('-bot'),
      });
      return;
    }
    const { instance } = directory.scenario;
    sendJson(res, 200, {
      version: instance.version,
      revision: instance.revision,
      kas: {
        enabled: ctx.kasEnabled,
        externalUrl: ctx.kasEnabled
          ? `${ctx.baseUrl.replace(/^http/, 'ws')}/-/kubernetes-agent/`
          : null,
        // REST runs the GraphQL metadata query, so it gains the field in 17.6 too (doc/api/metadata.md).
        ...(atLeast(instance.version, '17.6')
          ? { externalK8sProxyUrl: ctx.kasEnabled ? ctx.kasProxyUrl : null }
          : {}),
        version: ctx.kasEnabled ? instance.kasVersion : null,
      },
      enterprise: instance.version.endsWith('-ee'),
    });
    return;
  }
  const match = path.match(/^\/projects\/([^/]+)(\/.*)?$/);
  if (!match) {
    sendJson(res, 404, NOT_FOUND);
    return;
  }
  const project = directory.project(decodeURIComponent(match[1]));
  if (!project || !directory.canReadProject(caller, project)) {
    sendJson(res, 404, { message: '404 Project Not Found' });
    return;
  }
  const rest = match[2] ?? '';
  if (rest === '') {
    sendJson(res, 200, projectJson(project, ctx));
    return;
  }
  if (rest === '/environments') {
    if (!directory.canReadEnvironments(caller, project)) {
      sendJson(res, 403, { message: '403 Forbidden' });
      return;
    }
    const search = url.searchParams.get('search');
    const name = url.searchParams.get('name');
    const states = url.searchParams.get('states');
    if (search !== null && search.length < 3) {
      sendJson(res, 400, {
        message: '400 Bad request - search must be at least 3 characters',
      });
      return;
    }
    if (
      states !== null &&
      !['available', 'stopping', 'stopped'].includes(states)
    ) {
      sendJson(res, 400, { message: 'Requested states are invalid' });
      return;
    }
    const environments = project.environments
      .filter(e => name === null || e.name === name)
      .filter(e => search === null || e.name.includes(search))
      .filter(e => states === null || e.state === states)
      .sort((a, b) => a.name.localeCompare(b.name));
    const { page, headers } = paginate(url, ctx.baseUrl, environments);
    sendJson(res, 200, page.map(environmentJson), headers);
    return;
  }
  const envMatch = rest.match(/^\/environments\/(\d+)$/);
  if (envMatch) {
    const env = directory.canReadEnvironments(caller, project)
      ? project.environments.find(e => e.id === Number(envMatch[1]))
      : undefined;
    if (!env) {
      sendJson(res, 404, { message: '404 Not found' });
      return;
    }
    sendJson(res, 200, environmentDetailJson(project, env, ctx));
    return;
  }
  if (rest === '/cluster_agents') {
    if (!directory.hasRole(caller?.user, project.fullPath, 'developer')) {
      sendJson(res, 403, { message: '403 Forbidden' });
      return;
    }
    const agents = directory.scenario.agents
      .filter(a => a.configProject === project.fullPath)
      .sort((a, b) => a.id - b.id);
    const { page, headers } = paginate(url, ctx.baseUrl, agents);
    sendJson(
      res,
      200,
      page.map(a => agentJson(a, ctx)),
      headers,
    );
    return;
  }
  if (
    handleRepositoryFile(res, url, rest, project, directory, caller, {
      countBytes: ctx.countFileBytes,
    })
  ) {
    return;
  }
  const request: ProjectRequest = {
    req,
    res,
    url,
    method,
    rest,
    project,
    directory,
    caller,
    entities: { directory, baseUrl: ctx.baseUrl },
    runner: ctx.runner,
    paginate: items => paginate(url, ctx.baseUrl, items),
  };
  if (PROJECT_ROUTES.some(route => route(request))) {
    return;
  }
  if (
    handleProtectedBranches(res, rest, project, directory, caller, items =>
      paginate(url, ctx.baseUrl, items),
    )
  ) {
    return;
  }
  sendJson(res, 404, NOT_FOUND);
}
