import {
  fluxSourceKeyOf,
  GitlabEnvError,
  KubernetesObject,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { asGitlabEnvError, GitlabEnvFailure } from '../errors';
import { fluxRelatedRefs, MAX_RELATED_READS, refOf } from './fluxRelatedRefs';
import { checkFluxResourcePath } from '../validation';
import { ListableKind, namespacedKinds } from './discovery';
import { ObjectRef, ObjectSource } from './objectSource';

export interface ReadScope {
  namespace: string;
  fluxResourcePath?: string;
}

export interface ReadResult {
  objects: KubernetesObject[];
  errors: GitlabEnvError[];
}

/** Failures that concern the whole agent, not one kind: no point in a partial answer. */
const AGENT_WIDE = new Set([
  'AGENT_NOT_SHARED',
  'AGENT_NEVER_CONNECTED',
  'AGENT_NOT_CONNECTED',
  'KAS_UNAVAILABLE',
]);

export function isAgentWideFailure(error: unknown): boolean {
  return error instanceof GitlabEnvFailure && AGENT_WIDE.has(error.detail.code);
}

/** Codes that already say what went wrong with a kind; others read KIND_FAILED. */
const KEPT_KIND_CODES = new Set([
  'UPSTREAM_TIMEOUT',
  'UPSTREAM_MALFORMED',
  'LIMIT_REACHED',
  'INVALID_ENVIRONMENT_SETTING',
]);

function kindError(error: unknown, label: string): GitlabEnvError {
  const detail = asGitlabEnvError(error);
  if (detail.code === 'KIND_FORBIDDEN') return { ...detail, resource: label };
  return {
    ...detail,
    code: KEPT_KIND_CODES.has(detail.code) ? detail.code : 'KIND_FAILED',
    message: `Listing ${label} failed: ${detail.message}`,
    resource: label,
  };
}

function identityOf(o: KubernetesObject): string {
  return `${o.apiVersion} ${o.kind} ${o.metadata?.namespace ?? ''}/${
    o.metadata?.name
  }`;
}

/**
 * Objects by uid, the same object read twice (a list and the Flux
 * inventory) counted once. Distinct objects sharing a uid break the API's
 * promise: the first is kept and the rest are named in one warning per uid,
 * never merged silently.
 */
class ObjectsByUid {
  private readonly byKey = new Map<string, KubernetesObject>();
  private readonly clashes = new Map<string, string[]>();

  add(o: KubernetesObject) {
    const key = o.metadata?.uid ?? identityOf(o);
    const held = this.byKey.get(key);
    if (!held) this.byKey.set(key, o);
    else if (identityOf(held) !== identityOf(o)) {
      const names = this.clashes.get(key) ?? [identityOf(held)];
      names.push(identityOf(o));
      this.clashes.set(key, names);
    }
  }

  get objects(): KubernetesObject[] {
    return [...this.byKey.values()];
  }

  warnings(): GitlabEnvError[] {
    return [...this.clashes].map(([uid, names]) => ({
      code: 'UPSTREAM_MALFORMED',
      message: `${names.length} objects share the uid ${uid.slice(
        0,
        64,
      )}: ${names.slice(0, 5).join(', ')}${
        names.length > 5 ? ` and ${names.length - 5} more` : ''
      }; only the first is shown.`,
      resource: names[0],
    }));
  }
}

/**
 * Reads what an environment runs: every listable namespaced kind in its
 * namespace (in parallel; the source bounds concurrency), the Flux object
 * that deploys it and what that object names outside the namespace
 * (inventory entries in other namespaces and cluster-scoped ones, its
 * source chain, its dependencies). A kind that fails becomes an entry of `errors`, as do objects
 * left out as malformed and uids shared by distinct objects; failures that
 * concern the whole agent fail the read when every list met one.
 */
export async function readEnvironmentObjects(
  source: ObjectSource,
  kinds: ListableKind[],
  scope: ReadScope,
): Promise<ReadResult> {
  const errors: GitlabEnvError[] = [];
  const byUid = new ObjectsByUid();
  const add = (o: KubernetesObject) => byUid.add(o);

  // An agent-wide failure (agent not shared, not connected, KAS down) fails
  // the read only when every list met one: a reset on one list is that
  // kind's warning, not the environment's failure.
  const agentWide: unknown[] = [];
  const listed = namespacedKinds(kinds);
  const [lists, flux] = await Promise.all([
    Promise.all(
      listed.map(kind =>
        source.list(kind, scope.namespace).catch(error => {
          if (isAgentWideFailure(error)) agentWide.push(error);
          errors.push(kindError(error, kind.label));
          return [];
        }),
      ),
    ),
    readFluxObject(source, scope.fluxResourcePath, errors),
  ]);
  if (listed.length > 0 && agentWide.length === listed.length)
    throw agentWide[0];
  lists.flat().forEach(add);
  if (flux) {
    add(flux);
    const extra = await readFluxRelated(
      source,
      kinds,
      flux,
      scope.namespace,
      errors,
    );
    extra.forEach(add);
  }
  return { objects: byUid.objects, errors: [...errors, ...byUid.warnings()] };
}

async function readFluxObject(
  source: ObjectSource,
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
    const flux = await source.get({ ...path, label });
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
 * HelmRepository). Bounded; a kind that fails is that kind's warning.
 */
async function readFluxRelated(
  source: ObjectSource,
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
    source.get(ref).catch(error => {
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
  const events = await fluxEvents(source, kinds, flux, namespace, errors);
  return [...first, ...second, ...events];
}

/**
 * The Events about the Flux object when it lives in another namespace
 * (flux-system): its history and helm-controller's drift warnings. One list
 * of that namespace's Events, kept only for the Flux object.
 */
async function fluxEvents(
  source: ObjectSource,
  kinds: ListableKind[],
  flux: KubernetesObject,
  namespace: string,
  errors: GitlabEnvError[],
): Promise<KubernetesObject[]> {
  const fluxNamespace = flux.metadata?.namespace;
  const eventKind = kinds.find(k => k.group === '' && k.kind === 'Event');
  if (!eventKind || !fluxNamespace || fluxNamespace === namespace) return [];
  const events = await source.list(eventKind, fluxNamespace).catch(error => {
    errors.push(kindError(error, eventKind.label));
    return [];
  });
  return events.filter(event => {
    const involved = (event as { involvedObject?: any }).involvedObject;
    return (
      involved?.kind === flux.kind && involved?.name === flux.metadata?.name
    );
  });
}
