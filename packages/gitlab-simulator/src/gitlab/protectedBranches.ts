import { ServerResponse } from 'http';
import { ScenarioProject } from '../scenario/types';
import { sendJson } from '../http/respond';
import { Caller, GitlabDirectory } from './access';

/**
 * `GET /projects/:id/protected_branches`
 * (https://docs.gitlab.com/api/protected_branches/#list-protected-branches):
 * names as configured, wildcards (`release/*`) included, paginated. Modelled
 * as needing Developer or above, the stricter reading of who may list them.
 * A project's default branch is protected unless the scenario says otherwise
 * (GitLab protects it on creation, doc/user/project/repository/branches/protected.md).
 */
export function handleProtectedBranches(
  res: ServerResponse,
  rest: string,
  project: ScenarioProject,
  directory: GitlabDirectory,
  caller: Caller | undefined,
  paginate: <T>(items: T[]) => { page: T[]; headers: Record<string, string> },
): boolean {
  if (rest !== '/protected_branches') return false;
  if (!directory.hasRole(caller?.user, project.fullPath, 'developer')) {
    sendJson(res, 403, { message: '403 Forbidden' });
    return true;
  }
  const names = project.protectedBranches ?? [project.defaultBranch];
  const items = names.map((name, i) => ({
    id: project.id * 100 + i + 1,
    name,
    push_access_levels: [
      {
        id: i + 1,
        access_level: 40,
        access_level_description: 'Maintainers',
        deploy_key_id: null,
      },
    ],
    merge_access_levels: [
      { id: i + 1, access_level: 40, access_level_description: 'Maintainers' },
    ],
    allow_force_push: false,
    code_owner_approval_required: false,
  }));
  const { page, headers } = paginate(items);
  sendJson(res, 200, page, headers);
  return true;
}
