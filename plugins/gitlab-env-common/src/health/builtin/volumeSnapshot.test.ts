import { computeHealth } from '../computeHealth';
import { manifest } from '../__testUtils__/objects';

const snapshot = (status?: object) =>
  manifest(
    'snapshot.storage.k8s.io/v1',
    'VolumeSnapshot',
    {
      volumeSnapshotClassName: 'csi-hostpath-snapclass',
      source: { persistentVolumeClaimName: 'data-db-0' },
    },
    status,
  );

describe('VolumeSnapshot', () => {
  it('is healthy when ready to use', () => {
    expect(
      computeHealth(
        snapshot({
          boundVolumeSnapshotContentName: 'snapcontent-1',
          readyToUse: true,
          restoreSize: '1Gi',
        }),
      ),
    ).toEqual({ status: 'Healthy', message: 'Ready to use' });
  });
  it('is degraded with the error the snapshotter wrote', () => {
    expect(
      computeHealth(
        snapshot({
          readyToUse: false,
          error: {
            message: 'Failed to check and update snapshot content: rpc error',
            time: '2026-11-22T10:00:00Z',
          },
        }),
      ),
    ).toEqual({
      status: 'Degraded',
      message: 'Failed to check and update snapshot content: rpc error',
    });
  });
  it('waits for a status, for contents too', () => {
    expect(computeHealth(snapshot())).toEqual({
      status: 'Progressing',
      message: 'Waiting for status',
    });
    expect(
      computeHealth(
        manifest(
          'snapshot.storage.k8s.io/v1',
          'VolumeSnapshotContent',
          {},
          {
            readyToUse: true,
          },
        ),
      ),
    ).toEqual({ status: 'Healthy', message: 'Ready to use' });
  });
});
