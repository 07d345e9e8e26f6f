import { KubernetesObject } from '../../types';
import { computeHealth } from '../computeHealth';
import { meta } from '../__testUtils__/objects';

describe('CronJob', () => {
  it('shows a suspended CronJob Suspended (ArgoCD: Healthy)', () => {
    const cron = (spec: object, status?: object): KubernetesObject => ({
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: meta('nightly'),
      spec,
      status,
    });
    expect(computeHealth(cron({ suspend: true }))).toEqual({
      status: 'Suspended',
      message: 'CronJob is Suspended',
    });
    expect(
      computeHealth(
        cron(
          {},
          {
            lastScheduleTime: '2026-11-22T02:00:00Z',
            lastSuccessfulTime: '2026-11-21T02:04:00Z',
          },
        ),
      ),
    ).toEqual({
      status: 'Degraded',
      message: 'CronJob has not completed its last execution successfully',
    });
  });
});
