import {
  GitlabEnvError,
  KasUrlSource,
  TokenDiagnostics,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { GitlabInstanceConfig } from '../config';
import { asGitlabEnvError, failure, GitlabEnvFailure } from '../errors';
import { requestUpstream, UpstreamResponse } from './http';
import { isRecord } from '../validation/json';
import {
  FIELD_SINCE,
  MINIMUM_GITLAB_VERSION,
  versionAtLeast,
} from './gitlabVersion';
import { deriveKasProxyUrl } from './kasProxyUrl';

/** What one check of an instance found: its version, KAS URL and token. */
export interface InstanceFacts {
  version?: string;
  kasEnabled: boolean;
  kasUrl?: string;
  kasSource: KasUrlSource;
  token: TokenDiagnostics;
  checkedAt: string;
  /** Why the instance's metadata could not be read. */
  checkError?: GitlabEnvError;
}

/** The scopes the plugin needs: GraphQL reads and the KAS Kubernetes API proxy. */
export const REQUIRED_SCOPES = ['read_api', 'k8s_proxy'];

/** A version rarely changes; a failure makes the next call check again. */
const FACTS_TTL_MS = 10 * 60_000;

type Limit = <T>(fn: () => Promise<T>) => Promise<T>;

const NEW_TOKEN_HINT =
  'Create a new token with the read_api and k8s_proxy scopes and put it in gitlabEnv.instances[].token.';

/** A token GitLab will not use any more: expired, or revoked. */
export function unusableToken(
  host: string,
  why: 'expired' | 'revoked',
): GitlabEnvFailure {
  return failure(
    why === 'expired' ? 'TOKEN_EXPIRED' : 'TOKEN_REVOKED',
    `The token configured for ${host} ${
      why === 'expired' ? 'has expired' : 'was revoked'
    }.`,
    { hint: NEW_TOKEN_HINT, upstreamStatus: 401 },
  );
}

/**
 * REST's refusals of a token it cannot use (`lib/api/api_guard.rb`): expired
 * and revoked tokens are OAuth `invalid_token` errors with their own texts;
 * an unknown token is a plain 401.
 */
function tokenRefusal(
  host: string,
  response: UpstreamResponse,
): GitlabEnvFailure | undefined {
  if (response.status !== 401) return undefined;
  const description = isRecord(response.body)
    ? String(response.body.error_description ?? '')
    : '';
  if (/expired/i.test(description)) return unusableToken(host, 'expired');
  if (/revoked/i.test(description)) return unusableToken(host, 'revoked');
  return failure(
    'GITLAB_UNAUTHORIZED',
    `GitLab (${host}) does not know the configured token.`,
    {
      hint: 'Check gitlabEnv.instances[].token: it must be a personal, project or group access token of this instance.',
      upstreamStatus: 401,
    },
  );
}

function scopeMissing(host: string, missing: string[]): GitlabEnvFailure {
  return failure(
    'TOKEN_SCOPE_MISSING',
    `The token configured for ${host} lacks the ${missing.join(' and ')} scope${
      missing.length > 1 ? 's' : ''
    }.`,
    {
      hint: 'Create a token with the read_api and k8s_proxy scopes (api alone does not let it through KAS) and put it in gitlabEnv.instances[].token.',
    },
  );
}

/** The store replicas share, as the probe uses it. */
export interface SharedFacts {
  get<T>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown, ttlMs: number): void;
}

/** The failure a token problem stands for, if the facts show one. */
export function tokenFailure(
  host: string,
  facts: InstanceFacts,
  scope?: string,
): GitlabEnvFailure | undefined {
  if (facts.token.problem) return new GitlabEnvFailure(facts.token.problem);
  const missing = facts.token.missingScopes.filter(
    s => scope === undefined || s === scope,
  );
  return missing.length ? scopeMissing(host, missing) : undefined;
}

