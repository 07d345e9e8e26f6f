import { GitlabEnvConfig, GitlabInstanceConfig } from '../config';
import { CoalescingCache } from '../caching/cache';
import { instanceOf } from '../locating/EnvironmentLocator';
import { GitlabEnvTransport } from '../transport';
import { GitlabRestClient } from '../transport/gitlabRest';
import { isRecord } from '../validation/json';

/** How long what GitLab says about the rollback token is kept. */
const TOKEN_CHECK_TTL_MS = 10 * 60_000;
/** Comparisons and merge request links of a deployment do not change. */
const HISTORY_TTL_MS = 10 * 60_000;

/** Whether GitLab rollbacks can run on an instance, and why not. */
export interface RollbackReadiness {
  configured: boolean;
  reason?: string;
}

/**
 * The GitLab clients the history routes use, on the plugin's transport
 * (its concurrency budgets), and a cache for what does not change: a
 * comparison of two commits, a deployment's merge requests, the rollback
 * token's scopes.
 */
export class GitlabAccess {
  readonly cache = new CoalescingCache({
    ttlMs: HISTORY_TTL_MS,
    failureTtlMs: () => 5_000,
    valueTtlMs: () => HISTORY_TTL_MS,
    deadlineMs: 30_000,
  });

  constructor(
    private readonly config: GitlabEnvConfig,
    readonly transport: GitlabEnvTransport,
  ) {}

  instance(host: string): GitlabInstanceConfig {
    return instanceOf(this.config, host);
  }

  /** The instance's REST client, its requests carrying `signal` (a call's, with its deadline). */
  rest(instance: GitlabInstanceConfig, signal?: AbortSignal): GitlabRestClient {
    return this.transport.rest(instance, signal);
  }

  /**
   * Kept for HISTORY_TTL_MS: `read` reads what a commit or deployment id
   * fixes, through a client of its own: callers share the read, so it
   * carries the cache's signal (aborted once every caller left), while each
   * caller stops waiting when its own `signal` aborts.
   */
  cached<T>(
    instance: GitlabInstanceConfig,
    key: string,
    read: (rest: GitlabRestClient) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    return this.cache.getOrLoad(
      key,
      loadSignal => read(this.rest(instance, loadSignal)),
      { signal },
    );
  }

  /**
   * Whether the instance has a rollback token that may run jobs: set, and
   * with the `api` scope as GitLab says (`GET /personal_access_tokens/self`;
   * when GitLab does not say, the retry itself will).
   */
  rollbackReadiness(
    instance: GitlabInstanceConfig,
  ): Promise<RollbackReadiness> {
    const token = instance.rollbackToken;
    if (!token)
      return Promise.resolve({
        configured: false,
        reason: `GitLab rollbacks are not set up for ${instance.host}: gitlabEnv.instances[].rollbackToken (a token with the api scope that may deploy) is not configured.`,
      });
    return this.cache.getOrLoad(
      `rollback-token|${instance.host}`,
      async (): Promise<RollbackReadiness> => {
        const response = await this.rest(instance)
          .send('/personal_access_tokens/self', { token, anyStatus: true })
          .catch(() => undefined);
        if (response?.status === 401)
          return {
            configured: false,
            reason: `GitLab (${instance.host}) rejects the rollback token: it is unknown, expired or revoked.`,
          };
        const scopes =
          response?.status === 200 &&
          isRecord(response.body) &&
          Array.isArray(response.body.scopes)
            ? (response.body.scopes as unknown[])
            : undefined;
        if (scopes && !scopes.includes('api'))
          return {
            configured: false,
            reason: `The rollback token of ${
              instance.host
            } has the scopes ${scopes.join(', ')}; re-running a job needs api.`,
          };
        return { configured: true };
      },
      { ttlMs: TOKEN_CHECK_TTL_MS },
    );
  }
}
