import { GitlabEnvironment, HealthStatus } from '../types';
import {
  applyOverviewHealth,
  compareOverviewRows,
  countOverviewRows,
  filterOverviewRows,
  groupOverviewRows,
  overviewRowFolder,
} from './rows';
import { OverviewRow } from './types';

function row(
  entity: string,
  env: Partial<GitlabEnvironment> & { name: string },
  status?: HealthStatus,
  extra: Partial<OverviewRow> = {},
): OverviewRow {
  const slash = env.name.indexOf('/');
  return {
    entityRef: `component:default/${entity}`,
    owner: 'group:default/team-web',
    system: 'system:default/shop',
    environment: {
      id: `gid://gitlab/Environment/${env.name}`,
      slug: env.name.replace(/\W/g, '-'),
      tier: 'production',
      state: 'available',
      folder: slash > 0 ? env.name.slice(0, slash) : undefined,
      ...env,
    },
    health: status
      ? {
          status,
          total: 1,
          counts: {
            Healthy: 0,
            Suspended: 0,
            Progressing: 0,
            Missing: 0,
            Degraded: 0,
            Unknown: 0,
            none: 0,
            [status]: 1,
          },
        }
      : undefined,
    errors: [],
    ...extra,
  };
}

const rows = [
  row(
    'storefront',
    { name: 'production/us-region', namespace: 'shop-us' },
    'Healthy',
  ),
  row('storefront', { name: 'production/eu-region' }, 'Degraded'),
  row('storefront', { name: 'staging', tier: 'staging' }, 'Progressing'),
  row('checkout-api', { name: 'production' }, 'Missing', {
    owner: 'group:default/team-payments',
  }),
  row(
    'notifications',
    { name: 'review/fix-42', tier: 'development' },
    undefined,
    {
      system: 'system:default/platform',
      errors: [{ code: 'AGENT_NOT_SHARED', message: 'no access' }],
    },
  ),
];

describe('groupOverviewRows', () => {
  it('orders tiers as GitLab does and puts the worst folder first', () => {
    const groups = groupOverviewRows(rows);
    expect(groups.map(g => g.tier)).toEqual([
      'production',
      'staging',
      'development',
    ]);
    const production = groups[0];
    expect(production.status).toBe('Degraded');
    expect(production.folders.map(f => [f.folder, f.status])).toEqual([
      ['production', 'Degraded'],
      ['', 'Missing'],
    ]);
    expect(production.folders[0].rows.map(r => r.environment?.name)).toEqual([
      'production/eu-region',
      'production/us-region',
    ]);
  });

  it('counts a row that could not be read as Unknown', () => {
    expect(groupOverviewRows(rows)[2].status).toBe('Unknown');
    expect(countOverviewRows(rows)).toEqual({
      Healthy: 1,
      Suspended: 0,
      Progressing: 1,
      Missing: 1,
      Degraded: 1,
      Unknown: 1,
      pending: 0,
    });
  });
});

describe('rows whose health is still being read', () => {
  const pending = row('billing', { name: 'production' }, undefined, {
    pending: true,
  });
  const withPending = [...rows, pending];

  it('sort after every settled row and never count as a health', () => {
    const sorted = [...withPending].sort(compareOverviewRows);
    expect(sorted.at(-1)).toBe(pending);
    expect(countOverviewRows(withPending)).toMatchObject({
      Unknown: 1,
      pending: 1,
    });
    expect(
      filterOverviewRows(withPending, { health: ['Unknown'] }).map(
        r => r.entityRef,
      ),
    ).toEqual(['component:default/notifications']);
  });

  it('leave a group without a status until one of its rows settles', () => {
    const [production] = groupOverviewRows([pending]);
    expect(production.status).toBeUndefined();
    expect(production.folders[0].status).toBeUndefined();
  });

  it('settle in place when their health line arrives', () => {
    const health = rows[0].health;
    const settled = applyOverviewHealth(withPending, {
      type: 'health',
      entityRef: pending.entityRef,
      environmentId: pending.environment!.id,
      health,
      errors: [{ code: 'KIND_FORBIDDEN', message: 'no', resource: 'secrets' }],
    });
    expect(settled).toHaveLength(withPending.length);
    expect(settled.slice(0, -1)).toEqual(rows);
    expect(settled.at(-1)).toMatchObject({
      pending: false,
      health,
      errors: [{ code: 'KIND_FORBIDDEN' }],
    });
    expect(
      applyOverviewHealth(withPending, {
        type: 'health',
        entityRef: 'component:default/gone',
        environmentId: 'x',
        errors: [],
      }),
    ).toBe(withPending);
  });
});

describe('filterOverviewRows', () => {
  const names = (filtered: OverviewRow[]) =>
    filtered.map(r => `${r.entityRef.split('/')[1]}:${r.environment?.name}`);

  it('groups by the folder the entity tab uses, from the name when GitLab sends none', () => {
    const named = {
      ...rows[0],
      environment: {
        ...rows[0].environment!,
        name: 'review/feature-x',
        folder: undefined,
      },
    };
    expect(overviewRowFolder(named)).toBe('review');
    expect(overviewRowFolder({ ...rows[0], environment: undefined })).toBe('');
  });

  it('filters to one environment path inside a folder', () => {
    expect(
      names(filterOverviewRows(rows, { folders: ['production/us-region'] })),
    ).toEqual(['storefront:production/us-region']);
    expect(
      names(filterOverviewRows(rows, { folders: ['production'] })),
    ).toEqual([
      'storefront:production/us-region',
      'storefront:production/eu-region',
    ]);
  });

  it('combines tier, owner, system, health and free text', () => {
    expect(names(filterOverviewRows(rows, { tiers: ['staging'] }))).toEqual([
      'storefront:staging',
    ]);
    expect(
      names(
        filterOverviewRows(rows, { owners: ['group:default/team-payments'] }),
      ),
    ).toEqual(['checkout-api:production']);
    expect(
      names(filterOverviewRows(rows, { systems: ['system:default/platform'] })),
    ).toEqual(['notifications:review/fix-42']);
    expect(
      names(filterOverviewRows(rows, { health: ['Unknown', 'Missing'] })),
    ).toEqual(['checkout-api:production', 'notifications:review/fix-42']);
    expect(names(filterOverviewRows(rows, { text: 'SHOP-US' }))).toEqual([
      'storefront:production/us-region',
    ]);
    expect(
      names(
        filterOverviewRows(rows, {
          tiers: ['production'],
          health: ['Healthy'],
        }),
      ),
    ).toEqual(['storefront:production/us-region']);
  });

  it('keeps everything when no filter is set', () => {
    expect(filterOverviewRows(rows, {})).toHaveLength(rows.length);
  });
});

describe('compareOverviewRows', () => {
  it('sorts worst health first, then by entity and environment', () => {
    const sorted = [...rows].sort(compareOverviewRows);
    expect(sorted.map(r => r.health?.status ?? 'none')).toEqual([
      'none',
      'Degraded',
      'Missing',
      'Progressing',
      'Healthy',
    ]);
  });
});
