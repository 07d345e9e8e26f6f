import { driftedCount } from '../../gitops';
import { EnvironmentDrift } from '../../types';
import { EnvironmentResourcesResponse } from '../../types';

/**
 * A read of the production environment of component:default/shop holding
 * `state`, carrying `drift` and its count as the backend's read does (none
 * when nothing drifted).
 */
export function readOf(
  state: Pick<EnvironmentResourcesResponse, 'resources' | 'graph' | 'health'>,
  drift: EnvironmentDrift,
): EnvironmentResourcesResponse {
  const drifted = driftedCount(drift);
  return {
    entityRef: 'component:default/shop',
    environment: {
      id: '1',
      name: 'production',
      slug: 'production',
      tier: 'production',
      state: 'available',
      ...(drifted > 0 && { driftedCount: drifted }),
    },
    scope: { namespace: 'shop' },
    ...state,
    errors: [],
    fetchedAt: '2026-01-01T00:00:00.000Z',
    ...(drifted > 0 && { drift }),
  };
}
