import { computeHealth } from '../computeHealth';
import { condition, manifest } from '../__testUtils__/objects';

describe('Crossplane packages', () => {
  it('is Unknown, saying why, when a condition has no reason (ArgoCD fails on it too)', () => {
    expect(
      computeHealth(
        manifest(
          'pkg.crossplane.io/v1',
          'Provider',
          {},
          {
            conditions: [
              condition('Installed', 'True', 'ActivePackageRevision'),
            ],
          },
        ),
      ),
    ).toEqual({
      status: 'Unknown',
      message: 'Provider reports no reason for its Healthy condition',
    });
  });

  it('reads Crossplane v2 RevisionHealthy on a ConfigurationRevision', () => {
    expect(
      computeHealth(
        manifest(
          'pkg.crossplane.io/v1',
          'ConfigurationRevision',
          {},
          {
            conditions: [
              condition('RevisionHealthy', 'False', 'UnhealthyPackageRevision'),
            ],
          },
        ),
      ),
    ).toEqual({ status: 'Degraded', message: 'UnhealthyPackageRevision' });
  });
});
