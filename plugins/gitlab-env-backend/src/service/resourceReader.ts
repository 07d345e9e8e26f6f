import {
  GitlabEnvError,
  KubernetesObject,
  parseFluxInventoryId,
  parseFluxResourcePath,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { asGitlabEnvError, GitlabEnvFailure } from '../errors';
import { ListableKind } from './discovery';
import { ObjectSource } from './objectSource';

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

function kindError(error: unknown, label: string): GitlabEnvError {
  const detail = asGitlabEnvError(error);
  if (detail.code === 'KIND_FORBIDDEN') return { ...detail, resource: label };
  return {
    ...detail,
    code: detail.code === 'UPSTREAM_TIMEOUT' ? detail.code : 'KIND_FAILED',
    message: `Listing ${label} failed: ${detail.message}`,
    resource: label,
  };
}

function keyOf(o: KubernetesObject): string {
  return (
    o.metadata?.uid ??
    `${o.apiVersion}/${o.kind}/${o.metadata?.namespace}/${o.metadata?.name}`
  );
}

/**
 * Reads what an environment runs: every listable namespaced kind in its
 * namespace (in parallel; the source bounds concurrency), the Flux object
 * that deploys it and what that object's inventory names outside the
 * namespace. A kind that fails becomes an entry of `errors`; failures that
 * concern the whole agent fail the read.
 */
export async function readEnvironmentObjects(
  source: ObjectSource,
  kinds: ListableKind[],
  scope: ReadScope,
): Promise<ReadResult> {
  const errors: GitlabEnvError[] = [];
  const byKey = new Map<string, KubernetesObject>();
  const add = (o: KubernetesObject) => byKey.set(keyOf(o), o);

  const [lists, flux] = await Promise.all([
    Promise.all(
      kinds.map(kind =>
        source.list(kind, scope.namespace).catch(error => {
          if (isAgentWideFailure(error)) throw error;
          errors.push(kindError(error, kind.label));
          return [];
        }),
      ),
    ),
    readFluxObject(source, scope.fluxResourcePath, errors),
  ]);
  lists.flat().forEach(add);
  if (flux) {
    add(flux);
    const extra = await readInventoryOutsideNamespace(
      source,
      kinds,
      flux,
      scope.namespace,
      errors,
    );
    extra.forEach(add);
  }
  return { objects: [...byKey.values()], errors };
}

async function readFluxObject(
  source: ObjectSource,
  fluxResourcePath: string | undefined,
  errors: GitlabEnvError[],
): Promise<KubernetesObject | undefined> {
  if (!fluxResourcePath) return undefined;
  const path = parseFluxResourcePath(fluxResourcePath);
  if (!path) {
    errors.push({
      code: 'KIND_FAILED',
      message: `The environment's Flux resource path '${fluxResourcePath}' is not <group>/<version>/namespaces/<namespace>/<plural>/<name>.`,
      resource: fluxResourcePath,
    });
    return undefined;
  }
  const label = `${path.group}/${path.kind}`;
  try {
    return await source.get({ ...path, label });
  } catch (error) {
    if (isAgentWideFailure(error)) throw error;
    errors.push({ ...asGitlabEnvError(error), resource: label });
    return undefined;
  }
}

async function readInventoryOutsideNamespace(
  source: ObjectSource,
  kinds: ListableKind[],
  flux: KubernetesObject,
  namespace: string,
  errors: GitlabEnvError[],
): Promise<KubernetesObject[]> {
  const entries: unknown[] = Array.isArray(flux.status?.inventory?.entries)
    ? flux.status.inventory.entries
    : [];
  const wanted = entries
    .map(entry => parseFluxInventoryId((entry as { id?: any })?.id))
    .filter(e => e && e.namespace !== '' && e.namespace !== namespace);
  const reads = wanted.map(async entry => {
    const kind = kinds.find(
      k => k.group === entry!.group && k.kind === entry!.kind,
    );
    if (!kind) return undefined;
    try {
      return await source.get({
        ...kind,
        namespace: entry!.namespace,
        name: entry!.name,
      });
    } catch (error) {
      if (isAgentWideFailure(error)) throw error;
      errors.push(kindError(error, kind.label));
      return undefined;
    }
  });
  return (await Promise.all(reads)).filter((o): o is KubernetesObject => !!o);
}
