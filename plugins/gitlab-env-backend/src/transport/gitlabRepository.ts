import {
  DeploymentCommit,
  DeploymentJob,
  DeploymentMergeRequest,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { GitlabInstanceConfig } from '../config';
import { failure } from '../errors';
import { isRecord, statusMessage } from '../validation/json';
import { isProjectPath } from '../validation/gitlabPaths';
import type { GitlabRestClient } from './gitlabRest';

/**
 * The repository and job endpoints the history needs (doc/api/repositories.md,
 * commits.md, merge_requests.md, jobs.md), each value checked before it
 * enters a path and each answer bounded.
 */

const SHA = /^[0-9a-f]{7,64}$/;
const ID = /^\d{1,19}$/;
/** Commits shown per deployment; GitLab's compare may list thousands. */
export const MAX_COMMITS = 100;
/** Pages of merge request diffs read (100 files each). */
const MAX_DIFF_PAGES = 10;

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function projectSegment(path: string): string {
  if (!isProjectPath(path))
    throw failure(
      'INVALID_REQUEST',
      `Invalid project path ${JSON.stringify(path)}.`,
    );
  return encodeURIComponent(path);
}

function checked(value: string, grammar: RegExp, what: string): string {
  if (!grammar.test(value))
    throw failure(
      'UPSTREAM_MALFORMED',
      `GitLab gave an invalid ${what} ${JSON.stringify(value)}.`,
    );
  return value;
}

function unreadable(
  instance: GitlabInstanceConfig,
  what: string,
  status: number,
) {
  return failure(
    'UPSTREAM_MALFORMED',
    `GitLab (${instance.host}) answered ${what} with HTTP ${status} and nothing usable.`,
    { upstreamStatus: status },
  );
}

/** The commits `to` has that `from` lacks (`git log from..to`), oldest first, at most MAX_COMMITS. */
export async function compareCommits(
  rest: GitlabRestClient,
  instance: GitlabInstanceConfig,
  projectPath: string,
  from: string,
  to: string,
): Promise<
  | { commits: DeploymentCommit[]; truncated: boolean; webUrl?: string }
  | undefined
> {
  const response = await rest.send(
    `/projects/${projectSegment(
      projectPath,
    )}/repository/compare?${new URLSearchParams({
      from: checked(from, SHA, 'commit'),
      to: checked(to, SHA, 'commit'),
    })}`,
  );
  // A commit gone (a force push) or a project the token cannot read.
  if (response.status === 404 || response.status === 403) return undefined;
  if (
    response.status !== 200 ||
    !isRecord(response.body) ||
    !Array.isArray(response.body.commits)
  )
    throw unreadable(instance, 'a comparison', response.status);
  const all = response.body.commits.filter(isRecord);
  return {
    commits: all.slice(-MAX_COMMITS).map(c => ({
      sha: String(c.id),
      shortSha: text(c.short_id) ?? String(c.id).slice(0, 8),
      title: text(c.title) ?? '',
      authorName: text(c.author_name),
      createdAt: text(c.created_at),
      webUrl: text(c.web_url),
    })),
    truncated:
      all.length > MAX_COMMITS || response.body.compare_timeout === true,
    webUrl: text(response.body.web_url),
  };
}

function mergeRequestOf(
  value: Record<string, any>,
): DeploymentMergeRequest | undefined {
  const iid = Number(value.iid);
  if (!Number.isSafeInteger(iid)) return undefined;
  return {
    iid,
    title: text(value.title) ?? '',
    state: text(value.state),
    authorName: text(value.author?.name),
    webUrl: text(value.web_url),
  };
}

async function mergeRequestList(
  rest: GitlabRestClient,
  instance: GitlabInstanceConfig,
  path: string,
): Promise<DeploymentMergeRequest[] | undefined> {
  const response = await rest.send(path);
  if (response.status === 404 || response.status === 403) return undefined;
  if (response.status !== 200 || !Array.isArray(response.body))
    throw unreadable(instance, 'a merge request list', response.status);
  return response.body
    .filter(isRecord)
    .map(mergeRequestOf)
    .filter((m): m is DeploymentMergeRequest => !!m);
}

/** The merge requests GitLab linked to a deployment when it succeeded (Deployments::LinkMergeRequestsService). */
export function deploymentMergeRequests(
  rest: GitlabRestClient,
  instance: GitlabInstanceConfig,
  projectPath: string,
  deploymentId: string,
) {
  return mergeRequestList(
    rest,
    instance,
    `/projects/${projectSegment(projectPath)}/deployments/${checked(
      deploymentId,
      ID,
      'deployment id',
    )}/merge_requests?per_page=100`,
  );
}

/** The merge requests a commit came from (`GET …/repository/commits/:sha/merge_requests`). */
export function commitMergeRequests(
  rest: GitlabRestClient,
  instance: GitlabInstanceConfig,
  projectPath: string,
  sha: string,
) {
  return mergeRequestList(
    rest,
    instance,
    `/projects/${projectSegment(projectPath)}/repository/commits/${checked(
      sha,
      SHA,
      'commit',
    )}/merge_requests?per_page=20`,
  );
}

/** An open merge request with its head commit. */
export interface OpenMergeRequest extends DeploymentMergeRequest {
  headSha: string;
  sourceBranch?: string;
  targetBranch?: string;
}

/** The project's open merge requests, most recently updated first, at most `limit`. */
export async function openMergeRequests(
  rest: GitlabRestClient,
  instance: GitlabInstanceConfig,
  projectPath: string,
  limit: number,
): Promise<OpenMergeRequest[]> {
  const response = await rest.send(
    `/projects/${projectSegment(
      projectPath,
    )}/merge_requests?state=opened&order_by=updated_at&sort=desc&per_page=${limit}`,
  );
  if (response.status === 404 || response.status === 403)
    throw failure(
      'PROJECT_NOT_FOUND',
      `GitLab (${instance.host}) does not show the merge requests of ${projectPath} to the configured token.`,
      {
        upstreamStatus: response.status,
        hint: "Give the token's user the Reporter role (or above) on the project.",
      },
    );
  if (response.status !== 200 || !Array.isArray(response.body))
    throw unreadable(instance, 'the open merge requests', response.status);
  return response.body.filter(isRecord).flatMap(item => {
    const mr = mergeRequestOf(item);
    const sha = text(item.sha);
    if (!mr || !sha || !SHA.test(sha)) return [];
    return [
      {
        ...mr,
        headSha: sha,
        sourceBranch: text(item.source_branch),
        targetBranch: text(item.target_branch),
      },
    ];
  });
}

/** The paths a merge request changes (old and new names), bounded to 1,000 files. */
export async function mergeRequestChangedPaths(
  rest: GitlabRestClient,
  instance: GitlabInstanceConfig,
  projectPath: string,
  iid: number,
): Promise<string[]> {
  const paths = new Set<string>();
  for (let page = 1; page <= MAX_DIFF_PAGES; page++) {
    const response = await rest.send(
      `/projects/${projectSegment(
        projectPath,
      )}/merge_requests/${iid}/diffs?per_page=100&page=${page}`,
    );
    if (response.status === 404)
      throw failure(
        'MERGE_REQUEST_NOT_FOUND',
        `Merge request !${iid} of ${projectPath} was not found.`,
      );
    if (response.status !== 200 || !Array.isArray(response.body))
      throw unreadable(instance, `the changes of !${iid}`, response.status);
    for (const diff of response.body.filter(isRecord)) {
      if (text(diff.old_path)) paths.add(diff.old_path);
      if (text(diff.new_path)) paths.add(diff.new_path);
    }
    const next = response.headers.get('x-next-page');
    if (!next) break;
  }
  return [...paths];
}

/**
 * Re-runs a job (`POST /projects/:id/jobs/:job_id/retry`, what GitLab's
 * "Rollback environment" does; Ci::RetryJobService), once, with the
 * rollback token; GitLab's refusals as typed failures naming their cause.
 */
export async function retryJob(
  rest: GitlabRestClient,
  instance: GitlabInstanceConfig,
  projectPath: string,
  jobId: string,
  token: string,
  environmentName: string,
): Promise<DeploymentJob> {
  const response = await rest.send(
    `/projects/${projectSegment(projectPath)}/jobs/${checked(
      jobId,
      ID,
      'job id',
    )}/retry`,
    { method: 'POST', token, anyStatus: true },
  );
  const said =
    statusMessage(response.body) ??
    (isRecord(response.body) ? text(response.body.error) : undefined);
  const extra = { upstreamStatus: response.status };
  if (
    response.status === 201 &&
    isRecord(response.body) &&
    ID.test(String(response.body.id))
  )
    return {
      id: String(response.body.id),
      name: text(response.body.name),
      status: text(response.body.status),
      webUrl: text(response.body.web_url),
      pipeline: isRecord(response.body.pipeline)
        ? {
            id: String(response.body.pipeline.id),
            iid:
              response.body.pipeline.iid !== undefined
                ? String(response.body.pipeline.iid)
                : undefined,
            status: text(response.body.pipeline.status),
            webUrl: text(response.body.pipeline.web_url),
          }
        : undefined,
    };
  if (response.status === 401)
    throw failure(
      'GITLAB_UNAUTHORIZED',
      `GitLab (${instance.host}) rejected the rollback token (HTTP 401): it is unknown, expired or revoked.`,
      { ...extra, hint: 'Replace gitlabEnv.instances[].rollbackToken.' },
    );
  if (response.status === 403 && /insufficient_scope/.test(String(said)))
    throw failure(
      'ROLLBACK_TOKEN_SCOPE',
      `GitLab (${instance.host}) refused to re-run job ${jobId}: the rollback token lacks the api scope (read_api may not run jobs).`,
      {
        ...extra,
        hint: 'Give gitlabEnv.instances[].rollbackToken the api scope.',
      },
    );
  if (response.status === 403 && /not retryable/i.test(String(said)))
    throw failure(
      'JOB_NOT_RETRYABLE',
      `GitLab (${instance.host}) says job ${jobId} is not retryable: it is running, pending or was already retried.`,
      {
        ...extra,
        hint: 'Wait for it to finish, or roll back to another deployment.',
      },
    );
  if (response.status === 403)
    throw failure(
      'JOB_RETRY_FORBIDDEN',
      `GitLab (${instance.host}) refused to re-run job ${jobId} (${
        said ?? 'HTTP 403'
      }): the rollback token's user may not deploy to ${environmentName} — a protected environment it is not allowed to deploy to, a protected ref it may not push or merge to, or a role below Developer.`,
      {
        ...extra,
        hint: `Allow the rollback token's user to deploy to ${environmentName} (Settings → CI/CD → Protected environments) or use a token of someone who may.`,
      },
    );
  if (response.status === 404)
    throw failure(
      'DEPLOYMENT_NOT_FOUND',
      `GitLab (${instance.host}) has no job ${jobId} in ${projectPath} for the rollback token's user.`,
      {
        ...extra,
        hint: "Make the rollback token's user a Developer (or above) of the project.",
      },
    );
  throw failure(
    'UPSTREAM_ERROR',
    `GitLab (${instance.host}) answered the retry of job ${jobId} with HTTP ${
      response.status
    }${said ? `: ${said}` : ''}.`,
    {
      ...extra,
      hint: 'The retry was sent once and not repeated: check the pipeline in GitLab before trying again.',
    },
  );
}
