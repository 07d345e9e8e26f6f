import { formatOverviewFilters, parseOverviewFilters } from './filtersQuery';

describe('overview filters in the URL', () => {
  it('round-trips every filter', () => {
    const filters = {
      tiers: ['production' as const, 'staging' as const],
      folders: ['production/us-region'],
      owners: ['group:default/team-web'],
      systems: ['system:default/shop'],
      health: ['Degraded' as const],
      text: 'checkout',
    };
    const query = formatOverviewFilters(filters);
    expect(query).toBe(
      'tier=production%2Cstaging&folder=production%2Fus-region&owner=group%3Adefault%2Fteam-web&system=system%3Adefault%2Fshop&health=Degraded&q=checkout',
    );
    expect(parseOverviewFilters(`?${query}`)).toEqual(filters);
  });

  it('accepts repeated parameters and drops values it does not know', () => {
    expect(
      parseOverviewFilters(
        'tier=production&tier=bogus&health=Sick,Healthy&q=%20',
      ),
    ).toEqual({ tiers: ['production'], health: ['Healthy'] });
  });

  it('writes nothing for empty filters', () => {
    expect(formatOverviewFilters({ text: '  ', tiers: [] })).toBe('');
  });
});
