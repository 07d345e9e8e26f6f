import { sendJson } from '../../http/respond';
import { jobJson } from '../entities';
import { findJob } from '../pipelines';
import { ProjectRoute } from './request';

/**
 * The jobs API's single job and retry (doc/api/jobs.md, lib/api/ci/jobs.rb):
 * `GET /projects/:id/jobs/:job_id` (read_build: Reporter on a private
 * project) and `POST /projects/:id/jobs/:job_id/retry` (201 with the new
 * job; 404 "404 Not found" for a job the project does not have; 403
 * "403 Forbidden" without `retry_job`; 403 "403 Forbidden - Job is not
 * retryable"). A token needs the `api` scope to POST (the REST guard).
 */
export const jobRoutes: ProjectRoute = request => {
  const { res, rest, project, directory, caller, entities, method } = request;
  const match = rest.match(/^\/jobs\/(\d+)(\/retry)?$/);
  if (!match) return false;
  const retry = match[2] !== undefined;
  if ((retry && method !== 'POST') || (!retry && method !== 'GET')) {
    sendJson(res, 405, { error: '405 Method Not Allowed' });
    return true;
  }
  if (!retry) {
    if (!directory.canReadEnvironments(caller, project)) {
      sendJson(res, 403, { message: '403 Forbidden' });
      return true;
    }
    const found = findJob(project, Number(match[1]));
    if (!found) sendJson(res, 404, { message: '404 Not found' });
    else sendJson(res, 200, jobJson(entities, project, found.deployment));
    return true;
  }
  if (!caller) {
    sendJson(res, 401, { message: '401 Unauthorized' });
    return true;
  }
  const result = request.runner.retry(caller, project, Number(match[1]));
  if (result === 'not_found') {
    sendJson(res, 404, { message: '404 Not found' });
  } else if (result === 'forbidden') {
    sendJson(res, 403, { message: '403 Forbidden' });
  } else if (result === 'not_retryable') {
    sendJson(res, 403, { message: '403 Forbidden - Job is not retryable' });
  } else {
    sendJson(res, 201, jobJson(entities, project, result));
  }
  return true;
};
