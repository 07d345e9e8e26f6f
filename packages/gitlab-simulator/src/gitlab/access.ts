import { atLeast } from '../scenario/version';
import {
  AccessRole,
  AgentAuthorizationEntry,
  Scenario,
  ScenarioAgent,
  ScenarioGroup,
  ScenarioProject,
  ScenarioToken,
  ScenarioUser,
} from '../scenario/types';

/** Who may see what: tokens, memberships and agent authorizations, as GitLab's policies decide. */

/** Since when readers of an agent see its tokens (see canReadAgentTokens). */
export const AGENT_TOKENS_FOR_READERS_SINCE = '17.0';

const ROLE_LEVEL: Record<AccessRole, number> = {
  guest: 10,
  reporter: 20,
  developer: 30,
  maintainer: 40,
  owner: 50,
};

export interface Caller {
  user: ScenarioUser;
  token: ScenarioToken;
}

export type Authentication =
  | { caller?: Caller }
  | { invalid: 'unknown' | 'expired' | 'revoked' };

/** `a/b/c` -> [`a`, `a/b`, `a/b/c`]. */
function selfAndAncestors(path: string): string[] {
  const parts = path.split('/');
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}

function isWithin(path: string, ancestor: string): boolean {
  return path === ancestor || path.startsWith(`${ancestor}/`);
}

export class GitlabDirectory {
  constructor(readonly scenario: Scenario) {}

  authenticate(secret: string | undefined, now = new Date()): Authentication {
    if (!secret) return {};
    const token = this.scenario.tokens.find(t => t.token === secret);
    if (!token) return { invalid: 'unknown' };
    if (token.revoked) return { invalid: 'revoked' };
    if (token.expiresAt && new Date(token.expiresAt) <= now)
      return { invalid: 'expired' };
    const user = this.scenario.users.find(u => u.username === token.username);
    return user ? { caller: { user, token } } : { invalid: 'unknown' };
  }

  hasScope(caller: Caller, ...anyOf: string[]): boolean {
    return caller.token.scopes.some(s => anyOf.includes(s));
  }

  /** The highest role from memberships on the path or any ancestor group. */
  roleIn(user: ScenarioUser | undefined, path: string): number {
    if (!user) return 0;
    const paths = new Set(selfAndAncestors(path));
    return Math.max(
      0,
      ...this.scenario.memberships
        .filter(m => m.username === user.username && paths.has(m.path))
        .map(m => ROLE_LEVEL[m.role]),
    );
  }

  /** Does the user hold at least `role` on the path (directly or through a group)? */
  hasRole(
    user: ScenarioUser | undefined,
    path: string,
    role: AccessRole,
  ): boolean {
    return this.roleIn(user, path) >= ROLE_LEVEL[role];
  }

  project(idOrPath: string | number): ScenarioProject | undefined {
    const key = String(idOrPath);
    return /^\d+$/.test(key)
      ? this.scenario.projects.find(p => p.id === Number(key))
      : this.scenario.projects.find(
          p => p.fullPath.toLowerCase() === key.toLowerCase(),
        );
  }

  group(fullPath: string): ScenarioGroup | undefined {
    return this.scenario.groups.find(
      g => g.fullPath.toLowerCase() === fullPath.toLowerCase(),
    );
  }

  agentById(id: number): ScenarioAgent | undefined {
    return this.scenario.agents.find(a => a.id === id);
  }

  agentByName(name: string): ScenarioAgent | undefined {
    return this.scenario.agents.find(a => a.name === name);
  }

  canReadProject(
    caller: Caller | undefined,
    project: ScenarioProject,
  ): boolean {
    if (project.visibility === 'public') return true;
    if (project.visibility === 'internal' && caller) return true;
    return this.roleIn(caller?.user, project.fullPath) >= ROLE_LEVEL.guest;
  }

