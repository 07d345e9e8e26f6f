import {
  ResourceKey,
  shellWord,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { kubectlResourceName } from './kinds';

const FLUX_CLI_KINDS: Record<string, string> = {
  Kustomization: 'kustomization',
  HelmRelease: 'helmrelease',
  GitRepository: 'source git',
  OCIRepository: 'source oci',
  HelmRepository: 'source helm',
  HelmChart: 'source chart',
  Bucket: 'source bucket',
};

function resource(key: ResourceKey): string {
  const namespace = key.namespace ? ` -n ${shellWord(key.namespace)}` : '';
  return `${kubectlResourceName(key.kind, key.group)} ${shellWord(
    key.name,
  )}${namespace}`;
}

/** The commands that show a Flux object's sync state, history and source, as the drawer shows them. */
export function fluxCommands(key: ResourceKey): string[] {
  const namespace = key.namespace ? ` -n ${shellWord(key.namespace)}` : '';
  const flux = FLUX_CLI_KINDS[key.kind];
  return [
    ...(flux ? [`flux get ${flux} ${shellWord(key.name)}${namespace}`] : []),
    `kubectl get ${resource(key)} -o jsonpath='{.status.history}'`,
    ...(flux && !flux.startsWith('source')
      ? [`flux events --for ${key.kind}/${shellWord(key.name)}${namespace}`]
      : []),
  ];
}

/** The commands that show an object's drift evidence: who owns which field, and what kubectl applied. */
export function driftCommands(key: ResourceKey): string[] {
  return [
    `kubectl get ${resource(key)} --show-managed-fields -o yaml`,
    `kubectl apply view-last-applied ${resource(key)}`,
  ];
}

/** What lists the objects of a namespace no inventory names: everything, then what Flux's labels claim. */
export function unmanagedCommands(namespace: string): string[] {
  return [
    `kubectl get all,configmaps,secrets,serviceaccounts -n ${shellWord(
      namespace,
    )}`,
    `kubectl get all -n ${shellWord(
      namespace,
    )} -l '!kustomize.toolkit.fluxcd.io/name,!helm.toolkit.fluxcd.io/name'`,
  ];
}
