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
 * transport's REST client, cached in the plugin's read cache: a caller
 * stops waiting when `signal` ends, the shared read when every caller left.
 */
export async function readProjectFacts(
  transport: GitlabEnvTransport,
  cache: SharedReadCache,
  instance: GitlabInstanceConfig,
  fullPath: string,
  signal?: AbortSignal,
): Promise<ProjectFacts> {
  const [project, protectedBranches] = await Promise.all([
    cache.getOrLoad(
      `ci-project|${instance.host}|${fullPath}`,
      async loadSignal =>
        (await transport.rest(instance, loadSignal).project(fullPath)) ?? null,
      { signal },
    ),
    cache.getOrLoad(
      `ci-protected|${instance.host}|${fullPath}`,
      async loadSignal =>
        (await transport
          .rest(instance, loadSignal)
          .protectedBranches(fullPath)) ?? null,
      { signal },
    ),
  ]);
  return {
    defaultBranch: project?.defaultBranch ?? 'main',
    ...(protectedBranches && { protectedBranches }),
  };
}
