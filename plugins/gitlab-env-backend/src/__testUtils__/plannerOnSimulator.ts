import { mockServices } from '@backstage/backend-test-utils';
import { LoggerService } from '@backstage/backend-plugin-api';
import { ConfigReader } from '@backstage/config';
import { DEMO_TOKEN, RunningSimulator } from '@gitlab-env/gitlab-simulator';
import { readGitlabEnvConfig } from '../config';
import { LivePlanner } from '../planning';
import { GitlabEnvironmentsService } from '../facade';

/** The service and live planner alone (no router) on the simulator, with these live settings. */
export function plannerOnSimulator(
  simulator: RunningSimulator,
  live: Record<string, number>,
  logger: LoggerService = mockServices.logger.mock(),
) {
  const config = readGitlabEnvConfig(
    new ConfigReader({
      gitlabEnv: {
        instances: [
          {
            host: 'gitlab.example.com',
            baseUrl: simulator.url,
            token: DEMO_TOKEN,
          },
        ],
        live,
      },
    }),
  );
  const service = new GitlabEnvironmentsService(config, logger);
  const planner = new LivePlanner(
    config.live,
    { maxObjects: 1000, maxPagesPerList: 10 },
    { enabled: true, minNamespaces: 3 },
    logger,
  );
  return { service, planner };
}
