import { GitlabInstanceConfig } from '../config';
import { failure } from '../errors';
import type { Limit } from './concurrencyLimit';
import { requestUpstream, UpstreamRequest, UpstreamResponse } from './http';
import { isRecord } from '../validation/json';
import { isBranchName, isProjectPath } from '../validation/gitlabPaths';

/** Agent configuration files are small; refuse anything that is not. */
export const MAX_FILE_BYTES = 256 * 1024;
/**
 * Aliases a repository YAML file (agent configuration, template, GitOps
 * manifest) may expand, as the yaml package's default: enough for anchors,
 * not for a bomb.
 */
export const MAX_ALIAS_COUNT = 100;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** X-Gitlab-Size: the blob's size, sent with the headers of the files API's answers. */
function gitlabSize(headers: Headers): number | undefined {
  const size = Number(headers.get('x-gitlab-size') ?? Number.NaN);
  return Number.isSafeInteger(size) && size >= 0 ? size : undefined;
}
const MAX_PROTECTED_BRANCH_PAGES = 5;

export interface ProjectInfo {
  id: string;
  fullPath: string;
  defaultBranch: string;
}

/**
 * The GitLab REST reads CI access and the repository comparison need: a project's default branch, its
 * protected branches and repository files
 * (https://docs.gitlab.com/api/repository_files/#get-file-from-repository).
 */
export class GitlabRestClient {
  constructor(
    private readonly instance: GitlabInstanceConfig,
    private readonly timeoutMs: number,
    private readonly limit: Limit,
    /** What every request of the client carries unless one names its own: the caller's, with its deadline. */
    private readonly signal?: AbortSignal,
  ) {}

  private get(
    path: string,
    options: Pick<
      UpstreamRequest,
      'maxBytes' | 'declaredSize' | 'tooLarge' | 'rawBody'
    > = {},
  ): Promise<UpstreamResponse> {
    return this.send(path, options);
  }

  /**
   * One REST request, never retried, with the configured token (or
   * `token`). 401 and 5xx become typed failures unless `anyStatus` leaves
   * every status to the caller (a write whose refusals mean something).
   */
  async send(
    path: string,
    options: Pick<
      UpstreamRequest,
      'maxBytes' | 'declaredSize' | 'tooLarge' | 'rawBody' | 'signal'
    > & {
      method?: 'GET' | 'POST';
      body?: unknown;
      token?: string;
      anyStatus?: boolean;
    } = {},
  ): Promise<UpstreamResponse> {
    const { method, body, token: own, anyStatus, ...rest } = options;
    const token = own ?? this.instance.token;
    if (!token) {
      throw failure(
        'MISSING_TOKEN',
        `No token is configured for the GitLab instance ${this.instance.host}.`,
      );
    }
    const response = await this.limit(() =>
      requestUpstream({
        url: `${this.instance.apiBaseUrl}${path}`,
        method,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json',
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
        timeoutMs: this.timeoutMs,
        upstream: `GitLab (${this.instance.host})`,
        ...rest,
        signal: rest.signal ?? this.signal,
      }),
    );
    if (anyStatus) return response;
    if (response.status === 401) {
      throw failure(
        'GITLAB_UNAUTHORIZED',
        `GitLab (${this.instance.host}) rejected the configured token (HTTP 401).`,
        { upstreamStatus: 401 },
      );
    }
    if (response.status >= 500) {
      throw failure(
        'UPSTREAM_ERROR',
        `GitLab (${this.instance.host}) failed with HTTP ${response.status}.`,
        {
          upstreamStatus: response.status,
        },
      );
    }
    return response;
  }

