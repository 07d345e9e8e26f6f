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

  /** Is the user Developer+ in a project or group an agent config entry list names? */
  private authorizedBy(
    user: ScenarioUser,
    entries:
      | {
          projects?: AgentAuthorizationEntry[];
          groups?: AgentAuthorizationEntry[];
        }
      | undefined,
  ) {
    if (!entries) return false;
    const projects = (entries.projects ?? []).map(e => e.id);
    const groups = (entries.groups ?? []).map(e => e.id);
    const developerIn = (path: string) =>
      this.roleIn(user, path) >= ROLE_LEVEL.developer;
    return (
      projects.some(developerIn) ||
      groups.some(
        g =>
          developerIn(g) ||
          this.scenario.projects.some(
            p => isWithin(p.fullPath, g) && developerIn(p.fullPath),
          ),
      )
    );
  }

  /**
   * The entry of an agent's `user_access` or `ci_access` that authorizes a
   * project: the project itself, else the nearest listed ancestor group (the
   * most specific entry wins; entries are not merged).
   */
  authorizationFor(
    agent: ScenarioAgent,
    kind: 'user_access' | 'ci_access',
    project: ScenarioProject,
  ): AgentAuthorizationEntry | undefined {
    const entries = agent.config[kind];
    const direct = entries?.projects?.find(e => e.id === project.fullPath);
    if (direct) return direct;
    const groups = (entries?.groups ?? []).filter(g =>
      isWithin(project.fullPath, g.id),
    );
    return groups.sort((a, b) => b.id.length - a.id.length)[0];
  }

  /** `user_access` lets the user through KAS (needs an `access_as` and a matching entry). */
  userAccessCovers(user: ScenarioUser, agent: ScenarioAgent): boolean {
    const access = agent.config.user_access;
    return !!access?.access_as && this.authorizedBy(user, access);
  }

  /** `read_cluster_agent`: Developer+ in the config project, or authorized by ci_access/user_access. */
  canReadAgent(caller: Caller | undefined, agent: ScenarioAgent): boolean {
    if (!caller) return false;
    return (
      this.roleIn(caller.user, agent.configProject) >= ROLE_LEVEL.developer ||
      this.authorizedBy(caller.user, agent.config.ci_access) ||
      this.authorizedBy(caller.user, agent.config.user_access)
    );
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
