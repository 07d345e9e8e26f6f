import { computeHealth } from '../computeHealth';
import { manifest } from '../__testUtils__/objects';

const ancestor = (
  name: string,
  status: string,
  reason: string,
  message: string,
) => ({
  ancestorRef: { group: 'gateway.networking.k8s.io', kind: 'Gateway', name },
  conditions: [
    { type: 'Accepted', status, reason, message, observedGeneration: 1 },
  ],
});

describe('BackendTLSPolicy entries of controllers not responsible for the target', () => {
  it('ignores another controller’s TargetNotFound beside an accepting entry', () => {
    expect(
      computeHealth(
        manifest(
          'gateway.networking.k8s.io/v1',
          'BackendTLSPolicy',
          {},
          {
            ancestors: [
              ancestor(
                'other',
                'False',
                'TargetNotFound',
                'Service "web" not found',
              ),
              ancestor('main', 'True', 'Accepted', 'accepted'),
            ],
          },
        ),
      ),
    ).toEqual({ status: 'Healthy', message: 'BackendTLSPolicy is healthy' });
  });

  it('degrades on TargetNotFound when no controller accepted it', () => {
    expect(
      computeHealth(
        manifest(
          'gateway.networking.k8s.io/v1',
          'BackendTLSPolicy',
          {},
          {
            ancestors: [
              ancestor(
                'main',
                'False',
                'TargetNotFound',
                'Service "web" not found',
              ),
            ],
          },
        ),
      ),
    ).toEqual({
      status: 'Degraded',
      message: 'Ancestor main: Service "web" not found',
    });
  });
});

describe('Envoy Gateway policies', () => {
  it.each([
    'BackendTrafficPolicy',
    'SecurityPolicy',
    'EnvoyExtensionPolicy',
    'EnvoyPatchPolicy',
  ])('%s follows its ancestors', kind => {
    expect(
      computeHealth(
        manifest(
          'gateway.envoyproxy.io/v1alpha1',
          kind,
          {},
          {
            ancestors: [ancestor('main', 'True', 'Accepted', 'ok')],
          },
        ),
      ),
    ).toEqual({ status: 'Healthy', message: `${kind} is healthy` });
  });
});
