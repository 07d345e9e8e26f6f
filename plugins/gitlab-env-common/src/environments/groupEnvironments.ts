import { DEPLOYMENT_TIERS, GitlabEnvironment } from '../types';

/** Environments of one folder, or one environment without a folder. @public */
export interface EnvironmentGroup {
  /** GitLab's environment folder (`review` of `review/feature-x`), if any. */
  folder?: string;
  environments: GitlabEnvironment[];
}

/**
 * Orders environments the way people scan them, production first, then by
 * tier and name, and gathers the ones of one folder together (placed where
 * their most important member would be).
 *
 * @public
 */
export function groupEnvironments(
  environments: readonly GitlabEnvironment[],
): EnvironmentGroup[] {
  const sorted = [...environments].sort(compareEnvironments);
  const groups: EnvironmentGroup[] = [];
  const byFolder = new Map<string, EnvironmentGroup>();
  for (const environment of sorted) {
    const folder = environmentFolder(environment);
    if (!folder) {
      groups.push({ environments: [environment] });
      continue;
    }
    let group = byFolder.get(folder);
    if (!group) {
      group = { folder, environments: [] };
      byFolder.set(folder, group);
      groups.push(group);
    }
    group.environments.push(environment);
  }
  return groups;
}

/** Production first, then by tier and name (numbers in names compare as numbers). @public */
export function compareEnvironments(
  a: GitlabEnvironment,
  b: GitlabEnvironment,
): number {
  return (
    tierRank(a) - tierRank(b) ||
    a.name.localeCompare(b.name, 'en', { numeric: true })
  );
}

function tierRank(environment: GitlabEnvironment): number {
  const rank = DEPLOYMENT_TIERS.indexOf(environment.tier);
  return rank < 0 ? DEPLOYMENT_TIERS.length : rank;
}

/**
 * GitLab's environment folder: its environment type, else the name before
 * the first `/` (`review` of `review/feature-x`); undefined when it has none.
 * The entity tab and the overview both group by it.
 *
 * @public
 */
export function environmentFolder(
  environment: GitlabEnvironment,
): string | undefined {
  if (environment.folder) return environment.folder;
  const slash = environment.name.indexOf('/');
  return slash > 0 ? environment.name.slice(0, slash) : undefined;
}

/** The name without its folder, for a card inside the folder's group. @public */
export function nameInFolder(environment: GitlabEnvironment): string {
  const folder = environmentFolder(environment);
  return folder && environment.name.startsWith(`${folder}/`)
    ? environment.name.slice(folder.length + 1)
    : environment.name;
}
