import { ResourceCatalog } from '../cluster/resources';

/** Discovery documents (`/api`, `/apis`, `/apis/<g>/<v>`) and `/version`. */

export function versionInfo(gitVersion: string) {
  const [major, minor] = gitVersion.replace(/^v/, '').split('.');
  return {
    major,
    minor,
    gitVersion,
    gitCommit: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
    gitTreeState: 'clean',
    buildDate: '2026-10-01T12:00:00Z',
    goVersion: 'go1.23.4',
    compiler: 'gc',
    platform: 'linux/amd64',
  };
}

export function coreVersions() {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [
      { clientCIDR: '0.0.0.0/0', serverAddress: '10.0.0.1:6443' },
    ],
  };
}

function groupDocument(name: string, versions: string[]) {
  const entries = versions.map(version => ({
    groupVersion: `${name}/${version}`,
    version,
  }));
  return { name, versions: entries, preferredVersion: entries[0] };
}

export function groupList(registry: ResourceCatalog) {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: registry
      .groups()
      .filter(g => g.name !== '')
      .map(g => groupDocument(g.name, g.versions)),
  };
}

export function apiGroup(registry: ResourceCatalog, name: string) {
  const group = registry.groups().find(g => g.name === name && name !== '');
  return group
    ? {
        kind: 'APIGroup',
        apiVersion: 'v1',
        ...groupDocument(group.name, group.versions),
      }
    : undefined;
}

export function resourceList(
  registry: ResourceCatalog,
  group: string,
  version: string,
) {
  const served = registry.resources.filter(
    r => r.group === group && r.versions.includes(version),
  );
  if (served.length === 0) {
    return undefined;
  }
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: group ? `${group}/${version}` : version,
    resources: served.flatMap(r => [
      {
        name: r.plural,
        singularName: r.singular,
        namespaced: r.namespaced,
        kind: r.kind,
        verbs: r.verbs,
        ...(r.shortNames ? { shortNames: r.shortNames } : {}),
        ...(r.categories ? { categories: r.categories } : {}),
      },
      ...r.subresources.map(s => ({
        name: `${r.plural}/${s.name}`,
        singularName: '',
        namespaced: r.namespaced,
        ...(s.group ? { group: s.group, version: s.version } : {}),
        kind: s.kind || r.kind,
        verbs: s.verbs,
      })),
    ]),
  };
}

/**
 * Aggregated discovery (KEP-3352; beta in Kubernetes 1.26, GA as v2 in 1.30):
 * `/api` and `/apis` answer every group's resources at once when the client's
 * Accept header asks for an APIGroupDiscoveryList. Returns the media type to
 * answer with, or undefined for the plain documents.
 */
export function aggregatedDiscoveryMediaType(
  accept: string | undefined,
  kubernetesVersion: string,
): string | undefined {
  const minor = Number(kubernetesVersion.replace(/^v/, '').split('.')[1]);
  const served = [
    ...(minor >= 30 ? ['v2'] : []),
    // v2beta1 was served from 1.26 until its removal in 1.33.
    ...(minor >= 26 && minor < 33 ? ['v2beta1'] : []),
  ];
  for (const range of (accept ?? '').split(',')) {
    const [type, ...params] = range.split(';').map(part => part.trim());
    if (type !== 'application/json') continue;
    const p = Object.fromEntries(
      params.map(param => param.split('=').map(v => v.trim())),
    );
    // A plain application/json that comes first wins, as in the API server.
    if (!p.g && !p.as) return undefined;
    if (
      p.g === 'apidiscovery.k8s.io' &&
      p.as === 'APIGroupDiscoveryList' &&
      served.includes(p.v)
    ) {
      return `application/json;g=apidiscovery.k8s.io;v=${p.v};as=APIGroupDiscoveryList`;
    }
  }
  return undefined;
}

function responseKind(group: string, version: string, kind: string) {
  return { group, version, kind };
}

/** The APIGroupDiscoveryList of `/api` (core) or `/apis` (every other group). */
export function aggregatedDiscovery(
  registry: ResourceCatalog,
  core: boolean,
  mediaType: string,
) {
  const apiVersion = `apidiscovery.k8s.io/${/;v=([^;]+)/.exec(mediaType)![1]}`;
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion,
    metadata: {},
    items: registry
      .groups()
      .filter(g => (g.name === '') === core)
      .map(g => ({
        metadata: { name: g.name },
        versions: g.versions.map(version => ({
          version,
          freshness: 'Current',
          resources: registry.resources
            .filter(r => r.group === g.name && r.versions.includes(version))
            .map(r => ({
              resource: r.plural,
              responseKind: responseKind(r.group, version, r.kind),
              scope: r.namespaced ? 'Namespaced' : 'Cluster',
              singularResource: r.singular,
              verbs: r.verbs,
              ...(r.shortNames ? { shortNames: r.shortNames } : {}),
              ...(r.categories ? { categories: r.categories } : {}),
              subresources: r.subresources.map(s => ({
                subresource: s.name,
                responseKind: responseKind(
                  s.group ?? r.group,
                  s.version ?? version,
                  s.kind || r.kind,
                ),
                verbs: s.verbs,
              })),
            })),
        })),
      })),
  };
}
