import { ResourceRegistry } from '../cluster/resources';

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

export function groupList(registry: ResourceRegistry) {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: registry
      .groups()
      .filter(g => g.name !== '')
      .map(g => groupDocument(g.name, g.versions)),
  };
}

export function apiGroup(registry: ResourceRegistry, name: string) {
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
  registry: ResourceRegistry,
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