/**
 * Checks an instance once and remembers: its version and KAS from
 * `GET /api/v4/metadata` (which gains `kas.externalK8sProxyUrl` in 17.6,
 * doc/api/metadata.md), and the token from `GET /api/v4/personal_access_tokens/self`
 * (its scopes, expiry; any token may read itself). Concurrent callers share
 * one check; a check that failed, or `invalidate()`, makes the next call
 * check again.
 */
export class InstanceProbe {
  private cached?: { facts: Promise<InstanceFacts>; until: number };
  private lastVersion?: string;
  /** The store replicas share: a check one made serves the others. */
  private shared?: SharedFacts;
  /** The next check asks GitLab, not the store: something contradicted the facts. */
  private recheck = false;

  constructor(
    private readonly instance: GitlabInstanceConfig,
    private readonly timeoutMs: number,
    private readonly limit: Limit,
    private readonly now: () => number = Date.now,
  ) {}

  /** Shares the facts of successful checks with other replicas through `store`. */
  shareThrough(store: SharedFacts) {
    this.shared = store;
  }

  facts(): Promise<InstanceFacts> {
    const now = this.now();
    if (this.cached && this.cached.until > now) return this.cached.facts;
    const facts = this.checkOrShared();
    this.cached = { facts, until: now + FACTS_TTL_MS };
    facts.then(
      result => {
        this.lastVersion = result.version ?? this.lastVersion;
        // A version below the floor is a fact like any other; failures are not.
        const failed =
          (result.checkError &&
            result.checkError.code !== 'GITLAB_VERSION_UNSUPPORTED') ||
          result.token.problem;
        if (failed) this.invalidate(facts);
      },
      () => this.invalidate(facts),
    );
    return facts;
  }

  /** The version the last check found, without waiting for a check. */
  knownVersion(): string | undefined {
    return this.lastVersion;
  }

  /** Forget the facts (after GitLab refused something they promised). */
  invalidate(only?: Promise<InstanceFacts>) {
    if (!only || this.cached?.facts === only) {
      this.cached = undefined;
      this.recheck = true;
    }
  }

  private async checkOrShared(): Promise<InstanceFacts> {
    const key = `instance|${this.instance.host}|${this.instance.baseUrl}`;
    const shared = this.recheck ? undefined : this.shared;
    this.recheck = false;
    const stored = await shared?.get<InstanceFacts>(key);
    if (stored) return stored;
    const facts = await this.check();
    if (!facts.checkError && !facts.token.problem)
      this.shared?.set(key, facts, FACTS_TTL_MS);
    return facts;
  }

  /** The version, when it is below the plugin's floor, as a failure. */
  static unsupported(host: string, version: string | undefined) {
    if (!version || versionAtLeast(version, MINIMUM_GITLAB_VERSION))
      return undefined;
    return failure(
      'GITLAB_VERSION_UNSUPPORTED',
      `GitLab (${host}) runs ${version}; the plugin needs GitLab ${MINIMUM_GITLAB_VERSION} or later.`,
      {
        hint: `Upgrade GitLab to ${MINIMUM_GITLAB_VERSION} or later: personal access tokens through KAS arrived in 16.4.`,
      },
    );
  }

  private get(path: string) {
    const { token } = this.instance;
    if (!token) {
      throw failure(
        'MISSING_TOKEN',
        `No token is configured for the GitLab instance ${this.instance.host}.`,
        {
          hint: 'Set gitlabEnv.instances[].token to a token with the read_api and k8s_proxy scopes.',
        },
      );
    }
    return this.limit(() =>
      requestUpstream({
        url: `${this.instance.apiBaseUrl}${path}`,
        headers: { authorization: `Bearer ${token}` },
        timeoutMs: this.timeoutMs,
        upstream: `GitLab (${this.instance.host})`,
      }),
    );
  }

