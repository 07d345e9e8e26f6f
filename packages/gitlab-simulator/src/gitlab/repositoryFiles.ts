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
 * - Every answer for a file carries its metadata as `X-Gitlab-*` headers,
 *   `X-Gitlab-Size` among them (`set_http_headers(blob_data)` in
 *   lib/api/files.rb), so a client knows the size before it reads the body.
 * - A raw body is streamed (Workhorse's send-git-blob, from Gitaly in
 *   chunks); files past STREAMED_FROM_BYTES go out in chunks as the client
 *   reads them, without Content-Length, so a client that stops reading
 *   stops the transfer, and only X-Gitlab-Size says the size up front.
 *
 * `ref` is any ref Git resolves (`gitlab/repository.ts`): a branch, a tag,
 * `HEAD`, `refs/heads/…`, `refs/tags/…` or a commit id, and the file is
 * served as it is in that commit's tree; `last_commit_id` is the commit
 * that last changed it.
 */

const FILE_ROUTE = /^\/repository\/files\/([^/]+)(\/raw)?$/;
const STREAMED_FROM_BYTES = 64 * 1024;
const CHUNK_BYTES = 16 * 1024;

/**
 * Writes `body` in chunks, each after the client took the one before
 * (backpressure); stops when the client goes. Counts what was written.
 */
function streamBody(
  res: ServerResponse,
  body: Buffer,
  headers: Record<string, string | number>,
  countBytes: (bytes: number) => void,
) {
  res.writeHead(200, headers);
  let offset = 0;
  const next = () => {
    while (offset < body.length && !res.destroyed) {
      const chunk = body.subarray(offset, offset + CHUNK_BYTES);
      offset += chunk.length;
      countBytes(chunk.length);
      if (!res.write(chunk)) {
        res.once('drain', next);
        return;
      }
    }
    if (!res.destroyed) res.end();
  };
  next();
}

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
  options: { countBytes?: (bytes: number) => void } = {},
): boolean {
  const countBytes = options.countBytes ?? (() => undefined);
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
    const bytes = Buffer.from(content);
    const headers = {
      'Content-Type': 'text/plain; charset=utf-8',
      'X-Gitlab-File-Path': filePath,
      'X-Gitlab-Ref': ref,
      'X-Gitlab-Blob-Id': blob,
      'X-Gitlab-Commit-Id': commit,
      'X-Gitlab-Last-Commit-Id': lastCommit,
      'X-Gitlab-Size': bytes.length,
    };
    if (bytes.length >= STREAMED_FROM_BYTES) {
      streamBody(res, bytes, headers, countBytes);
    } else {
      countBytes(bytes.length);
      sendBody(res, 200, content, headers);
    }
    return true;
  }
  countBytes(Buffer.byteLength(content));
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
