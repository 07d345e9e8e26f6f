import {
  GitlabEnvError,
  KubernetesObject,
  parseFluxInventoryId,
  parseFluxResourcePath,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { asGitlabEnvError, failure, GitlabEnvFailure } from '../errors';
import { ListableKind } from './discovery';
import { KasClient } from './kasClient';
import { itemKind, normalizeObject } from './objects';
import { isRecord } from './json';

export interface ReadScope {
  namespace: string;
  labelSelector?: string;
  fluxResourcePath?: string;
}

export interface ReadResult {
  objects: KubernetesObject[];
  errors: GitlabEnvError[];
}

const PAGE_SIZE = 500;

async function listKind(
  kas: KasClient,
  kind: ListableKind,
  scope: ReadScope,
): Promise<KubernetesObject[]> {
  const objects: KubernetesObject[] = [];
  let token: string | undefined;
  do {
    const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
    if (scope.labelSelector) query.set('labelSelector', scope.labelSelector);
    if (token) query.set('continue', token);
    const path = `${kind.basePath}/namespaces/${encodeURIComponent(
      scope.namespace,
    )}/${kind.plural}?${query}`;
    const list = await kas.get(path, kind.label);
    if (list === undefined) return objects;
    if (!isRecord(list) || !Array.isArray(list.items)) {
      throw failure(
        'UPSTREAM_MALFORMED',
        `The list of ${kind.label} is not a Kubernetes list.`,
        {
          resource: kind.label,
        },
      );
    }
    const defaults = {
      apiVersion:
        typeof list.apiVersion === 'string'
          ? list.apiVersion
          : kind.basePath.replace(/^\/apis?\//, ''),
      kind: itemKind(list.kind, kind.kind),
    };
    for (const item of list.items) {
      const object = normalizeObject(item, defaults);
      if (object) objects.push(object);
    }
    const next = list.metadata?.continue;
    token =
      typeof next === 'string' && next !== '' && next !== token
        ? next
        : undefined;
  } while (token);
  return objects;
}

/** Failures that concern the whole agent, not one kind: no point in a partial answer. */
const AGENT_WIDE = new Set([
  'AGENT_NOT_SHARED',
  'AGENT_NOT_CONNECTED',
  'KAS_UNAVAILABLE',
]);

function kindError(error: unknown, kind: ListableKind): GitlabEnvError {
  const detail = asGitlabEnvError(error);
  if (detail.code === 'KIND_FORBIDDEN')
    return { ...detail, resource: kind.label };
  return {
    ...detail,
    code: detail.code === 'UPSTREAM_TIMEOUT' ? detail.code : 'KIND_FAILED',
    message: `Listing ${kind.label} failed: ${detail.message}`,
    resource: kind.label,
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
 * namespace (in parallel; the KAS client bounds concurrency), the Flux object
 * that deploys it and what that object's inventory names outside the
 * namespace. A kind that fails becomes an entry of `errors`; failures that
 * concern the whole agent fail the read.
 */
export async function readEnvironmentObjects(
  kas: KasClient,
  kinds: ListableKind[],
  scope: ReadScope,
): Promise<ReadResult> {
  const errors: GitlabEnvError[] = [];
  const byKey = new Map<string, KubernetesObject>();
  const add = (o: KubernetesObject) => byKey.set(keyOf(o), o);

  const [lists, flux] = await Promise.all([
    Promise.all(
      kinds.map(kind =>
        listKind(kas, kind, scope).catch(error => {
          if (
            error instanceof GitlabEnvFailure &&
            AGENT_WIDE.has(error.detail.code)
          )
            throw error;
          errors.push(kindError(error, kind));
          return [];
        }),
      ),
    ),
    readFluxObject(kas, scope.fluxResourcePath, errors),
  ]);
  lists.flat().forEach(add);
  if (flux) {
    add(flux);
    const extra = await readInventoryOutsideNamespace(
      kas,
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
  kas: KasClient,
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
  const { group, version, namespace, plural, name } = path;
  const resource = `${group}/${path.kind}`;
  try {
    const object = await kas.get(
      `/apis/${group}/${version}/namespaces/${namespace}/${plural}/${name}`,
      resource,
    );
    return object === undefined
      ? undefined
      : normalizeObject(object, {
          apiVersion: `${group}/${version}`,
          kind: path.kind,
        });
  } catch (error) {
    if (error instanceof GitlabEnvFailure && AGENT_WIDE.has(error.detail.code))
      throw error;
    errors.push({ ...asGitlabEnvError(error), resource });
    return undefined;
  }
}

async function readInventoryOutsideNamespace(
  kas: KasClient,
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
    const path = `${kind.basePath}/namespaces/${encodeURIComponent(
      entry!.namespace,
    )}/${kind.plural}/${encodeURIComponent(entry!.name)}`;
    try {
      const object = await kas.get(path, kind.label);
      return object === undefined
        ? undefined
        : normalizeObject(object, {
            apiVersion: kind.group
              ? `${kind.group}/${kind.version}`
              : kind.version,
            kind: kind.kind,
          });
    } catch (error) {
      if (
        error instanceof GitlabEnvFailure &&
        AGENT_WIDE.has(error.detail.code)
      )
        throw error;
      errors.push(kindError(error, kind));
      return undefined;
    }
  });
  return (await Promise.all(reads)).filter((o): o is KubernetesObject => !!o);
}
