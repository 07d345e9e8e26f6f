import {
  fluxSourceKeyOf,
  GitlabEnvError,
  KubernetesObject,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { asGitlabEnvError } from '../errors';
import { fluxRelatedRefs, MAX_RELATED_READS, refOf } from './fluxRelatedRefs';
import { checkFluxResourcePath } from '../validation';
import { ListableKind } from './discovery';
import { ObjectRef } from './objectSource';

export interface FluxScope {
  namespace: string;
  fluxResourcePath?: string;
}

export interface FluxObjectsRead {
  objects: KubernetesObject[];
  errors: GitlabEnvError[];
}

/** Codes that already say what went wrong with a kind; others read KIND_FAILED. */
const KEPT_KIND_CODES = new Set([
  'UPSTREAM_TIMEOUT',
  'UPSTREAM_MALFORMED',
  'LIMIT_REACHED',
  'INVALID_ENVIRONMENT_SETTING',
]);

/** A kind that could not be listed or read, as an environment's error names it. */
export function kindError(error: unknown, label: string): GitlabEnvError {
  const detail = asGitlabEnvError(error);
  if (detail.code === 'KIND_FORBIDDEN') return { ...detail, resource: label };
  return {
    ...detail,
    code: KEPT_KIND_CODES.has(detail.code) ? detail.code : 'KIND_FAILED',
    message: `Listing ${label} failed: ${detail.message}`,
    resource: label,
  };
}

/**
 * What an environment's lists do not cover: the Flux object that deploys
 * it and what that object names outside the namespace (inventory entries
 * in other namespaces and cluster-scoped ones, its source chain, its
 * dependencies), each through `get` (which may answer from what informers
 * hold). Bounded; a read that fails is that kind's entry of `errors`.
 */
export async function readFluxObjects(
  get: (ref: ObjectRef) => Promise<KubernetesObject | undefined>,
  kinds: ListableKind[],
  scope: FluxScope,
): Promise<FluxObjectsRead> {
  const errors: GitlabEnvError[] = [];
  const flux = await readFluxObject(get, scope.fluxResourcePath, errors);
  if (!flux) return { objects: [], errors };
  const related = await readFluxRelated(
    get,
    kinds,
    flux,
    scope.namespace,
    errors,
  );
  return { objects: [flux, ...related], errors };
}

async function readFluxObject(
  get: (ref: ObjectRef) => Promise<KubernetesObject | undefined>,
  fluxResourcePath: string | undefined,
  errors: GitlabEnvError[],
): Promise<KubernetesObject | undefined> {
  if (!fluxResourcePath) return undefined;
  let path;
  try {
    path = checkFluxResourcePath(fluxResourcePath, 'The environment');
  } catch (error) {
    errors.push(asGitlabEnvError(error));
    return undefined;
  }
  const label = `${path.group}/${path.kind}`;
  try {
    const flux = await get({ ...path, label });
    if (!flux)
      errors.push({
        code: 'FLUX_OBJECT_MISSING',
        message: `The environment names the Flux object ${path.kind} ${path.namespace}/${path.name} (its Flux resource path), which the cluster does not hold: its inventory, source and sync state cannot be shown.`,
        hint: `Fix the environment's Flux resource path in GitLab, or create the ${path.kind} it names (kubectl get ${path.plural}.${path.group} -n ${path.namespace}).`,
        resource: label,
      });
    return flux;
  } catch (error) {
    errors.push({ ...asGitlabEnvError(error), resource: label });
    return undefined;
  }
}

/**
 * What the Flux object names beyond the namespace (see fluxRelatedRefs),
 * then the sources of the HelmCharts read (a HelmRelease's chart → its
 * HelmRepository).
 */
async function readFluxRelated(
  get: (ref: ObjectRef) => Promise<KubernetesObject | undefined>,
  kinds: ListableKind[],
  flux: KubernetesObject,
  namespace: string,
  errors: GitlabEnvError[],
): Promise<KubernetesObject[]> {
  const { refs } = fluxRelatedRefs(flux, kinds, namespace);
  if (refs.length > MAX_RELATED_READS) {
    errors.push({
      code: 'LIMIT_REACHED',
      message: `The Flux object names ${refs.length} objects outside the namespace ${namespace}; the first ${MAX_RELATED_READS} are read, the rest show as Missing.`,
      resource: `${flux.kind}/${flux.metadata?.name}`,
    });
  }
  const read = (ref: ObjectRef) =>
    get(ref).catch(error => {
      errors.push(kindError(error, ref.label));
      return undefined;
    });
  const first = (
    await Promise.all(refs.slice(0, MAX_RELATED_READS).map(read))
  ).filter((o): o is KubernetesObject => !!o);
  const chartSources = first
    .filter(o => o.kind === 'HelmChart')
    .map(chart => fluxSourceKeyOf(chart))
    .map(key => key && refOf(key, kinds))
    .filter((ref): ref is ObjectRef => !!ref);
  const second = (await Promise.all(chartSources.map(read))).filter(
    (o): o is KubernetesObject => !!o,
  );
  return [...first, ...second];
}
