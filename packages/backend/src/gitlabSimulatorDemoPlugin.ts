import {
  coreServices,
  createBackendPlugin,
} from '@backstage/backend-plugin-api';
import { startGitlabSimulator } from '@gitlab-env/gitlab-simulator';

/**
 * Runs the GitLab + KAS simulator inside the demo backend when
 * `gitlabSimulator.enabled` is true (the default app-config), so the portal
 * works with no GitLab reachable. Adopters never install this: it lives in
 * the demo backend package, not in the plugins.
 */
export const gitlabSimulatorDemoPlugin = createBackendPlugin({
  pluginId: 'gitlab-simulator',
  register(env) {
    env.registerInit({
      deps: {
        config: coreServices.rootConfig,
        logger: coreServices.logger,
        lifecycle: coreServices.rootLifecycle,
      },
      async init({ config, logger, lifecycle }) {
        if (!config.getOptionalBoolean('gitlabSimulator.enabled')) {
          logger.info('GitLab simulator disabled (gitlabSimulator.enabled)');
          return;
        }
        const port = config.getOptionalNumber('gitlabSimulator.port') ?? 7008;
        const host =
          config.getOptionalString('gitlabSimulator.host') ?? '127.0.0.1';
        const simulator = await startGitlabSimulator({
          port,
          host,
          adminApi:
            config.getOptionalBoolean('gitlabSimulator.adminApi') ?? false,
          logger: {
            info: msg => logger.info(msg),
            warn: msg => logger.warn(msg),
          },
        });
        logger.info(
          `GitLab simulator serving GitLab at ${simulator.url} and KAS at ${simulator.kasProxyUrl}`,
        );
        lifecycle.addShutdownHook(() => simulator.close());
      },
    });
  },
});
