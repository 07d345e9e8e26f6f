import { computeHealth } from '../computeHealth';
import { condition, manifest } from '../__testUtils__/objects';

const image = (kind: string, spec: object, conditions?: object[]) =>
  manifest(
    'image.toolkit.fluxcd.io/v1beta2',
    kind,
    spec,
    conditions ? { conditions, observedGeneration: 1 } : undefined,
    { namespace: 'flux-system' },
  );
const repository = { image: 'registry.example.com/shop/web', interval: '5m' };

describe('ImageRepository', () => {
  it('is healthy after a successful scan', () => {
    expect(
      computeHealth(
        image('ImageRepository', repository, [
          condition(
            'Ready',
            'True',
            'Succeeded',
            'successful scan: found 12 tags',
          ),
        ]),
      ),
    ).toEqual({ status: 'Healthy', message: 'Succeeded' });
  });
  it('is progressing while a new generation is scanned', () => {
    expect(
      computeHealth(
        image('ImageRepository', repository, [
          condition(
            'Reconciling',
            'True',
            'NewGeneration',
            'reconciling new object generation (2)',
          ),
          condition(
            'Ready',
            'False',
            'NewGeneration',
            'reconciling new object generation (2)',
          ),
        ]),
      ),
    ).toEqual({ status: 'Progressing', message: 'NewGeneration' });
  });
  it('is degraded when the scan fails', () => {
    expect(
      computeHealth(
        image('ImageRepository', repository, [
          condition('Ready', 'False', 'AuthenticationFailed', 'unauthorized'),
        ]),
      ),
    ).toEqual({ status: 'Degraded', message: 'AuthenticationFailed' });
  });
  it('is suspended, and waits for a status', () => {
    expect(
      computeHealth(image('ImageRepository', { ...repository, suspend: true })),
    ).toEqual({ status: 'Suspended', message: 'ImageRepository is suspended' });
    expect(computeHealth(image('ImageRepository', repository))).toEqual({
      status: 'Progressing',
      message: 'Status unknown',
    });
  });
});

describe('ImagePolicy', () => {
  const policy = {
    imageRepositoryRef: { name: 'web' },
    policy: { semver: { range: '>=1.0.0' } },
  };
  it('has no suspend switch of its own, yet a suspend field is never shown Healthy', () => {
    expect(
      computeHealth(
        image('ImagePolicy', policy, [condition('Ready', 'True', 'Succeeded')]),
      ),
    ).toEqual({ status: 'Healthy', message: 'Succeeded' });
    // ArgoCD's script ignores it (the CRD has no such field); the guard
    // after the rules does not.
    expect(
      computeHealth(
        image('ImagePolicy', { ...policy, suspend: true }, [
          condition('Ready', 'True', 'Succeeded'),
        ]),
      ),
    ).toEqual({ status: 'Suspended', message: 'ImagePolicy is suspended' });
  });
  it('counts only its own reconciling reasons', () => {
    const notReady = condition('Ready', 'False', 'DependencyNotReady');
    expect(
      computeHealth(
        image('ImagePolicy', policy, [
          condition('Reconciling', 'True', 'ApplyingPolicy'),
          notReady,
        ]),
      ),
    ).toEqual({ status: 'Progressing', message: 'DependencyNotReady' });
    expect(
      computeHealth(
        image('ImagePolicy', policy, [
          condition('Reconciling', 'True', 'Scanning'),
          notReady,
        ]),
      ),
    ).toEqual({ status: 'Degraded', message: 'DependencyNotReady' });
  });
});

describe('ImageUpdateAutomation', () => {
  const automation = {
    interval: '30m',
    sourceRef: { kind: 'GitRepository', name: 'shop' },
  };
  it('is progressing while Ready is Unknown and reconciling', () => {
    expect(
      computeHealth(
        image('ImageUpdateAutomation', automation, [
          condition('Reconciling', 'True', 'Progressing'),
          condition('Ready', 'Unknown', 'Progressing'),
        ]),
      ),
    ).toEqual({ status: 'Progressing', message: 'Progressing' });
  });
  it('is healthy after pushing, degraded when it cannot', () => {
    expect(
      computeHealth(
        image('ImageUpdateAutomation', automation, [
          condition('Ready', 'True', 'Succeeded', 'repository up-to-date'),
        ]),
      ),
    ).toEqual({ status: 'Healthy', message: 'Succeeded' });
    expect(
      computeHealth(
        image('ImageUpdateAutomation', automation, [
          condition('Ready', 'False', 'GitOperationFailed'),
        ]),
      ),
    ).toEqual({ status: 'Degraded', message: 'GitOperationFailed' });
  });
});
