import { KubernetesObject } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { failure } from '../errors';
import type { ListableKind } from './discovery';
import { isRecord } from './json';
import { KasClient } from './kasClient';
import { itemKind, normalizeObject } from './objects';

/** One object's address: enough to GET it and to name it in errors. */
export interface ObjectRef {
  group: string;
  version: string;
  plural: string;
  kind: string;
  namespace: string;
  name: string;
  /** How errors name the kind, e.g. `kustomize.toolkit.fluxcd.io/Kustomization`. */
  label: string;
}

/**
 * Where an environment's objects come from. The entity tab reads KAS
 * namespace by namespace; the overview reads many namespaces of an agent at
 * once (see readAcrossCluster). Both answer the same questions, so one
 * reader builds an environment's objects and errors from either.
 * Failures are GitlabEnvFailure.
 */
export interface ObjectSource {
  /** Every object of a kind in a namespace, with the scope's label selector. */
  list(kind: ListableKind, namespace: string): Promise<KubernetesObject[]>;
  /** One object; undefined when it does not exist. */
  get(ref: ObjectRef): Promise<KubernetesObject | undefined>;
}

const PAGE_SIZE = 500;

export function apiVersionOf(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}

export function basePathOf(group: string, version: string): string {
  return group ? `/apis/${group}/${version}` : `/api/${version}`;
}

/**
 * Lists a kind in one namespace, or across the cluster when `namespace` is
 * undefined, following `continue` tokens. `keep` is asked for each item's
 * namespace and name before the item is normalized, so a cluster-wide list
 * spends nothing on, and holds nothing of, what its caller drops.
 */
export async function listKind(
  kas: KasClient,
  kind: ListableKind,
  options: {
    namespace?: string;
    labelSelector?: string;
    keep?: (namespace: string, name: string) => boolean;
  },
): Promise<KubernetesObject[]> {
  const { namespace, labelSelector, keep } = options;
  const objects: KubernetesObject[] = [];
  const collection = `${kind.basePath}${
    namespace === undefined
      ? ''
      : `/namespaces/${encodeURIComponent(namespace)}`
  }/${kind.plural}`;
  let token: string | undefined;
  do {
    const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
    if (labelSelector) query.set('labelSelector', labelSelector);
    if (token) query.set('continue', token);
    const list = await kas.get(`${collection}?${query}`, kind.label);
    if (list === undefined) return objects;
    if (!isRecord(list) || !Array.isArray(list.items)) {
      throw failure(
        'UPSTREAM_MALFORMED',
        `The list of ${kind.label} is not a Kubernetes list.`,
        { resource: kind.label },
      );
    }
    const defaults = {
      apiVersion:
        typeof list.apiVersion === 'string'
          ? list.apiVersion
          : apiVersionOf(kind.group, kind.version),
      kind: itemKind(list.kind, kind.kind),
    };
    for (const item of list.items) {
      if (keep && !keep(...namespaceAndName(item))) continue;
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

function namespaceAndName(item: unknown): [string, string] {
  const metadata = isRecord(item) ? item.metadata : undefined;
  if (!isRecord(metadata)) return ['', ''];
  return [
    typeof metadata.namespace === 'string' ? metadata.namespace : '',
    typeof metadata.name === 'string' ? metadata.name : '',
  ];
}

export async function getObject(
  kas: KasClient,
  ref: ObjectRef,
): Promise<KubernetesObject | undefined> {
  const object = await kas.get(
    `${basePathOf(ref.group, ref.version)}/namespaces/${encodeURIComponent(
      ref.namespace,
    )}/${ref.plural}/${encodeURIComponent(ref.name)}`,
    ref.label,
  );
  return object === undefined
    ? undefined
    : normalizeObject(object, {
        apiVersion: apiVersionOf(ref.group, ref.version),
        kind: ref.kind,
      });
}

/** Reads straight from KAS, one request per kind and namespace. */
export function kasObjectSource(
  kas: KasClient,
  labelSelector?: string,
): ObjectSource {
  return {
    list: (kind, namespace) =>
      listKind(kas, kind, { namespace, labelSelector }),
    get: ref => getObject(kas, ref),
  };
}
