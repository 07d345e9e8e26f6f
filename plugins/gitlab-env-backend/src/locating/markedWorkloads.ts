import {
  gitlabMarkerMatch,
  GitlabMarkers,
  KubernetesObject,
  NamespaceMapping,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { isDns1123Label } from '../validation';
import { markersCommand } from './mappingCommands';
import { mostCommonNamespace } from './mostCommonNamespace';
import { asGitlabEnvError } from '../errors';
import { KasClient } from '../transport/kasClient';
import { listKind } from '../reading/objectSource';
import { ReadBounds } from '../reading/readBounds';
import { ListableKind } from '../reading/discovery';

const appsKind = (kind: string, plural: string): ListableKind => ({
  group: 'apps',
  version: 'v1',
  plural,
  kind,
  label: `apps/${kind}`,
  basePath: '/apis/apps/v1',
});

/**
 * The workloads GitLab's deploy boards look at for its annotations (GitLab
 * docs, "Deploy boards": the annotations go on the deployments, replica
 * sets and pods); the controllers' kinds only, so one list per kind finds
 * an environment's namespace without listing every Pod of the cluster.
 */
const WORKLOAD_KINDS: readonly ListableKind[] = [
  appsKind('Deployment', 'deployments'),
  appsKind('StatefulSet', 'statefulsets'),
  appsKind('DaemonSet', 'daemonsets'),
];

/** The workloads of an agent's cluster that carry some GitLab marker, and what could not be listed. */
export interface MarkedWorkloads {
  objects: KubernetesObject[];
  /** Why a kind could not be listed across the cluster, in words. */
  failures: string[];
}

const hasMarker = (object: KubernetesObject) =>
  gitlabMarkerMatch(object, { app: '', env: '' }) !== undefined;

/** At most this many namespaces are listed one by one when RBAC refuses the cluster-wide list. */
const MAX_FALLBACK_NAMESPACES = 20;

const isForbidden = (error: unknown) =>
  asGitlabEnvError(error).code === 'KIND_FORBIDDEN';

/**
 * One list across the cluster per workload kind, kept to the objects with a
 * GitLab marker: shared by every environment of the agent that needs it.
 * Where RBAC refuses a kind across the cluster (RoleBindings per
 * namespace), or `acrossCluster` is false, the `known` namespaces (where the agent's other environments
 * deploy; at most MAX_FALLBACK_NAMESPACES) are listed one by one instead.
 * Bounded by `bounds` (pages, objects, the signal); what could not be
 * looked at is named in `failures`.
 */
export async function listMarkedWorkloads(
  kas: KasClient,
  bounds: ReadBounds,
  known: readonly string[] = [],
  acrossCluster = true,
): Promise<MarkedWorkloads> {
  const failures: string[] = [];
  const perNamespace = known.slice(0, MAX_FALLBACK_NAMESPACES);
  const listKnown = async (kind: ListableKind, why: string) => {
    const refused: string[] = [];
    const lists = await Promise.all(
      perNamespace.map(namespace =>
        listKind(kas, kind, { namespace, bounds }).catch(error => {
          refused.push(`${namespace}: ${asGitlabEnvError(error).message}`);
          return undefined;
        }),
      ),
    );
    const listed = perNamespace.length - refused.length;
    const skipped = known.length - perNamespace.length;
    failures.push(
      `${why}${
        perNamespace.length > 0
          ? `; ${
              refused.length === 0 ? 'all' : `only ${listed} of`
            } the namespaces it is known to deploy to (${perNamespace.join(
              ', ',
            )}) could be listed instead${
              refused.length > 0 ? ` (${refused.join('; ')})` : ''
            }${skipped > 0 ? `; ${skipped} more were not looked in` : ''}`
          : ', and no namespace it deploys to is known to look in instead'
      }`,
    );
    return lists.flatMap(l => l ?? []);
  };
  const listKindEverywhere = async (kind: ListableKind) => {
    if (!acrossCluster)
      return listKnown(
        kind,
        `${kind.label} is not listed across the cluster (gitlabEnv.namespaceMapping.workloadAnnotations)`,
      );
    try {
      return await listKind(kas, kind, { bounds });
    } catch (error) {
      if (isForbidden(error))
        return listKnown(
          kind,
          `listing ${kind.label} across the cluster is forbidden to the agent`,
        );
      failures.push(
        `listing ${kind.label} across the cluster failed: ${
          asGitlabEnvError(error).message
        }`,
      );
      return [];
    }
  };
  const lists = await Promise.all(WORKLOAD_KINDS.map(listKindEverywhere));
  if (bounds.exceeded)
    failures.push(
      `the cluster has more than ${bounds.maxObjects} workloads; only the first were looked at`,
    );
  return { objects: lists.flat().filter(hasMarker), failures };
}

/**
 * The namespace an environment's GitLab markers point to: where most of
 * the workloads carrying them live (first by name on a tie); undefined
 * when none does. Namespaces that are not valid names are never used.
 */
export function namespaceFromMarkers(
  workloads: readonly KubernetesObject[],
  markers: GitlabMarkers,
): { namespace: string; mapping: NamespaceMapping } | undefined {
  const ours = workloads.filter(
    w =>
      gitlabMarkerMatch(w, markers) === 'ours' &&
      isDns1123Label(w.metadata?.namespace),
  );
  const namespace = mostCommonNamespace(ours.map(w => w.metadata!.namespace!));
  if (!namespace) return undefined;
  const named = ours
    .filter(w => w.metadata?.namespace === namespace)
    .map(w => `${w.kind}/${w.metadata?.name}`)
    .sort();
  return {
    namespace,
    mapping: {
      source: 'label',
      name:
        named.length > 1
          ? `${named[0]} and ${named.length - 1} more`
          : named[0],
      kubectl: markersCommand(namespace),
    },
  };
}
