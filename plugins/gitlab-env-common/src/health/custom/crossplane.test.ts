import { computeHealth } from '../computeHealth';
import { condition, manifest } from '../__testUtils__/objects';

describe('Crossplane and Upbound managed resources', () => {
  const bucket = (status?: object) =>
    manifest('s3.aws.crossplane.io/v1beta1', 'Bucket', {}, status);
  const upboundBucket = (status?: object) =>
    manifest('s3.aws.upbound.io/v1beta1', 'Bucket', {}, status);

  it('is provisioning until Ready, degraded when not synced', () => {
    expect(computeHealth(bucket())).toEqual({
      status: 'Progressing',
      message: 'Provisioning ...',
    });
    expect(
      computeHealth(bucket({ conditions: [condition('Synced', 'True')] })),
    ).toEqual({ status: 'Progressing', message: 'Provisioning ...' });
    expect(
      computeHealth(
        bucket({
          conditions: [
            condition('Synced', 'False', 'ReconcileError', 'cannot create'),
            condition('Ready', 'True'),
          ],
        }),
      ),
    ).toEqual({ status: 'Degraded', message: 'cannot create' });
  });

  it('stops at the first healthy condition for crossplane.io, reads on for upbound.io', () => {
    const conditions = [
      condition('Ready', 'True'),
      condition('Synced', 'False', 'ReconcileError', 'cannot update'),
    ];
    expect(computeHealth(bucket({ conditions }))?.status).toBe('Healthy');
    expect(computeHealth(upboundBucket({ conditions }))).toEqual({
      status: 'Degraded',
      message: 'cannot update',
    });
  });

  it('is not the generic rule: its results carry no generic mark', () => {
    expect(computeHealth(bucket())?.origin).toBeUndefined();
  });
});
