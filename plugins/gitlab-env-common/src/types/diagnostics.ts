import { GitlabEnvError } from './errors';

/** How the backend found an instance's KAS proxy URL. @public */
export type KasUrlSource =
  /** gitlabEnv.instances[].kasProxyUrl */
  | 'configured'
  /** GitLab's metadata `kas.externalK8sProxyUrl` (GitLab 17.6 and later) */
  | 'metadata'
  /** derived from `kas.externalUrl` (before 17.6), as glab does */
  | 'derived'
  /** KAS is disabled on the instance, or the metadata could not be read */
  | 'none';

/** What the backend knows about the configured token. @public */
export interface TokenDiagnostics {
  /** The token's name in GitLab, when it could be read. */
  name?: string;
  scopes: string[];
  /** ISO date; absent when the token does not expire or could not be read. */
  expiresAt?: string;
  /** Scopes the plugin needs that the token lacks. */
  missingScopes: string[];
  /** Why GitLab does not accept the token, when it does not. */
  problem?: GitlabEnvError;
}

/** An agent the backend met while reading environments. @public */
export interface AgentDiagnostics {
  id: string;
  name: string;
  configProject?: string;
  /** The outcome of the latest read through it: `ok` or an error code. */
  lastResult: string;
  lastSeenAt: string;
}

/** A recent failure, newest first. @public */
export interface RecentFailure {
  at: string;
  error: GitlabEnvError;
  /** The project, environment or agent concerned, when known. */
  context?: string;
}

/** One configured GitLab instance, as the diagnostics view shows it. @public */
export interface InstanceDiagnostics {
  host: string;
  baseUrl: string;
  /** GitLab's version, e.g. `17.5.3-ee`; absent when it could not be read. */
  version?: string;
  /** True when the version is below the plugin's minimum (16.4). */
  versionUnsupported?: boolean;
  kas: { enabled: boolean; url?: string; source: KasUrlSource };
  token: TokenDiagnostics;
  /** When the instance was last checked (ISO). */
  checkedAt?: string;
  /** Why the check itself failed, when it did. */
  checkError?: GitlabEnvError;
  agents: AgentDiagnostics[];
  recentFailures: RecentFailure[];
}

/** `GET /diagnostics` @public */
export interface DiagnosticsResponse {
  /** The lowest GitLab version the plugin supports. */
  minimumGitlabVersion: string;
  instances: InstanceDiagnostics[];
}
