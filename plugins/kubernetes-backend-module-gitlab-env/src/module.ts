import {
  coreServices,
  createBackendModule,
} from '@backstage/backend-plugin-api';
import {
  KubernetesClustersSupplier,
  kubernetesAuthStrategyExtensionPoint,
  kubernetesClusterSupplierExtensionPoint,
} from '@backstage/plugin-kubernetes-node';
import { gitlabAgentClustersServiceRef } from '@gitlab-env/backstage-plugin-gitlab-env-backend';
import { GITLAB_AGENT_AUTH_PROVIDER } from './authMetadata';
import { builtInAuthStrategies } from './builtInAuthStrategies';
import { GitlabAgentAuthStrategy } from './GitlabAgentAuthStrategy';
import { GitlabAgentClusterSupplier } from './GitlabAgentClusterSupplier';

/** Both lists, side by side: the portal's configured clusters and the agents'. */
function combined(
  suppliers: KubernetesClustersSupplier[],
): KubernetesClustersSupplier {
  return {
    async getClusters(options) {
      const lists = await Promise.all(
        suppliers.map(s => s.getClusters(options)),
      );
      return lists.flat();
    },
  };
}

/**
 * Every GitLab agent for Kubernetes the configured token may use becomes a
 * cluster of the Kubernetes plugin, reached through KAS: the standard
 * Kubernetes tab, its pod logs and its proxy work for clusters behind the
 * agent with no kubeconfig and no service-account token. The clusters of
 * `kubernetes.clusterLocatorMethods`, when configured, stay beside them.
 *
 * @public
 */
export const kubernetesModuleGitlabEnv = createBackendModule({
  pluginId: 'kubernetes',
  moduleId: 'gitlab-env',
  register(env) {
    env.registerInit({
      deps: {
        clusterSuppliers: kubernetesClusterSupplierExtensionPoint,
        authStrategies: kubernetesAuthStrategyExtensionPoint,
        agentClusters: gitlabAgentClustersServiceRef,
        config: coreServices.rootConfig,
        logger: coreServices.logger,
      },
      async init({
        clusterSuppliers,
        authStrategies,
        agentClusters,
        config,
        logger,
      }) {
        for (const [key, strategy] of builtInAuthStrategies({
          logger,
          config,
        }))
          authStrategies.addAuthStrategy(key, strategy);
        authStrategies.addAuthStrategy(
          GITLAB_AGENT_AUTH_PROVIDER,
          new GitlabAgentAuthStrategy(agentClusters),
        );
        const settings = config.getOptionalConfig('gitlabEnv.kubernetes');
        const agents = new GitlabAgentClusterSupplier(agentClusters, {
          refreshIntervalMs:
            (settings?.getOptionalNumber('refreshIntervalSeconds') ?? 300) *
            1000,
          skipMetricsLookup:
            settings?.getOptionalBoolean('skipMetricsLookup') ?? false,
          logger,
        });
        clusterSuppliers.addClusterSupplier(async ({ getDefault }) =>
          config.has('kubernetes.clusterLocatorMethods')
            ? combined([await getDefault(), agents])
            : agents,
        );
      },
    });
  },
});
