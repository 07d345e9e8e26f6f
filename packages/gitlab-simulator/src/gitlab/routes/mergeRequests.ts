import { sendJson } from '../../http/respond';
import { commitJson, mergeRequestJson } from '../entities';
import { filterMergeRequests } from '../mergeRequests';
import { repositoryOf } from '../repository';
import { ProjectRoute, sendPage, withParams } from './request';
import { diffsJson } from './repository';

/**
 * Merge requests (doc/api/merge_requests.md, lib/api/merge_requests.rb),
 * needing `read_merge_request` (Reporter on a private project):
 *
 * - `GET /projects/:id/merge_requests` (state, order_by, sort, branches,
 *   author, iids[]; paginated);
 * - `GET /projects/:id/merge_requests/:iid` with `diff_refs` (base, start
 *   and head commits of its diff) and `changes_count`;
 * - `GET /projects/:id/merge_requests/:iid/diffs` (page, per_page default
 *   20; `unidiff` from 16.5): the diff from the merge base with the target
 *   branch to the source branch's head;
 * - `GET /projects/:id/merge_requests/:iid/commits`, newest first.
 */
export const mergeRequestRoutes: ProjectRoute = request => {
  const { res, url, rest, project, directory, caller, entities, method } =
    request;
  const match = rest.match(
    /^\/merge_requests(?:\/(\d+)(\/diffs|\/commits)?)?$/,
  );
  if (!match || method !== 'GET') return false;
  if (!directory.canReadCode(caller, project)) {
    sendJson(res, 403, { message: '403 Forbidden' });
    return true;
  }
  return withParams(request, () => {
    if (!match[1]) {
      sendPage(request, filterMergeRequests(url, project.mergeRequests), mr =>
        mergeRequestJson(entities, project, mr),
      );
      return;
    }
    const mr = project.mergeRequests.find(m => m.iid === Number(match[1]));
    if (!mr) {
      sendJson(res, 404, { message: '404 Not found' });
      return;
    }
    const repository = repositoryOf(project);
    const targetHead =
      mr.state === 'opened'
        ? repository.branches[mr.targetBranch] ?? mr.baseSha
        : mr.baseSha;
    const base = repository.mergeBase(targetHead, mr.sha) ?? mr.baseSha;
    const { diffs } = repository.diff(base, mr.sha);
    if (match[2] === '/diffs') {
      const { page, headers } = request.paginate(diffs);
      sendJson(res, 200, diffsJson(request, entities, page), headers);
      return;
    }
    if (match[2] === '/commits') {
      sendPage(request, [...mr.commits].reverse(), id =>
        commitJson(entities, project, repository.commit(id)!),
      );
      return;
    }
    sendJson(res, 200, {
      ...mergeRequestJson(entities, project, mr),
      diff_refs: { base_sha: base, head_sha: mr.sha, start_sha: targetHead },
      changes_count: String(diffs.length),
      merge_error: null,
      user: { can_merge: false },
    });
  });
};
