import { ConfigReader } from '@backstage/config';
import {
  KubernetesObject,
  computeHealth,
  createHealthRuleSet,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { mkdtempSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { readHealthRules } from './readHealthRules';

const dial = (phase?: string): KubernetesObject => ({
  apiVersion: 'gauges.example.com/v1',
  kind: 'Dial',
  metadata: { name: 'pressure' },
  ...(phase ? { status: { phase } } : {}),
});

// A script in Argo CD's style for a kind the engine has no rule for.
const DIAL_SCRIPT = `
hs = { status = "Progressing", message = "Waiting for a reading" }
if obj.status ~= nil and obj.status.phase == "Reading" then
  hs.status = "Healthy"
  hs.message = "Reading " .. obj.metadata.name
end
return hs
`;

async function rulesOf(health: object) {
  const { registrations, warnings } = await readHealthRules(
    new ConfigReader({ gitlabEnv: { health } }),
  );
  return { rules: createHealthRuleSet(registrations), warnings };
}

describe('readHealthRules: Argo CD health scripts from app-config', () => {
  it('reads argocd-cm keys written inline, as they are', async () => {
    const { rules, warnings } = await rulesOf({
      argocd: {
        data: {
          'resource.customizations.health.gauges.example.com_Dial': DIAL_SCRIPT,
          'resource.customizations.health.ConfigMap':
            'return { status = "Healthy", message = string.lower("CONFIG") }',
          'resource.customizations.useOpenLibs.ConfigMap': 'true',
          // Not health: ignored.
          'resource.customizations.ignoreDifferences.apps_Deployment':
            'jsonPointers: [/spec/replicas]',
          url: 'https://argocd.example.com',
        },
      },
    });
    expect(warnings).toEqual([]);
    expect(rules.keys()).toEqual(['/ConfigMap', 'gauges.example.com/Dial']);
    expect(computeHealth(dial('Reading'), { rules })).toEqual({
      status: 'Healthy',
      message: 'Reading pressure',
      origin: 'adopter',
    });
    expect(computeHealth(dial(), { rules })?.status).toBe('Progressing');
    expect(
      computeHealth(
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } },
        { rules },
      ),
    ).toEqual({ status: 'Healthy', message: 'config', origin: 'adopter' });
  });

  it("reads Argo CD's YAML form with a wildcard key, and an argocd-cm manifest file", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'argocd-cm-'));
    const file = join(dir, 'argocd-cm.yaml');
    writeFileSync(
      file,
      [
        'apiVersion: v1',
        'kind: Namespace',
        'metadata: { name: argocd }',
        '---',
        'apiVersion: v1',
        'kind: ConfigMap',
        'metadata: { name: argocd-cm, namespace: argocd }',
        'data:',
        '  resource.customizations: |',
        '    "*.example.com/*":',
        '      health.lua: |',
        '        return { status = "Suspended", message = "wildcard" }',
        '  resource.customizations.health.gauges.example.com_Dial: |',
        ...DIAL_SCRIPT.split('\n').map(line => `    ${line}`),
      ].join('\n'),
    );
    const { rules } = await rulesOf({ argocd: { configMapFile: file } });
    expect(rules.keys()).toEqual([
      '*.example.com/*',
      'gauges.example.com/Dial',
    ]);
    // The exact key wins over the wildcard, as in Argo CD.
    expect(computeHealth(dial('Reading'), { rules })?.message).toBe(
      'Reading pressure',
    );
    expect(
      computeHealth(
        { apiVersion: 'knobs.example.com/v1', kind: 'Knob', metadata: {} },
        { rules },
      ),
    ).toEqual({ status: 'Suspended', message: 'wildcard', origin: 'adopter' });
  });

  it('starts with a script that does not compile, which answers Unknown and is reported', async () => {
    const { rules, warnings } = await rulesOf({
      argocd: {
        data: {
          'resource.customizations.health.gauges.example.com_Dial':
            'hs = { status = "Healthy" ',
        },
      },
    });
    expect(warnings).toEqual([
      expect.stringContaining(
        'gitlabEnv.health.argocd["resource.customizations.health.gauges.example.com_Dial"]',
      ),
    ]);
    expect(computeHealth(dial(), { rules })).toEqual({
      status: 'Unknown',
      message: expect.stringContaining(
        'The Argo CD health script does not compile: gauges.example.com/Dial health.lua:1:',
      ),
      origin: 'adopter',
    });
  });

  it('refuses keys it cannot read, a missing file and bad bounds, naming them', async () => {
    await expect(
      rulesOf({
        argocd: {
          data: { 'resource.customizations.health.a_b_c': 'return {}' },
        },
      }),
    ).rejects.toThrow(
      'gitlabEnv.health.argocd["resource.customizations.health.a_b_c"]: the key must be resource.customizations.health.<group>_<kind>',
    );
    await expect(
      rulesOf({ argocd: { configMapFile: '/nonexistent/argocd-cm.yaml' } }),
    ).rejects.toThrow(
      'gitlabEnv.health.argocd.configMapFile: cannot read /nonexistent/argocd-cm.yaml',
    );
    await expect(
      rulesOf({
        argocd: {
          maxInstructions: -1,
          data: { 'resource.customizations.health.x.io_Y': 'return {}' },
        },
      }),
    ).rejects.toThrow(
      'gitlabEnv.health.argocd.maxInstructions must be a positive whole number',
    );
  });

  it('refuses a declarative rule and a Lua script for the same kind', async () => {
    const { registrations } = await readHealthRules(
      new ConfigReader({
        gitlabEnv: {
          health: {
            rules: [
              {
                group: 'gauges.example.com',
                kind: 'Dial',
                healthy: [{ field: 'status.phase', values: ['Reading'] }],
              },
            ],
            argocd: {
              data: {
                'resource.customizations.health.gauges.example.com_Dial':
                  DIAL_SCRIPT,
              },
            },
          },
        },
      }),
    );
    expect(() => createHealthRuleSet(registrations)).toThrow(
      'Two health rules for gauges.example.com/Dial: from gitlabEnv.health.rules[0] and from gitlabEnv.health.argocd["resource.customizations.health.gauges.example.com_Dial"]',
    );
  });
});
