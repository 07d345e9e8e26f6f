import { ConfigReader } from '@backstage/config';
import {
  KubernetesObject,
  computeHealth,
  createHealthRuleSet,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { readFileSync } from 'fs';
import { join } from 'path';
import { parse } from 'yaml';
import { readHealthRules } from '../readHealthRules';

const EXAMPLES = join(__dirname, '../../../../../examples/health-rules');

const velero = (kind: string, spec: object, status?: object) =>
  ({
    apiVersion: 'velero.io/v1',
    kind,
    metadata: { name: 'daily', namespace: 'velero' },
    spec,
    ...(status ? { status } : {}),
  } as KubernetesObject);

describe('examples/health-rules: Argo CD Lua scripts', () => {
  it('reads the argocd-cm manifest and the inline key, for kinds the engine has no rule for', async () => {
    const config = parse(
      readFileSync(join(EXAMPLES, 'app-config.argocd-health.yaml'), 'utf8'),
    );
    // The example's path is relative to a backend started in packages/backend.
    config.gitlabEnv.health.argocd.configMapFile = join(
      EXAMPLES,
      'argocd-cm.yaml',
    );
    const { registrations, warnings } = await readHealthRules(
      new ConfigReader(config),
    );
    expect(warnings).toEqual([]);
    const rules = createHealthRuleSet(registrations);
    expect(rules.keys()).toEqual([
      'velero.io/Backup',
      'velero.io/Restore',
      'velero.io/Schedule',
    ]);
    const failed = velero(
      'Backup',
      { includedNamespaces: ['shop'] },
      { phase: 'Failed', failureReason: 'error getting backup store' },
    );
    // Without the script the generic rule reads the phase; with it, the
    // script's answer and message.
    expect(computeHealth(failed)?.origin).toBe('generic');
    expect(computeHealth(failed, { rules })).toEqual({
      status: 'Degraded',
      message: 'Failed: error getting backup store',
      origin: 'adopter',
    });
    expect(
      computeHealth(velero('Restore', {}, { phase: 'InProgress' }), { rules }),
    ).toEqual({
      status: 'Progressing',
      message: 'InProgress',
      origin: 'adopter',
    });
    expect(
      computeHealth(velero('Schedule', { paused: true }), { rules }),
    ).toEqual({
      status: 'Suspended',
      message: 'Schedule is paused',
      origin: 'adopter',
    });
    expect(
      computeHealth(
        velero(
          'Schedule',
          {},
          {
            phase: 'FailedValidation',
            validationErrors: ['invalid schedule', 'no storage location'],
          },
        ),
        { rules },
      ),
    ).toEqual({
      status: 'Degraded',
      message: 'invalid schedule; no storage location',
      origin: 'adopter',
    });
  });
});
