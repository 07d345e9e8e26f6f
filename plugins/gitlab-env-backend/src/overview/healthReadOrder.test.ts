import { Entity } from '@backstage/catalog-model';
import { DeploymentTier } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { HealthRead, healthReadOrder } from './healthReadOrder';

const entity: Entity = {
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: { name: 'storefront' },
};

function read(name: string, tier: DeploymentTier): HealthRead {
  return {
    entity,
    environment: { id: name, name, slug: name, tier, state: 'available' },
  };
}

describe('healthReadOrder', () => {
  it('reads production first and keeps the listing order within a tier', () => {
    const reads = [
      read('review/a', 'development'),
      read('staging', 'staging'),
      read('production/us-region', 'production'),
      read('sandbox', 'other'),
      read('production/eu-region', 'production'),
      read('qa', 'testing'),
    ];
    expect(healthReadOrder(reads).map(r => r.environment.name)).toEqual([
      'production/us-region',
      'production/eu-region',
      'staging',
      'qa',
      'review/a',
      'sandbox',
    ]);
    expect(reads[0].environment.name).toBe('review/a');
  });
});