  /** `read_environment`: Reporter+, or anyone on a public project. */
  canReadEnvironments(
    caller: Caller | undefined,
    project: ScenarioProject,
  ): boolean {
    return (
      project.visibility === 'public' ||
      this.roleIn(caller?.user, project.fullPath) >= ROLE_LEVEL.reporter
    );
  }

  /**
   * `download_code`: anyone on a public project, any signed-in user on an
   * internal one, Reporter or above on a private one (doc/user/permissions.md,
   * "View project code").
   */
  canReadCode(caller: Caller | undefined, project: ScenarioProject): boolean {
    if (project.visibility === 'public') return true;
    if (project.visibility === 'internal' && caller) return true;
    return this.roleIn(caller?.user, project.fullPath) >= ROLE_LEVEL.reporter;
  }

  canReadGroup(caller: Caller | undefined, group: ScenarioGroup): boolean {
    if (group.visibility === 'public') return true;
    if (group.visibility === 'internal' && caller) return true;
    return (
      this.roleIn(caller?.user, group.fullPath) > 0 ||
      this.scenario.projects.some(
        p =>
          isWithin(p.fullPath, group.fullPath) &&
          this.roleIn(caller?.user, p.fullPath) > 0,
      )
    );
  }

  /**
   * The entries of an agent's `user_access` or `ci_access` GitLab has stored:
   * none until agentk reported the configuration, only projects and groups
   * inside the agent project's top-level group, at most 500
   * (`app/services/clusters/agents/authorizations/user_access/refresh_service.rb`:
   * `root_ancestor.all_projects`, `self_and_descendants`; limit since 17.0).
   */
  storedEntries(
    agent: ScenarioAgent,
    kind: 'user_access' | 'ci_access',
  ): {
    projects: AgentAuthorizationEntry[];
    groups: AgentAuthorizationEntry[];
  } {
    const entries = agent.config[kind];
    if (!agent.configReportedAt || !entries)
      return { projects: [], groups: [] };
    const root = agent.configProject.split('/')[0];
    const inRoot = (e: AgentAuthorizationEntry) => isWithin(e.id, root);
    return {
      projects: (entries.projects ?? []).filter(inRoot).slice(0, 500),
      groups: (entries.groups ?? []).filter(inRoot).slice(0, 500),
    };
  }

  /** A direct, Developer+ membership of the group itself or one of its ancestors. */
  private developerOfGroup(user: ScenarioUser, groupPath: string): boolean {
    const paths = new Set(selfAndAncestors(groupPath));
    return this.scenario.memberships.some(
      m =>
        m.username === user.username &&
        paths.has(m.path) &&
        !this.project(m.path) &&
        ROLE_LEVEL[m.role] >= ROLE_LEVEL.developer,
    );
  }

  /**
   * Does a stored authorization of the agent cover the user? A project entry:
   * the user's effective access to the project (group memberships inherited)
   * is Developer+. A group entry: a direct Developer+ membership of that group
   * or a parent; a membership of a subgroup or of a project below it does not
   * count (`app/models/clusters/agents/authorizations/user_access/{project,group}_authorization.rb`
   * `for_user`).
   */
  private authorizedBy(
    user: ScenarioUser,
    agent: ScenarioAgent,
    kind: 'user_access' | 'ci_access',
  ): boolean {
    const { projects, groups } = this.storedEntries(agent, kind);
    return (
      projects.some(e => this.roleIn(user, e.id) >= ROLE_LEVEL.developer) ||
      groups.some(e => this.developerOfGroup(user, e.id))
    );
  }

  /**
   * The stored entry of an agent's `user_access` or `ci_access` that
   * authorizes a project: the project itself, else the nearest listed
   * ancestor group (the most specific entry wins; entries are not merged).
   */
  authorizationFor(
    agent: ScenarioAgent,
    kind: 'user_access' | 'ci_access',
    project: ScenarioProject,
  ): AgentAuthorizationEntry | undefined {
    const entries = this.storedEntries(agent, kind);
    const direct = entries.projects.find(e => e.id === project.fullPath);
    if (direct) return direct;
    const groups = entries.groups.filter(g => isWithin(project.fullPath, g.id));
    return groups.sort((a, b) => b.id.length - a.id.length)[0];
  }

