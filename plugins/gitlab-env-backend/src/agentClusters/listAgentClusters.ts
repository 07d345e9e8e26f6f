import {
  GitlabAgentRef,
  GitlabEnvError,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { GitlabEnvConfig, GitlabInstanceConfig } from '../config';
import { asGitlabEnvError, GitlabEnvFailure } from '../errors';
import { GitlabEnvTransport } from '../transport';
import { InstanceFacts, tokenFailure } from '../transport/InstanceProbe';
import {
  connectionRefusal,
  connectionStateOf,
} from '../locating/agentConnection';

/**
 * A GitLab agent for Kubernetes the configured token may use: a cluster
 * whose Kubernetes API is reached through KAS with
 * `Authorization: Bearer pat:<agent id>:<token>`.
 *
 * @public
 */
export interface GitlabAgentCluster {
  /** The instance, as named under `gitlabEnv.instances[].host`. */
  host: string;
  /** The agent: its id (the one KAS takes), name, page and configuration project. */
  agent: GitlabAgentRef;
  /** KAS's Kubernetes API proxy, without a trailing slash; API paths follow it. */
  kasProxyUrl: string;
  /**
   * The agent's connection when it was listed: `connected` (KAS let the
   * token through to it), `notConnected` (GitLab says agentk is not or
   * never was connected, and KAS was not asked; or KAS let the token
   * through but found no agentk tunnel), or `unknown` (the check failed;
   * `errors` says why).
   */
  connection: 'connected' | 'notConnected' | 'unknown';
}

/**
 * What GitlabAgentClustersService.listAgentClusters answers.
 *
 * @public
 */
export interface GitlabAgentClusterList {
  /** The agents the token may use, in the order GitLab listed them. */
  clusters: GitlabAgentCluster[];
  /**
   * Why an instance or an agent is missing or may not answer, with the same
   * codes, messages and hints as the gitlab-env plugin's own reads
   * (`TOKEN_SCOPE_MISSING`, `GITLAB_VERSION_UNSUPPORTED`, `AGENT_NOT_SHARED`,
   * `AGENT_NOT_CONNECTED`, ...).
   */
  errors: Array<GitlabEnvError & { host: string; agent?: string }>;
}

/**
 * Asks KAS whether the token may use a connected agent (`GET /version`):
 * KAS authorizes the token before it looks for the agent's tunnel, so a
 * 502 still means "allowed"; only a refusal leaves the agent out.
 */
async function checkAgent(
  transport: GitlabEnvTransport,
  instance: GitlabInstanceConfig,
  facts: InstanceFacts,
  agent: GitlabAgentRef,
  signal?: AbortSignal,
): Promise<{ cluster?: GitlabAgentCluster; error?: GitlabEnvError }> {
  const kasProxyUrl = transport.kasProxyUrlOf(instance, facts);
  const cluster = (connection: GitlabAgentCluster['connection']) => ({
    host: instance.host,
    agent,
    kasProxyUrl,
    connection,
  });
  try {
    await transport.kas(instance, facts, agent, signal).get('/version');
    return { cluster: cluster('connected') };
  } catch (error) {
    const detail = asGitlabEnvError(error);
    if (detail.code === 'AGENT_NOT_SHARED')
      // The read path's words name an environment; here there is none.
      return {
        error: {
          ...detail,
          message: `KAS does not let the configured token use agent ${
            agent.name
          }${
            agent.configProject ? ` (${agent.configProject})` : ''
          }: its user_access does not cover the token's user.`,
        },
      };
    return {
      cluster: cluster(
        detail.code === 'AGENT_NOT_CONNECTED' ? 'notConnected' : 'unknown',
      ),
      error: detail,
    };
  }
}

async function listInstance(
  transport: GitlabEnvTransport,
  instance: GitlabInstanceConfig,
  signal?: AbortSignal,
): Promise<GitlabAgentClusterList> {
  const { host } = instance;
  const errors: GitlabAgentClusterList['errors'] = [];
  const facts = await transport.usableInstance(instance);
  const scope = tokenFailure(host, facts, 'k8s_proxy');
  if (scope) throw scope;
  const listed = await transport
    .gitlab(instance, { signal, version: facts.version })
    .userAccessAgents()
    .catch(error => transport.explainGitlabFailure(instance, error));
  errors.push(...listed.warnings.map(w => ({ ...w, host })));
  if (listed.agents.length === 0) return { clusters: [], errors };
  // The KAS URL the instance check found (or the configured one): the
  // same rule as every read of the plugin.
  const kasProxyUrl = transport.kasProxyUrlOf(instance, facts);
  const now = Date.now();
  const checked = await Promise.all(
    listed.agents.map(({ activity, ...agent }) => {
      // GitLab says agentk is not connected (as the reads decide it):
      // asking KAS would hold the request for its whole tunnel search
      // (20 s) to say the same.
      const refusal = connectionRefusal(
        connectionStateOf(activity, now),
        agent,
        now,
      );
      return refusal
        ? {
            cluster: {
              host: instance.host,
              agent,
              kasProxyUrl,
              connection: 'notConnected' as const,
            },
            error: refusal.detail,
          }
        : checkAgent(transport, instance, facts, agent, signal);
    }),
  );
  const clusters: GitlabAgentCluster[] = [];
  checked.forEach(({ cluster, error }, i) => {
    if (cluster) clusters.push(cluster);
    if (error) errors.push({ ...error, host, agent: listed.agents[i].name });
  });
  return { clusters, errors };
}

/**
 * Every agent the configured token of each instance may use through KAS:
 * the agents shared through `user_access` with the token user's projects,
 * kept when KAS lets the token through. An instance that cannot be used
 * (no token, a token without `k8s_proxy`, GitLab below 16.4, KAS off)
 * contributes its failure instead of clusters; the others still answer.
 */
export async function listAgentClusters(
  config: Pick<GitlabEnvConfig, 'instances'>,
  transport: GitlabEnvTransport,
  options: { signal?: AbortSignal } = {},
): Promise<GitlabAgentClusterList> {
  const results = await Promise.all(
    config.instances.map(instance =>
      listInstance(transport, instance, options.signal).catch(
        (error): GitlabAgentClusterList => ({
          clusters: [],
          errors: [
            {
              ...(error instanceof GitlabEnvFailure
                ? error.detail
                : asGitlabEnvError(error)),
              host: instance.host,
            },
          ],
        }),
      ),
    ),
  );
  return {
    clusters: results.flatMap(r => r.clusters),
    errors: results.flatMap(r => r.errors),
  };
}
