import { sendJson } from '../../http/respond';
import { atLeast } from '../../scenario/version';
import {
  commitJson,
  diffJson,
  EntityContext,
  mergeRequestJson,
} from '../entities';
import { mergeRequestsOfCommit } from '../mergeRequests';
import { FileDiff, repositoryOf } from '../repository';
import { booleanParam, ParamError } from '../restParams';
import { ProjectRequest, ProjectRoute, sendPage, withParams } from './request';

/**
 * Commits and comparisons (doc/api/repositories.md, doc/api/commits.md,
 * lib/api/repositories.rb, lib/api/commits.rb), all needing `download_code`
 * (Reporter on a private project):
 *
 * - `GET /projects/:id/repository/compare?from&to[&straight][&unidiff]`:
 *   the commits of `from..to`, oldest first, `commit` the newest; the diffs
 *   from the merge base (`from...to`), or from `from` itself with
 *   `straight=true`; `compare_timeout` when GitLab's diff limits cut them;
 *   `compare_same_ref`; 404 "404 Ref Not Found" for a ref it cannot resolve;
 * - `GET /projects/:id/repository/commits/:sha` (with `stats`);
 * - `GET /projects/:id/repository/commits/:sha/merge_requests`: the merge
 *   requests a commit belongs to (MergeRequestBasic, paginated).
 */

/** `unidiff=true` (16.5): the diff with its `---`/`+++` file header. */
function unified(diff: FileDiff): string {
  if (!diff.diff) return diff.diff;
  const from = diff.new_file ? '/dev/null' : `a/${diff.old_path}`;
  const to = diff.deleted_file ? '/dev/null' : `b/${diff.new_path}`;
  return `--- ${from}\n+++ ${to}\n${diff.diff}`;
}

export function diffsJson(
  request: Pick<ProjectRequest, 'url' | 'directory'>,
  entities: EntityContext,
  diffs: FileDiff[],
) {
  const unidiff =
    atLeast(request.directory.scenario.instance.version, '16.5') &&
    booleanParam(request.url, 'unidiff') === true;
  return diffs.map(d =>
    diffJson(entities, unidiff ? { ...d, diff: unified(d) } : d),
  );
}

function compare(request: ProjectRequest) {
  const { url, res, project, entities } = request;
  const missing = ['from', 'to'].filter(name => !url.searchParams.get(name));
  if (missing.length) {
    throw new ParamError(missing.map(name => `${name} is missing`).join(', '));
  }
  const straight = booleanParam(url, 'straight') ?? false;
  const fromProject = url.searchParams.get('from_project_id');
  if (fromProject && fromProject !== String(project.id)) {
    sendJson(res, 400, {
      message: `Target project id:${fromProject} is not a fork of project id:${project.id}`,
    });
    return;
  }
  const repository = repositoryOf(project);
  const from = repository.resolve(
    url.searchParams.get('from')!,
    project.defaultBranch,
  );
  const to = repository.resolve(
    url.searchParams.get('to')!,
    project.defaultBranch,
  );
  if (!from || !to) {
    sendJson(res, 404, { message: '404 Ref Not Found' });
    return;
  }
  const commits = repository.commitsBetween(from, to);
  const base = straight ? from : repository.mergeBase(from, to);
  const { diffs, overflow } = repository.diff(base, to);
  const separator = straight ? '..' : '...';
  const last = commits[commits.length - 1];
  sendJson(res, 200, {
    commit: last ? commitJson(entities, project, last) : null,
    commits: commits.map(c => commitJson(entities, project, c)),
    diffs: diffsJson(request, entities, diffs),
    compare_timeout: overflow,
    compare_same_ref: from === to,
    web_url: `${entities.baseUrl}/${
      project.fullPath
    }/-/compare/${url.searchParams.get(
      'from',
    )}${separator}${url.searchParams.get('to')}`,
  });
}

export const repositoryRoutes: ProjectRoute = request => {
  const { res, rest, project, directory, caller, entities, method } = request;
  const isCompare = rest === '/repository/compare';
  const commitMatch = rest.match(
    /^\/repository\/commits\/([^/]+)(\/merge_requests)?$/,
  );
  if ((!isCompare && !commitMatch) || method !== 'GET') return false;
  if (!directory.canReadCode(caller, project)) {
    sendJson(res, 403, { message: '403 Forbidden' });
    return true;
  }
  return withParams(request, () => {
    if (isCompare) {
      compare(request);
      return;
    }
    const repository = repositoryOf(project);
    const sha = repository.resolve(
      decodeURIComponent(commitMatch![1]),
      project.defaultBranch,
    );
    const commit = sha ? repository.commit(sha) : undefined;
    if (!commit) {
      sendJson(res, 404, { message: '404 Commit Not Found' });
      return;
    }
    if (commitMatch![2]) {
      sendPage(request, mergeRequestsOfCommit(project, commit.id), mr =>
        mergeRequestJson(entities, project, mr),
      );
      return;
    }
    const { diffs } = repository.diff(commit.parents[0], commit.id);
    const count = (sign: string) =>
      diffs
        .flatMap(d => d.diff.split('\n'))
        .filter(line => line.startsWith(sign)).length;
    const additions = count('+');
    const deletions = count('-');
    sendJson(res, 200, {
      ...commitJson(entities, project, commit),
      stats: { additions, deletions, total: additions + deletions },
      status: null,
      project_id: project.id,
      last_pipeline: null,
    });
  });
};
