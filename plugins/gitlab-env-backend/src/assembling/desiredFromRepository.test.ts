import { KubernetesObject } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { aliasBomb } from '../__testUtils__/hostileValues';
import { compareWithRepository } from './desiredFromRepository';

const objects: KubernetesObject[] = [
  {
    apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
    kind: 'Kustomization',
    metadata: { name: 'app', namespace: 'flux-system', uid: 'k' },
    spec: {
      path: './deploy',
      sourceRef: { kind: 'GitRepository', name: 'app' },
    },
    status: { lastAppliedRevision: 'main@sha1:0123456789abcdef' },
  },
  {
    apiVersion: 'source.toolkit.fluxcd.io/v1',
    kind: 'GitRepository',
    metadata: { name: 'app', namespace: 'flux-system', uid: 'g' },
    spec: { url: 'https://gitlab.test/acme/app.git' },
  },
];

function compare(
  files: Record<string, string>,
  mayRead: (project: string) => string | undefined = () => undefined,
) {
  const read: string[] = [];
  return {
    read,
    comparison: compareWithRepository({
      objects,
      fluxResourcePath:
        'kustomize.toolkit.fluxcd.io/v1/namespaces/flux-system/kustomizations/app',
      host: 'gitlab.test',
      mayRead,
      readFile: async (project, path) => {
        read.push(`${project}:${path}`);
        return files[path];
      },
    }),
  };
}

describe('compareWithRepository and the repositories it may read', () => {
  it('reads nothing of a project the environment may not read, and says why', async () => {
    const { read, comparison } = compare(
      { 'deploy/kustomization.yaml': 'resources: []\n' },
      project => `not ${project}`,
    );
    expect((await comparison)?.unavailable).toBe('not acme/app');
    expect(read).toEqual([]);
  });
});

describe('compareWithRepository on hostile repository files', () => {
  it('does not expand a YAML alias bomb in a manifest: it names the document and goes on', async () => {
    const comparison = await compare({
      'deploy/kustomization.yaml': 'resources: [bomb.yaml, cm.yaml]\n',
      'deploy/bomb.yaml': aliasBomb(),
      'deploy/cm.yaml':
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  namespace: app\n',
    }).comparison;
    expect(comparison?.notRendered).toEqual([
      'a document of deploy/bomb.yaml whose YAML aliases expand more than 100 times',
    ]);
    expect(comparison?.objects.map(o => o.id)).toEqual([
      expect.stringContaining('ConfigMap'),
    ]);
  });

  it('says why a kustomization.yaml that is a bomb cannot be read', async () => {
    const comparison = await compare({
      'deploy/kustomization.yaml': aliasBomb(),
    }).comparison;
    expect(comparison?.unavailable).toMatch(
      /^deploy\/kustomization.yaml cannot be read: .*alias/i,
    );
  });
});
