import { computeHealth } from '../computeHealth';
import { describeArgocdCases } from '../testing/argocdCases';
import { condition, manifest } from '../testing/objects';

describeArgocdCases('pkg.crossplane.io/Provider');
describeArgocdCases('pkg.crossplane.io/Configuration');
describeArgocdCases('pkg.crossplane.io/ConfigurationRevision');

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
