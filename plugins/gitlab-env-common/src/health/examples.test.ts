import { readFileSync } from 'fs';
import { join } from 'path';
import { parse } from 'yaml';
import { loadCrCorpus } from '../../bench/crCorpus';
import { createHealthRuleSet } from './adopterRules';
import { computeHealth } from './computeHealth';
import { parseDeclarativeHealthRules } from './declarative';

const EXAMPLE = join(
  __dirname,
  '../../../../examples/health-rules/app-config.health-rules.yaml',
);

describe('examples/health-rules/app-config.health-rules.yaml', () => {
  const config = parse(readFileSync(EXAMPLE, 'utf8'));
  const rules = createHealthRuleSet(
    parseDeclarativeHealthRules(config.gitlabEnv.health.rules),
  );
  const corpusObject = (kind: string) =>
    loadCrCorpus().find(e => e.object.kind === kind)!.object;

  it('is valid and assesses kinds the generic rule leaves Unknown', () => {
    expect(rules.keys()).toEqual([
      'argoproj.io/Sensor',
      'longhorn.io/Volume',
      'postgresql.cnpg.io/Cluster',
    ]);
    const volume = corpusObject('Volume');
    expect(computeHealth(volume)?.status).toBe('Unknown');
    expect(computeHealth(volume, { rules })).toEqual({
      status: 'Healthy',
      message: 'healthy',
      origin: 'adopter',
    });
    const sensor = corpusObject('Sensor');
    expect(computeHealth(sensor)?.status).toBe('Unknown');
    expect(computeHealth(sensor, { rules })).toEqual({
      status: 'Healthy',
      origin: 'adopter',
    });
  });

  it('reads the CloudNativePG hibernation annotation', () => {
    const cluster = structuredClone(corpusObject('Cluster'));
    cluster.metadata!.annotations = { 'cnpg.io/hibernation': 'on' };
    expect(computeHealth(cluster, { rules })?.status).toBe('Suspended');
  });
});