  async project(fullPath: string): Promise<ProjectInfo | undefined> {
    if (!isProjectPath(fullPath))
      throw failure(
        'UPSTREAM_MALFORMED',
        `Invalid project path ${JSON.stringify(fullPath)}.`,
      );
    const response = await this.get(
      `/projects/${encodeURIComponent(fullPath)}`,
    );
    if (response.status === 404 || response.status === 403) return undefined;
    const body = response.body;
    if (
      response.status !== 200 ||
      !isRecord(body) ||
      typeof body.path_with_namespace !== 'string'
    ) {
      throw failure(
        'UPSTREAM_MALFORMED',
        `GitLab answered the project ${fullPath} with HTTP ${response.status} and no project.`,
      );
    }
    const defaultBranch = isBranchName(body.default_branch)
      ? body.default_branch
      : 'main';
    return {
      id: String(body.id),
      fullPath: body.path_with_namespace,
      defaultBranch,
    };
  }

  /** Protected branch names (they may hold `*` wildcards), bounded to a few pages. */
  async protectedBranches(fullPath: string): Promise<string[] | undefined> {
    const names: string[] = [];
    for (let page = 1; page <= MAX_PROTECTED_BRANCH_PAGES; page++) {
      const response = await this.get(
        `/projects/${encodeURIComponent(
          fullPath,
        )}/protected_branches?per_page=100&page=${page}`,
      );
      if (response.status === 403 || response.status === 404) return undefined;
      if (!Array.isArray(response.body)) {
        throw failure(
          'UPSTREAM_MALFORMED',
          'GitLab answered the protected branches with something that is not a list.',
        );
      }
      for (const item of response.body) {
        if (isRecord(item) && typeof item.name === 'string')
          names.push(item.name);
      }
      if (
        response.headers.get('x-next-page') === '' ||
        !response.headers.get('x-next-page')
      )
        break;
    }
    return names;
  }

  /**
   * A repository file's text at `ref`, read raw
   * (`GET …/repository/files/:path/raw`) and never more than MAX_FILE_BYTES
   * of it: a file GitLab says is larger (X-Gitlab-Size, in the headers
   * before the body) is refused unread, and a body that runs past the
   * bound without saying so is cut off there. `undefined` when GitLab
   * answers 404 File Not Found. A project the token cannot read fails with
   * AGENT_CONFIG_UNREADABLE.
   */
  async file(
    projectPath: string,
    filePath: string,
    ref: string,
  ): Promise<string | undefined> {
    const url = `/projects/${encodeURIComponent(
      projectPath,
    )}/repository/files/${encodeURIComponent(
      filePath,
    )}/raw?ref=${encodeURIComponent(ref)}`;
    const file = `${projectPath}: ${filePath}`;
    const response = await this.get(url, {
      rawBody: true,
      maxBytes: MAX_FILE_BYTES,
      declaredSize: gitlabSize,
      tooLarge: size =>
        failure(
          'AGENT_CONFIG_INVALID',
          `${file} has ${
            size === undefined ? 'more than' : size
          } bytes; at most ${MAX_FILE_BYTES} are read.`,
          {
            file,
            hint: `Keep ${filePath} under ${
              MAX_FILE_BYTES / 1024
            } KiB; GitLab's agent reads small configuration files only.`,
          },
        ),
    });
    const message = isRecord(response.body)
      ? String(response.body.message ?? response.body.error ?? '')
      : '';
    if (response.status === 404 && /File Not Found/i.test(message))
      return undefined;
    if (response.status === 404 || response.status === 403) {
      throw failure(
        'AGENT_CONFIG_UNREADABLE',
        `The configured token cannot read ${filePath} in ${projectPath} (GitLab: ${
          message || `HTTP ${response.status}`
        }).`,
        {
          upstreamStatus: response.status,
          hint: `Give the token's user the Reporter role (or above) on ${projectPath}.`,
        },
      );
    }
    if (response.status !== 200 || !response.bytes) {
      throw failure(
        'UPSTREAM_MALFORMED',
        `GitLab answered ${filePath} with HTTP ${response.status} and no file content.`,
      );
    }
    try {
      return utf8.decode(response.bytes);
    } catch {
      throw failure('AGENT_CONFIG_INVALID', `${file} is not UTF-8 text.`, {
        file,
        hint: `Save ${filePath} as UTF-8.`,
      });
    }
  }
}
