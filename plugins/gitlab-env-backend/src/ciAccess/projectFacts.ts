import { SharedReadCache } from '../caching/sharedCache';
import { GitlabInstanceConfig } from '../config';
import { GitlabEnvTransport } from '../transport';

/** What CI access needs of the entity's project besides its environments. */
export interface ProjectFacts {
  defaultBranch: string;
  /** Undefined when the token may not list them. */
  protectedBranches?: string[];
}

/**
 * The project's default and protected branches, through the shared
 * transport's REST client, cached in the plugin's read cache.
 */
export async function readProjectFacts(
  transport: GitlabEnvTransport,
  cache: SharedReadCache,
  instance: GitlabInstanceConfig,
  fullPath: string,
): Promise<ProjectFacts> {
  const rest = transport.rest(instance);
  const [project, protectedBranches] = await Promise.all([
    cache.getOrLoad(
      `ci-project|${instance.host}|${fullPath}`,
      async () => (await rest.project(fullPath)) ?? null,
    ),
    cache.getOrLoad(
      `ci-protected|${instance.host}|${fullPath}`,
      async () => (await rest.protectedBranches(fullPath)) ?? null,
    ),
  ]);
  return {
    defaultBranch: project?.defaultBranch ?? 'main',
    ...(protectedBranches && { protectedBranches }),
  };
}
