import { createHash } from 'crypto';
import { ServerResponse } from 'http';
import { ScenarioProject } from '../scenario/types';
import { sendBody, sendJson } from '../http/respond';
import { Caller, GitlabDirectory } from './access';
import { blobId, repositoryOf } from './repository';

/**
 * GitLab's repository files API (https://docs.gitlab.com/api/repository_files/):
 *
 * - `GET /projects/:id/repository/files/:file_path/raw[?ref=]` answers the
 *   file's bytes; `ref` is optional and defaults to the default branch (HEAD).
 * - `GET /projects/:id/repository/files/:file_path?ref=` answers JSON with the
 *   content base64-encoded; `ref` is required (400 `{"error":"ref is missing"}`).
 * - `file_path` must be URL-encoded (`.gitlab%2Fagents%2Fx%2Fconfig.yaml`); an
 *   unencoded path does not reach the route (404 Not Found).
 * - Unknown file: 404 `{"message":"404 File Not Found"}`; unknown ref:
 *   404 `{"message":"404 Commit Not Found"}`.
 * - Reading code needs the `download_code` ability: anyone on a public
 *   project, any signed-in user on an internal one, Reporter or above on a
 *   private one (doc/user/permissions.md, "View project code"); callers that
 *   cannot see the project get 404 Project Not Found, members below
 *   Reporter 403 Forbidden.
 *
 * `ref` is any ref Git resolves (`gitlab/repository.ts`): a branch, a tag,
 * `HEAD`, `refs/heads/…`, `refs/tags/…` or a commit id, and the file is
 * served as it is in that commit's tree; `last_commit_id` is the commit
 * that last changed it.
 */

const FILE_ROUTE = /^\/repository\/files\/([^/]+)(\/raw)?$/;

/**
 * Handles `rest` (the part after `/projects/:id`) when it is a repository
 * file route; answers false when it is not one, so the caller goes on.
 */
export function handleRepositoryFile(
  res: ServerResponse,
  url: URL,
  rest: string,
  project: ScenarioProject,
  directory: GitlabDirectory,
  caller: Caller | undefined,
): boolean {
  const match = rest.match(FILE_ROUTE);
  if (!match) return false;
  if (!directory.canReadCode(caller, project)) {
    sendJson(res, 403, { message: '403 Forbidden' });
    return true;
  }
  const raw = match[2] !== undefined;
  const refParam = url.searchParams.get('ref');
  if (!raw && (refParam === null || refParam === '')) {
    sendJson(res, 400, { error: 'ref is missing' });
    return true;
  }
  const ref = refParam || project.defaultBranch;
  const repository = repositoryOf(project);
  const commit = repository.resolve(ref, project.defaultBranch);
  if (!commit) {
    sendJson(res, 404, { message: '404 Commit Not Found' });
    return true;
  }
  let filePath: string;
  try {
    filePath = decodeURIComponent(match[1]);
  } catch {
    sendJson(res, 400, { error: 'file_path is invalid' });
    return true;
  }
  const content = repository.tree(commit).get(filePath);
  if (content === undefined) {
    sendJson(res, 404, { message: '404 File Not Found' });
    return true;
  }
  const blob = blobId(content);
  const lastCommit = repository.lastCommitTouching(filePath, commit) ?? commit;
  if (raw) {
    sendBody(res, 200, content, {
      'Content-Type': 'text/plain; charset=utf-8',
      'X-Gitlab-File-Path': filePath,
      'X-Gitlab-Ref': ref,
      'X-Gitlab-Blob-Id': blob,
      'X-Gitlab-Commit-Id': commit,
      'X-Gitlab-Last-Commit-Id': lastCommit,
      'X-Gitlab-Size': Buffer.byteLength(content),
    });
    return true;
  }
  sendJson(res, 200, {
    file_name: filePath.split('/').pop(),
    file_path: filePath,
    size: Buffer.byteLength(content),
    encoding: 'base64',
    content: Buffer.from(content, 'utf8').toString('base64'),
    content_sha256: createHash('sha256').update(content).digest('hex'),
    ref,
    blob_id: blob,
    commit_id: commit,
    last_commit_id: lastCommit,
    execute_filemode: false,
  });
  return true;
}
