import {
  coreServices,
  createServiceFactory,
  createServiceRef,
} from '@backstage/backend-plugin-api';
import { GitlabEnvConfig, readGitlabEnvConfig } from '../config';
import { failure } from '../errors';
import { GitlabEnvTransport, gitlabEnvTransportServiceRef } from '../transport';
import { isNumericId } from '../validation';
import { GitlabAgentClusterList, listAgentClusters } from './listAgentClusters';

/**
 * The GitLab agents for Kubernetes the configured tokens may use, as
 * clusters reached through KAS, for other plugins' modules (the Kubernetes
 * plugin's `@gitlab-env/backstage-plugin-kubernetes-backend-module-gitlab-env`).
 * It applies the gitlab-env plugin's own rules: the same `gitlabEnv`
 * configuration, token checks, GitLab version detection, KAS URL discovery
 * and error codes, over the same transport and budgets.
 *
 * @public
 */
export interface GitlabAgentClustersService {
  /** Lists the agents now (no cache: callers keep and refresh their own). */
  listAgentClusters(options?: {
    signal?: AbortSignal;
  }): Promise<GitlabAgentClusterList>;
  /**
   * The bearer token KAS takes for requests to one agent's cluster:
   * `pat:<agent id>:<token>`. Server-side only: never hand it to a browser.
   * Throws `UNKNOWN_INSTANCE`, `MISSING_TOKEN` or `INVALID_REQUEST` (as a
   * `GitlabEnvFailure`-shaped error) when it cannot be made.
   */
  kasBearerToken(cluster: { host: string; agentId: string }): string;
}

export class DefaultGitlabAgentClustersService
  implements GitlabAgentClustersService
{
  constructor(
    private readonly config: Pick<GitlabEnvConfig, 'instances'>,
    private readonly transport: GitlabEnvTransport,
  ) {}

  listAgentClusters(options: { signal?: AbortSignal } = {}) {
    return listAgentClusters(this.config, this.transport, options);
  }

  kasBearerToken({ host, agentId }: { host: string; agentId: string }) {
    const instance = this.config.instances.find(i => i.host === host);
    if (!instance) {
      throw failure(
        'UNKNOWN_INSTANCE',
        `No GitLab instance ${host} is configured under gitlabEnv.instances.`,
      );
    }
    if (!instance.token) {
      throw failure(
        'MISSING_TOKEN',
        `No token is configured for the GitLab instance ${host}.`,
        {
          hint: 'Set gitlabEnv.instances[].token to a token with the read_api and k8s_proxy scopes.',
        },
      );
    }
    if (!isNumericId(agentId)) {
      throw failure(
        'INVALID_REQUEST',
        `${JSON.stringify(agentId)} is not a GitLab agent id (a number).`,
      );
    }
    return `pat:${agentId}:${instance.token}`;
  }
}

/**
 * The service ref of GitlabAgentClustersService (root-scoped: one per
 * backend, on the transport the gitlab-env plugin uses).
 *
 * @public
 */
export const gitlabAgentClustersServiceRef =
  createServiceRef<GitlabAgentClustersService>({
    id: 'gitlab-env.agent-clusters',
    scope: 'root',
    defaultFactory: async service =>
      createServiceFactory({
        service,
        deps: {
          config: coreServices.rootConfig,
          transport: gitlabEnvTransportServiceRef,
        },
        factory: ({ config, transport }) =>
          new DefaultGitlabAgentClustersService(
            readGitlabEnvConfig(config),
            transport,
          ),
      }),
  });
