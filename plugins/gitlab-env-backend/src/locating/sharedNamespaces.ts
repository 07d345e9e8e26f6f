import {
  GitlabEnvironment,
  gitlabMarkers,
  GitlabMarkers,
  NamespaceNarrowing,
  parseFluxResourcePath,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { inventoryCommand, markersCommand } from './mappingCommands';

/** The GitLab markers of one environment of the project. */
export function markersOf(
  environment: GitlabEnvironment,
  project: { fullPath: string; id?: string },
): GitlabMarkers {
  return gitlabMarkers({
    projectPath: project.fullPath,
    environmentSlug: environment.slug,
    projectId: project.id,
    agentId: environment.agent?.id,
  });
}

/** Who else a namespace serves, as this environment's mapping tells. */
function sharers(
  environment: GitlabEnvironment,
  others: readonly GitlabEnvironment[],
  projectPath: string,
): string[] {
  const names = others.map(o => `environment ${o.name}`);
  const serves = (environment.namespaceSource?.serves ?? []).filter(
    s => s !== projectPath,
  );
  return [...names, ...serves];
}

/**
 * Environments whose namespace others share get how reads keep only their
 * own objects: by their Flux object's inventory when they have one, else by
 * their GitLab markers. A namespace is shared when another running
 * environment of the project maps to it through the same agent, when the
 * GitLabDeployment that maps it serves other projects or groups, and
 * always when it was found by label or inventory: such a namespace was
 * never dedicated to the environment.
 */
export function markSharedNamespaces(
  environments: GitlabEnvironment[],
  project: { fullPath: string; id?: string },
): GitlabEnvironment[] {
  const placeOf = (e: GitlabEnvironment) =>
    e.agent && e.namespace && e.state !== 'stopped'
      ? `${e.agent.id}|${e.namespace}`
      : undefined;
  const byPlace = new Map<string, GitlabEnvironment[]>();
  for (const environment of environments) {
    const place = placeOf(environment);
    if (!place) continue;
    const together = byPlace.get(place);
    if (together) together.push(environment);
    else byPlace.set(place, [environment]);
  }
  return environments.map(environment => {
    const place = placeOf(environment);
    const mapping = environment.namespaceSource;
    if (!place || !mapping) return environment;
    const others = byPlace.get(place)!.filter(o => o !== environment);
    const sharedWith = sharers(environment, others, project.fullPath);
    const notDedicated =
      mapping.source === 'label' || mapping.source === 'inventory';
    if (sharedWith.length === 0 && !notDedicated) return environment;
    const flux = environment.fluxResourcePath
      ? parseFluxResourcePath(environment.fluxResourcePath)
      : undefined;
    const narrowing: NamespaceNarrowing = {
      by: flux ? 'inventory' : 'label',
      sharedWith,
      ...(flux && {
        flux: { kind: flux.kind, namespace: flux.namespace, name: flux.name },
      }),
      markers: markersOf(environment, project),
      kubectl: flux
        ? inventoryCommand(
            `${flux.plural}.${flux.group}`,
            flux.name,
            flux.namespace,
          )
        : markersCommand(environment.namespace!),
    };
    return {
      ...environment,
      namespaceSource: { ...mapping, narrowing },
    };
  });
}
