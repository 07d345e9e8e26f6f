import { aggregateHealth, compareHealth } from '../health';
import {
  DEPLOYMENT_TIERS,
  DeploymentTier,
  HEALTH_STATUSES,
  HealthStatus,
} from '../types';
import { OverviewFilters, OverviewRow, OverviewTierGroup } from './types';

/**
 * A row's status: its environment's rolled-up health, or Unknown when
 * nothing could be read, so failed rows sort with the worst.
 *
 * @public
 */
export function overviewRowStatus(row: OverviewRow): HealthStatus {
  if (row.health) return row.health.status;
  return 'Unknown';
}

/** The tier a row is grouped under; rows with no environment go to `other`. @public */
export function overviewRowTier(row: OverviewRow): DeploymentTier {
  return row.environment?.tier ?? 'other';
}

/** The folder a row is grouped under: GitLab's environment type, or ''. @public */
export function overviewRowFolder(row: OverviewRow): string {
  return row.environment?.folder ?? '';
}

/**
 * A folder filter value names a folder (`production`: its environments) or a
 * path inside one (`production/us-region`: that environment and below).
 */
function matchesFolder(row: OverviewRow, value: string): boolean {
  const name = row.environment?.name ?? '';
  if (!value.includes('/')) return overviewRowFolder(row) === value;
  return name === value || name.startsWith(`${value}/`);
}

function matchesText(row: OverviewRow, text: string): boolean {
  const haystack = [
    row.entityRef,
    row.entityTitle,
    row.project?.fullPath,
    row.environment?.name,
    row.environment?.agent?.name,
    row.environment?.namespace,
  ]
    .filter(Boolean)
    .join('\n')
    .toLocaleLowerCase('en-US');
  return haystack.includes(text.toLocaleLowerCase('en-US'));
}

/** The rows that pass every filter that is set. @public */
export function filterOverviewRows(
  rows: OverviewRow[],
  filters: OverviewFilters,
): OverviewRow[] {
  const text = filters.text?.trim();
  return rows.filter(
    row =>
      (!filters.tiers?.length ||
        filters.tiers.includes(overviewRowTier(row))) &&
      (!filters.folders?.length ||
        filters.folders.some(folder => matchesFolder(row, folder))) &&
      (!filters.owners?.length ||
        (row.owner !== undefined && filters.owners.includes(row.owner))) &&
      (!filters.systems?.length ||
        (row.system !== undefined && filters.systems.includes(row.system))) &&
      (!filters.health?.length ||
        filters.health.includes(overviewRowStatus(row))) &&
      (!text || matchesText(row, text)),
  );
}

/** Worst health first, then entity, then environment name. @public */
export function compareOverviewRows(a: OverviewRow, b: OverviewRow): number {
  return (
    compareHealth(overviewRowStatus(a), overviewRowStatus(b)) ||
    a.entityRef.localeCompare(b.entityRef) ||
    (a.environment?.name ?? '').localeCompare(b.environment?.name ?? '')
  );
}

/**
 * Rows grouped by tier in GitLab's order (production first), then by folder
 * with the worst folder first; rows inside sorted worst health first.
 *
 * @public
 */
export function groupOverviewRows(rows: OverviewRow[]): OverviewTierGroup[] {
  const byTier = new Map<DeploymentTier, Map<string, OverviewRow[]>>();
  for (const row of rows) {
    const tier = overviewRowTier(row);
    const folders = byTier.get(tier) ?? new Map<string, OverviewRow[]>();
    byTier.set(tier, folders);
    const folder = overviewRowFolder(row);
    folders.set(folder, [...(folders.get(folder) ?? []), row]);
  }
  return DEPLOYMENT_TIERS.filter(tier => byTier.has(tier)).map(tier => {
    const folders = [...byTier.get(tier)!.entries()]
      .map(([folder, folderRows]) => ({
        folder,
        rows: [...folderRows].sort(compareOverviewRows),
        status: aggregateHealth(folderRows.map(overviewRowStatus)),
      }))
      .sort(
        (a, b) =>
          compareHealth(a.status, b.status) || a.folder.localeCompare(b.folder),
      );
    return {
      tier,
      folders,
      status: aggregateHealth(folders.map(f => f.status)),
    };
  });
}

/** How many rows have each status, for the counts at the top of the page. @public */
export function countOverviewRows(
  rows: OverviewRow[],
): Record<HealthStatus, number> {
  const counts = Object.fromEntries(
    HEALTH_STATUSES.map(status => [status, 0]),
  ) as Record<HealthStatus, number>;
  for (const row of rows) counts[overviewRowStatus(row)] += 1;
  return counts;
}