  private async check(): Promise<InstanceFacts> {
    const { host } = this.instance;
    const [token, metadata] = await Promise.all([
      this.readToken(),
      this.readMetadata(),
    ]);
    const configured = this.instance.kasProxyUrl;
    return {
      ...metadata,
      ...(configured
        ? { kasUrl: configured, kasSource: 'configured' as const }
        : {}),
      token,
      checkedAt: new Date(this.now()).toISOString(),
      checkError:
        metadata.checkError ??
        InstanceProbe.unsupported(host, metadata.version)?.detail,
    };
  }

  private async readToken(): Promise<TokenDiagnostics> {
    const { host } = this.instance;
    let response: UpstreamResponse;
    try {
      response = await this.get('/personal_access_tokens/self');
    } catch (error) {
      // GitLab unreachable: nothing is known about the token, and reads will
      // say what failed; only a missing token is the token's problem.
      const detail = asGitlabEnvError(error);
      return {
        scopes: [],
        missingScopes: [],
        problem: detail.code === 'MISSING_TOKEN' ? detail : undefined,
      };
    }
    const refusal = tokenRefusal(host, response);
    if (refusal)
      return { scopes: [], missingScopes: [], problem: refusal.detail };
    if (response.status !== 200 || !isRecord(response.body)) {
      // Not a token this endpoint describes (e.g. an OAuth token): scopes unknown.
      return { scopes: [], missingScopes: [] };
    }
    const body = response.body;
    const scopes = Array.isArray(body.scopes) ? body.scopes.map(String) : [];
    const canReadApi = scopes.includes('api') || scopes.includes('read_api');
    const missingScopes = REQUIRED_SCOPES.filter(
      s => !scopes.includes(s) && !(s === 'read_api' && canReadApi),
    );
    const expiresAt =
      typeof body.expires_at === 'string' ? body.expires_at : undefined;
    return {
      name: typeof body.name === 'string' ? body.name : undefined,
      scopes,
      expiresAt,
      missingScopes,
      problem:
        body.revoked === true
          ? unusableToken(host, 'revoked').detail
          : undefined,
    };
  }

  private async readMetadata(): Promise<
    Pick<
      InstanceFacts,
      'version' | 'kasEnabled' | 'kasUrl' | 'kasSource' | 'checkError'
    >
  > {
    const { host } = this.instance;
    const none = { kasEnabled: false, kasSource: 'none' as const };
    let response: UpstreamResponse;
    try {
      response = await this.get('/metadata');
    } catch (error) {
      return { ...none, checkError: asGitlabEnvError(error) };
    }
    const refusal = tokenRefusal(host, response);
    if (refusal) return { ...none, checkError: refusal.detail };
    if (response.status === 403) {
      return { ...none, checkError: scopeMissing(host, ['read_api']).detail };
    }
    if (response.status !== 200 || !isRecord(response.body)) {
      return {
        ...none,
        checkError: failure(
          response.status >= 500 ? 'UPSTREAM_ERROR' : 'UPSTREAM_MALFORMED',
          `GitLab (${host}) answered its metadata with HTTP ${response.status}.`,
          { upstreamStatus: response.status },
        ).detail,
      };
    }
    const version =
      typeof response.body.version === 'string'
        ? response.body.version
        : undefined;
    const kas = isRecord(response.body.kas) ? response.body.kas : {};
    if (kas.enabled !== true) return { ...none, version };
    if (
      versionAtLeast(version, FIELD_SINCE.kasExternalK8sProxyUrl) &&
      typeof kas.externalK8sProxyUrl === 'string' &&
      kas.externalK8sProxyUrl
    ) {
      return {
        version,
        kasEnabled: true,
        kasUrl: kas.externalK8sProxyUrl,
        kasSource: 'metadata',
      };
    }
    const derived =
      typeof kas.externalUrl === 'string'
        ? deriveKasProxyUrl(kas.externalUrl)
        : undefined;
    return derived
      ? { version, kasEnabled: true, kasUrl: derived, kasSource: 'derived' }
      : { version, kasEnabled: true, kasSource: 'none' };
  }
}
