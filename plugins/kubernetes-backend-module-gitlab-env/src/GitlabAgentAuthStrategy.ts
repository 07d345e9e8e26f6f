import {
  AuthMetadata,
  AuthenticationStrategy,
  ClusterDetails,
  KubernetesCredential,
} from '@backstage/plugin-kubernetes-node';
import { GitlabAgentClustersService } from '@gitlab-env/backstage-plugin-gitlab-env-backend';
import {
  GITLAB_AGENT_ID_METADATA,
  GITLAB_AGENT_METADATA,
  GITLAB_INSTANCE_METADATA,
} from './authMetadata';

/**
 * Credentials for a cluster behind a GitLab agent: KAS's
 * `pat:<agent id>:<token>` bearer on the instance's configured token, made
 * on the server for each request (the Kubernetes plugin's fetcher and its
 * proxy). The browser sees the instance and the agent, never the token.
 */
export class GitlabAgentAuthStrategy implements AuthenticationStrategy {
  constructor(private readonly agentClusters: GitlabAgentClustersService) {}

  async getCredential(cluster: ClusterDetails): Promise<KubernetesCredential> {
    return {
      type: 'bearer token',
      token: this.agentClusters.kasBearerToken({
        host: cluster.authMetadata[GITLAB_INSTANCE_METADATA],
        agentId: cluster.authMetadata[GITLAB_AGENT_ID_METADATA],
      }),
    };
  }

  validateCluster(authMetadata: AuthMetadata): Error[] {
    return [GITLAB_INSTANCE_METADATA, GITLAB_AGENT_ID_METADATA]
      .filter(key => !authMetadata[key])
      .map(
        key =>
          new Error(
            `A cluster with auth provider gitlabAgent needs the ${key} auth metadata.`,
          ),
      );
  }

  presentAuthMetadata(authMetadata: AuthMetadata): AuthMetadata {
    return Object.fromEntries(
      [
        GITLAB_INSTANCE_METADATA,
        GITLAB_AGENT_ID_METADATA,
        GITLAB_AGENT_METADATA,
      ]
        .filter(key => authMetadata[key] !== undefined)
        .map(key => [key, authMetadata[key]]),
    );
  }
}
