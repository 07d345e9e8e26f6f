import { computeHealth } from '../../computeHealth';
import { condition, manifest } from '../../__testUtils__/objects';

const app = (spec: object, status?: object) =>
  manifest(
    'app.k8s.io/v1beta1',
    'Application',
    {
      selector: { matchLabels: { 'app.kubernetes.io/name': 'shop' } },
      componentKinds: [{ group: 'apps', kind: 'Deployment' }],
      ...spec,
    },
    status,
  );

describe('app.k8s.io Application', () => {
  it('is Healthy when Ready with every component ready', () => {
    expect(
      computeHealth(
        app(
          {},
          {
            conditions: [condition('Ready', 'True', 'ComponentsReady')],
            componentsReady: '2/2',
          },
        ),
      ),
    ).toEqual({ status: 'Healthy', message: 'All 2 components are ready' });
  });

  it('waits for components, and reads errors and a failed assembly', () => {
    expect(
      computeHealth(
        app(
          {},
          {
            conditions: [condition('Ready', 'True')],
            componentsReady: '1/3',
          },
        ),
      ),
    ).toEqual({
      status: 'Progressing',
      message: '1 of 3 components are ready',
    });
    expect(
      computeHealth(
        app(
          {},
          {
            conditions: [
              condition('Ready', 'True'),
              condition(
                'Error',
                'True',
                'SyncFailed',
                'cannot list components',
              ),
            ],
          },
        ),
      ),
    ).toEqual({ status: 'Degraded', message: 'cannot list components' });
    expect(computeHealth(app({ assemblyPhase: 'Failed' }))).toEqual({
      status: 'Degraded',
      message: 'The application failed to assemble',
    });
    expect(computeHealth(app({ assemblyPhase: 'Pending' }))?.status).toBe(
      'Progressing',
    );
  });

  it('is Healthy without a controller only when its installer says it assembled', () => {
    expect(computeHealth(app({ assemblyPhase: 'Succeeded' }))).toEqual({
      status: 'Healthy',
      message: 'Assembled',
    });
    // Nothing reports on it: no health of its own (its components show theirs).
    expect(computeHealth(app({}))).toBeUndefined();
  });
});
