import { computeHealth } from '../computeHealth';
import { describeArgocdCases } from '../testing/argocdCases';
import { condition, manifest } from '../testing/objects';

describeArgocdCases('kyverno.io/Policy');
describeArgocdCases('kyverno.io/ClusterPolicy', [
  // ArgoCD's stored test and testdata disagree (see the fixture); the rule
  // returns the condition's message as ArgoCD's script does.
  'testdata/degraded.yaml',
]);

describe('Kyverno Policy', () => {
  it('stays Progressing, never Degraded, while not ready', () => {
    expect(
      computeHealth(
        manifest(
          'kyverno.io/v1',
          'Policy',
          {},
          {
            conditions: [
              condition('Ready', 'False', 'Failed', 'rules failed to load'),
            ],
          },
        ),
      ),
    ).toEqual({
      status: 'Progressing',
      message: 'Waiting for Policy to be ready',
    });
  });
});
