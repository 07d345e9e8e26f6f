import {
  coreServices,
  createServiceFactory,
  createServiceRef,
} from '@backstage/backend-plugin-api';
import { readGitlabEnvConfig } from '../config';
import { GitlabEnvTransport, SharedTransport } from './SharedTransport';

/**
 * The one transport of a backend, root-scoped: the gitlab-env plugin and
 * whatever other plugin's module reaches GitLab through this package (the
 * Kubernetes plugin's agent clusters) share its concurrency budgets, its
 * instance checks and its diagnostics. Internal: adopters use the narrow
 * services built on it.
 */
export const gitlabEnvTransportServiceRef =
  createServiceRef<GitlabEnvTransport>({
    id: 'gitlab-env.transport',
    scope: 'root',
    defaultFactory: async service =>
      createServiceFactory({
        service,
        deps: { config: coreServices.rootConfig },
        factory: ({ config }) =>
          new SharedTransport(readGitlabEnvConfig(config)),
      }),
  });
