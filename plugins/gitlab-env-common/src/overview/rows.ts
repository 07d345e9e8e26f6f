import { environmentFolder } from '../environments';
import { aggregateHealth, compareHealth } from '../health';
import {
  DEPLOYMENT_TIERS,
  DeploymentTier,
  HEALTH_STATUSES,
  HealthStatus,
} from '../types';
import {
  OverviewFilters,
  OverviewHealthLine,
  OverviewRow,
  OverviewTierGroup,
} from './types';

/**
 * A row's status: its environment's rolled-up health, Unknown when nothing
 * could be read (so failed rows sort with the worst), or undefined while the
 * read is pending (so waiting is never mistaken for a problem).
 *
 * @public
 */
export function overviewRowStatus(row: OverviewRow): HealthStatus | undefined {
  if (row.pending) return undefined;
  return row.health?.status ?? 'Unknown';
}

/** The worst of the known statuses; undefined when none is known yet. */
function rollUp(
  statuses: Array<HealthStatus | undefined>,
): HealthStatus | undefined {
  return statuses.some(Boolean) ? aggregateHealth(statuses) : undefined;
}

/** Pending rows after every settled one, whatever their eventual health. */
function compareStatuses(
  a: HealthStatus | undefined,
  b: HealthStatus | undefined,
): number {
  if (a && b) return compareHealth(a, b);
  return Number(!a) - Number(!b);
}

/** The key that ties a health line to its row. @public */
export function overviewRowKey(row: OverviewRow): string {
  return `${row.entityRef}|${row.environment?.id ?? ''}`;
}

/**
 * Settles the pending row a health line is about; other rows are kept as
 * they are (same objects), and an unknown row leaves the list unchanged.
 *
 * @public
 */
export function applyOverviewHealth(
  rows: OverviewRow[],
  line: OverviewHealthLine,
): OverviewRow[] {
  const key = `${line.entityRef}|${line.environmentId}`;
  const index = rows.findIndex(row => overviewRowKey(row) === key);
  if (index < 0) return rows;
  const settled: OverviewRow = {
    ...rows[index],
    health: line.health,
    errors: [...rows[index].errors, ...line.errors],
    pending: false,
  };
  return [...rows.slice(0, index), settled, ...rows.slice(index + 1)];
}

/** The tier a row is grouped under; rows with no environment go to `other`. @public */
export function overviewRowTier(row: OverviewRow): DeploymentTier {
  return row.environment?.tier ?? 'other';
}

/**
 * The folder a row is grouped under, as the entity tab groups its cards
 * (`environmentFolder`), or '' for none. @public
 */
export function overviewRowFolder(row: OverviewRow): string {
  return (row.environment && environmentFolder(row.environment)) ?? '';
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
        filters.health.some(status => status === overviewRowStatus(row))) &&
      (!text || matchesText(row, text)),
  );
}

/** Worst health first (pending last), then entity, then environment name. @public */
export function compareOverviewRows(a: OverviewRow, b: OverviewRow): number {
  return (
    compareStatuses(overviewRowStatus(a), overviewRowStatus(b)) ||
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
        status: rollUp(folderRows.map(overviewRowStatus)),
      }))
      .sort(
        (a, b) =>
          compareStatuses(a.status, b.status) ||
          a.folder.localeCompare(b.folder),
      );
    return {
      tier,
      folders,
      status: rollUp(folders.map(f => f.status)),
    };
  });
}

/**
 * How many rows have each status, for the counts at the top of the page;
 * rows still pending are counted apart.
 *
 * @public
 */
export function countOverviewRows(
  rows: OverviewRow[],
): Record<HealthStatus | 'pending', number> {
  const counts = Object.fromEntries(
    [...HEALTH_STATUSES, 'pending'].map(status => [status, 0]),
  ) as Record<HealthStatus | 'pending', number>;
  for (const row of rows) counts[overviewRowStatus(row) ?? 'pending'] += 1;
  return counts;
}
