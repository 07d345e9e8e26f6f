import { sendJson } from '../../http/respond';
import { deploymentJson, mergeRequestJson } from '../entities';
import {
  DEPLOYMENT_STATUSES,
  findDeployments,
  InefficientQueryError,
  SORT_VALUES,
} from '../deploymentsFinder';
import { deploymentMergeRequests, filterMergeRequests } from '../mergeRequests';
import { dateParam, enumParam } from '../restParams';
import { ProjectRoute, sendPage, withParams } from './request';

/**
 * The deployments API (doc/api/deployments.md, lib/api/deployments.rb):
 *
 * - `GET /projects/:id/deployments`: `order_by`, `sort`, `environment`,
 *   `status`, `updated_after/before`, `finished_after/before`, paginated;
 *   the finder's refusals are 400 "400 Bad request - <why>";
 * - `GET /projects/:id/deployments/:deployment_id` (the global id);
 * - `GET /projects/:id/deployments/:deployment_id/merge_requests`: the merge
 *   requests linked to it (`gitlab/mergeRequests.ts`).
 *
 * `read_deployment` needs Reporter on a private project (403 below).
 */
export const deploymentRoutes: ProjectRoute = request => {
  const { res, url, rest, project, directory, caller, entities } = request;
  const match = rest.match(/^\/deployments(?:\/(\d+)(\/merge_requests)?)?$/);
  if (!match || request.method !== 'GET') return false;
  if (!directory.canReadEnvironments(caller, project)) {
    sendJson(res, 403, { message: '403 Forbidden' });
    return true;
  }
  return withParams(request, () => {
    if (!match[1]) {
      const status = enumParam(url, 'status', DEPLOYMENT_STATUSES);
      let found;
      try {
        found = findDeployments(project, {
          orderBy: enumParam(url, 'order_by', SORT_VALUES, 'id'),
          sort: enumParam(url, 'sort', ['asc', 'desc'] as const, 'asc'),
          environment: url.searchParams.get('environment') ?? undefined,
          statuses: status ? [status] : undefined,
          updatedAfter: dateParam(url, 'updated_after'),
          updatedBefore: dateParam(url, 'updated_before'),
          finishedAfter: dateParam(url, 'finished_after'),
          finishedBefore: dateParam(url, 'finished_before'),
        });
      } catch (error) {
        if (!(error instanceof InefficientQueryError)) throw error;
        sendJson(res, 400, { message: `400 Bad request - ${error.message}` });
        return;
      }
      sendPage(request, found, f =>
        deploymentJson(entities, project, f.env, f.deployment),
      );
      return;
    }
    const id = Number(match[1]);
    const env = project.environments.find(e =>
      e.deployments.some(d => d.id === id),
    );
    const deployment = env?.deployments.find(d => d.id === id);
    if (!env || !deployment) {
      sendJson(res, 404, { message: '404 Not found' });
      return;
    }
    if (!match[2]) {
      sendJson(
        res,
        200,
        deploymentJson(entities, project, env, deployment, true),
      );
      return;
    }
    const linked = filterMergeRequests(
      url,
      deploymentMergeRequests(project, env).get(id) ?? [],
    );
    sendPage(request, linked, mr => mergeRequestJson(entities, project, mr));
  });
};