  /**
   * Why `user_access` does not let the user through KAS, or undefined when it
   * does: Rails refuses with 403 and these texts, which KAS turns into one
   * 401 (`app/services/clusters/agents/authorize_proxy_user_service.rb`).
   */
  userAccessRefusal(
    user: ScenarioUser,
    agent: ScenarioAgent,
  ): string | undefined {
    const access = agent.configReportedAt
      ? agent.config.user_access
      : undefined;
    if (!access)
      return '`user_access` keyword is not found in agent config file.';
    if (!access.access_as)
      return '`access_as` is not specified in agent config file.';
    if (!this.authorizedBy(user, agent, 'user_access'))
      return 'You must be a member of `projects` or `groups` under the `user_access` keyword.';
    return undefined;
  }

  /** `user_access` lets the user through KAS (needs an `access_as` and a matching entry). */
  userAccessCovers(user: ScenarioUser, agent: ScenarioAgent): boolean {
    return this.userAccessRefusal(user, agent) === undefined;
  }

  /**
   * `read_cluster_agent`: Developer+ in the config project, or authorized by
   * a stored ci_access/user_access entry (`app/policies/clusters/agent_policy.rb`).
   */
  canReadAgent(caller: Caller | undefined, agent: ScenarioAgent): boolean {
    if (!caller) return false;
    return (
      this.roleIn(caller.user, agent.configProject) >= ROLE_LEVEL.developer ||
      this.authorizedBy(caller.user, agent, 'ci_access') ||
      this.authorizedBy(caller.user, agent, 'user_access')
    );
  }

  /**
   * `admin_cluster` on the agent's configuration project: Maintainer+
   * (app/policies/project_policy.rb). What `ClusterAgent.connections`
   * asks (app/graphql/resolvers/kas/agent_connections_resolver.rb).
   */
  canAdministerAgent(
    caller: Caller | undefined,
    agent: ScenarioAgent,
  ): boolean {
    return (
      !!caller &&
      this.roleIn(caller.user, agent.configProject) >= ROLE_LEVEL.maintainer
    );
  }

  /**
   * Who sees `ClusterAgent.tokens` (and so their `lastUsedAt`). GitLab's
   * resolver asked three things over time: `read_cluster` on the agent's
   * project (Developer+), `admin_cluster` (Maintainer+), and now, through
   * `Clusters::AgentTokensFinder`, `read_cluster_agent` on the agent
   * (Developer+ of its project, or covered by its user_access or
   * ci_access: see canReadAgent) (app/graphql/resolvers/clusters/agent_tokens_resolver.rb,
   * app/finders/clusters/agent_tokens_finder.rb). The last from 17.0
   * (UNCONFIRMED milestone: its resolver spec is written with the user
   * factory's membership traits of 2024); before, the strictest of the
   * others, so the simulator is never more lenient than GitLab.
   */
  canReadAgentTokens(
    caller: Caller | undefined,
    agent: ScenarioAgent,
  ): boolean {
    return atLeast(
      this.scenario.instance.version,
      AGENT_TOKENS_FOR_READERS_SINCE,
    )
      ? this.canReadAgent(caller, agent)
      : this.canAdministerAgent(caller, agent);
  }

  projectsInGroup(
    group: ScenarioGroup,
    includeSubgroups: boolean,
  ): ScenarioProject[] {
    return this.scenario.projects
      .filter(p => {
        const parent = p.fullPath.slice(0, p.fullPath.lastIndexOf('/'));
        return includeSubgroups
          ? isWithin(parent, group.fullPath)
          : parent === group.fullPath;
      })
      .sort((a, b) => a.id - b.id);
  }
}
