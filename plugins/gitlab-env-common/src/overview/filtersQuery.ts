import {
  DEPLOYMENT_TIERS,
  DeploymentTier,
  HEALTH_STATUSES,
  HealthStatus,
} from '../types';
import { OverviewFilters } from './types';

const LIST_PARAMS = {
  tiers: 'tier',
  folders: 'folder',
  owners: 'owner',
  systems: 'system',
  health: 'health',
} as const;

/**
 * Reads filters from a URL query string, so a filtered view can be shared
 * as a link. Repeated parameters and comma-separated values both work;
 * unknown tiers and health statuses are dropped.
 *
 * @public
 */
export function parseOverviewFilters(query: string): OverviewFilters {
  const params = new URLSearchParams(query);
  const list = (name: string) =>
    params
      .getAll(name)
      .flatMap(value => value.split(','))
      .map(value => value.trim())
      .filter(Boolean);
  const filters: OverviewFilters = {
    tiers: list(LIST_PARAMS.tiers).filter((tier): tier is DeploymentTier =>
      (DEPLOYMENT_TIERS as readonly string[]).includes(tier),
    ),
    folders: list(LIST_PARAMS.folders),
    owners: list(LIST_PARAMS.owners),
    systems: list(LIST_PARAMS.systems),
    health: list(LIST_PARAMS.health).filter((status): status is HealthStatus =>
      (HEALTH_STATUSES as readonly string[]).includes(status),
    ),
    text: params.get('q')?.trim() || undefined,
  };
  return Object.fromEntries(
    Object.entries(filters).filter(([, value]) =>
      Array.isArray(value) ? value.length > 0 : value !== undefined,
    ),
  ) as OverviewFilters;
}

/** Writes filters as a query string (without `?`), the inverse of parseOverviewFilters. @public */
export function formatOverviewFilters(filters: OverviewFilters): string {
  const params = new URLSearchParams();
  for (const [key, name] of Object.entries(LIST_PARAMS)) {
    const values = filters[key as keyof typeof LIST_PARAMS] as
      | string[]
      | undefined;
    if (values?.length) params.set(name, values.join(','));
  }
  if (filters.text?.trim()) params.set('q', filters.text.trim());
  return params.toString();
}
