import { KubernetesObject, NamespaceNarrowing } from '../types';
import { gitlabMarkers, gitlabSlugify } from './gitlabMarkers';
import { narrowToEnvironment } from './narrowing';

const markers = gitlabMarkers({
  projectPath: 'acme/Platform/search_indexer',
  environmentSlug: 'staging',
  projectId: '104',
  agentId: '3',
});

function object(
  kind: string,
  name: string,
  meta: Partial<NonNullable<KubernetesObject['metadata']>> = {},
  apiVersion = kind === 'Deployment' || kind === 'ReplicaSet'
    ? 'apps/v1'
    : 'v1',
): KubernetesObject {
  return {
    apiVersion,
    kind,
    metadata: { name, namespace: 'shared', uid: `uid-${name}`, ...meta },
  };
}

const ownedBy = (name: string) => ({
  ownerReferences: [{ uid: `uid-${name}`, kind: 'X', name }],
});
const fluxLabels = (name: string) => ({
  labels: {
    'kustomize.toolkit.fluxcd.io/name': name,
    'kustomize.toolkit.fluxcd.io/namespace': 'flux-system',
  },
});
const names = (objects: KubernetesObject[]) =>
  objects.map(o => o.metadata!.name).sort();

const kustomization: KubernetesObject = {
  apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
  kind: 'Kustomization',
  metadata: { name: 'ours', namespace: 'flux-system', uid: 'uid-k' },
  status: {
    inventory: {
      entries: [
        { id: 'shared_in-inventory__ConfigMap', v: 'v1' },
        { id: 'shared_api_apps_Deployment', v: 'v1' },
      ],
    },
  },
};

describe('gitlabSlugify ($CI_PROJECT_PATH_SLUG)', () => {
  it('lower-cases, replaces what is not a-z0-9 by -, cuts to 63 and trims -', () => {
    expect(gitlabSlugify('acme/Platform/search_indexer')).toBe(
      'acme-platform-search-indexer',
    );
    expect(gitlabSlugify(`${'a'.repeat(62)}/b`)).toBe('a'.repeat(62));
  });
});

describe('narrowToEnvironment', () => {
  const byInventory: NamespaceNarrowing = {
    by: 'inventory',
    sharedWith: ['load-test'],
    flux: { kind: 'Kustomization', namespace: 'flux-system', name: 'ours' },
    markers,
  };

  it('keeps what its inventory names and what nobody claims; leaves out others and what they own', () => {
    const objects = [
      kustomization,
      object('ConfigMap', 'in-inventory'),
      object('Deployment', 'api', fluxLabels('ours')),
      object('ReplicaSet', 'api-1', ownedBy('api')),
      object('ConfigMap', 'nobody'),
      object('Deployment', 'theirs', fluxLabels('other')),
      object('ReplicaSet', 'theirs-1', ownedBy('theirs')),
      object('Pod', 'theirs-1-a', ownedBy('theirs-1')),
      object('Deployment', 'loadgen', {
        annotations: {
          'app.gitlab.com/app': 'acme-platform-search-indexer',
          'app.gitlab.com/env': 'load-test',
        },
      }),
      object('ConfigMap', 'cli', {
        annotations: { 'config.k8s.io/owning-inventory': 'abc' },
      }),
      {
        ...object('Event', 'theirs-1-a.1'),
        involvedObject: { uid: 'uid-theirs-1-a' },
      },
    ];
    const result = narrowToEnvironment(objects, 'shared', byInventory);
    expect(names(result.objects)).toEqual([
      'api',
      'api-1',
      'in-inventory',
      'nobody',
      'ours',
    ]);
    expect(result.hidden).toBe(5);
    expect(result.hiddenOwners).toEqual([
      'GitLab environment load-test of acme-platform-search-indexer',
      'Kustomization flux-system/other',
      'inventory abc',
    ]);
  });

  it('by label: keeps objects with its markers or the managed-resources label; any inventory is another', () => {
    const objects = [
      object('Deployment', 'ours-annotated', {
        annotations: {
          'app.gitlab.com/app': 'acme-platform-search-indexer',
          'app.gitlab.com/env': 'staging',
        },
      }),
      object('Deployment', 'ours-managed', {
        labels: { 'agent.gitlab.com/env-staging-104-3': '' },
      }),
      object('Deployment', 'other-managed', {
        labels: { 'agent.gitlab.com/env-production-104-3': '' },
      }),
      object('Deployment', 'other-project', {
        annotations: {
          'app.gitlab.com/app': 'acme-other',
          'app.gitlab.com/env': 'staging',
        },
      }),
      object('Deployment', 'flux-applied', fluxLabels('ours')),
      object('Service', 'nobody'),
    ];
    const result = narrowToEnvironment(objects, 'shared', {
      by: 'label',
      sharedWith: ['staging'],
      markers,
    });
    expect(names(result.objects)).toEqual([
      'nobody',
      'ours-annotated',
      'ours-managed',
    ]);
    expect(result.hidden).toBe(3);
  });

  it("leaves out, by the engine's relations, a StatefulSet's claims and a Service's EndpointSlices with them", () => {
    const statefulSet = {
      ...object('StatefulSet', 'db', fluxLabels('other'), 'apps/v1'),
      spec: { volumeClaimTemplates: [{ metadata: { name: 'data' } }] },
    };
    const service = object('Service', 'db', fluxLabels('other'));
    const slice = object(
      'EndpointSlice',
      'db-x1',
      { labels: { 'kubernetes.io/service-name': 'db' } },
      'discovery.k8s.io/v1',
    );
    const result = narrowToEnvironment(
      [
        kustomization,
        statefulSet,
        object('PersistentVolumeClaim', 'data-db-0'),
        object('PersistentVolumeClaim', 'scratch'),
        service,
        slice,
      ],
      'shared',
      byInventory,
    );
    expect(names(result.objects)).toEqual(['ours', 'scratch']);
    expect(result.hidden).toBe(4);
  });

  it('keeps what a cli-utils inventory carrying its GitLab markers applied', () => {
    const inventoryOf = (id: string, env: string) =>
      object('ConfigMap', `inventory-${id}`, {
        labels: { 'cli-utils.sigs.k8s.io/inventory-id': id },
        annotations: {
          'app.gitlab.com/app': 'acme-platform-search-indexer',
          'app.gitlab.com/env': env,
        },
      });
    const applied = (name: string, id: string) =>
      object('ConfigMap', name, {
        annotations: { 'config.k8s.io/owning-inventory': id },
      });
    const result = narrowToEnvironment(
      [
        inventoryOf('mine', 'staging'),
        applied('own', 'mine'),
        inventoryOf('theirs', 'load-test'),
        applied('their', 'theirs'),
      ],
      'shared',
      { by: 'label', sharedWith: ['environment load-test'], markers },
    );
    expect(names(result.objects)).toEqual(['inventory-mine', 'own']);
    expect(result.hiddenOwners).toEqual([
      'GitLab environment load-test of acme-platform-search-indexer',
      'inventory theirs',
    ]);
  });

  it('leaves objects outside the namespace alone', () => {
    const elsewhere = {
      ...object('Deployment', 'x', fluxLabels('other')),
      metadata: {
        ...object('Deployment', 'x', fluxLabels('other')).metadata,
        namespace: 'elsewhere',
      },
    };
    expect(
      narrowToEnvironment([elsewhere], 'shared', byInventory).objects,
    ).toEqual([elsewhere]);
  });
});
