import {
  GitlabEnvError,
  KubernetesObject,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { failure, GitlabEnvFailure } from '../errors';
import { collectionPath, objectPath } from '../validation';
import type { ListableKind } from './discovery';
import { isRecord } from '../validation/json';
import { KasClient } from '../transport/kasClient';
import { describeItem, inspectObject, PlannedKind } from './objects';
import { ReadBounds } from './readBounds';

/** One object's address: enough to GET it and to name it in errors. @public */
export interface ObjectRef {
  group: string;
  version: string;
  plural: string;
  kind: string;
  namespace: string;
  name: string;
  /** How errors name the kind, e.g. `kustomize.toolkit.fluxcd.io/Kustomization`. */
  label: string;
  /** A cluster-scoped kind (from discovery): `namespace` is '' and not in the path. */
  clusterScoped?: boolean;
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

/** The first page of a list, as kubectl and client-go's pager ask it. */
const PAGE_SIZE = 500;
/**
 * The largest later page: each page is a round trip after the last, so a
 * long list (a cluster's Pods) asks for what remains in few pages. A page
 * the answer bound (maxResponseBytes) refuses is asked again at PAGE_SIZE.
 */
const MAX_PAGE_SIZE = 5000;

function isLimitReached(error: unknown): boolean {
  return (
    error instanceof GitlabEnvFailure && error.detail.code === 'LIMIT_REACHED'
  );
}

export function apiVersionOf(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}

export { basePathOf } from '../validation';

function limitWarning(message: string, resource: string): GitlabEnvError {
  return {
    code: 'LIMIT_REACHED',
    message,
    resource,
    hint: 'Narrow the read with the gitlab-env/label-selector annotation, or raise the limit in gitlabEnv.limits.',
  };
}

/**
 * Lists a kind in one namespace, or across the cluster when `namespace` is
 * undefined, following `continue` tokens. The walk is bounded: it stops on a
 * token it has already followed (a loop), after `maxPagesPerList` pages,
 * when the read's object budget runs out, and when its signal ends it; each
 * stop is a warning and the objects read so far are kept. Items that are not
 * objects (wrong metadata types, nesting too deep) are dropped with a
 * warning naming them. `keep` is asked for each item's namespace and name
 * before the item is normalized, so a cluster-wide list spends nothing on,
 * and holds nothing of, what its caller drops.
 */
export async function listKind(
  kas: KasClient,
  kind: ListableKind,
  options: {
    namespace?: string;
    labelSelector?: string;
    keep?: (namespace: string, name: string) => boolean;
    bounds: ReadBounds;
    /** Told the list's resourceVersion (a watch resumes from it). */
    onResourceVersion?: (resourceVersion: string) => void;
  },
): Promise<KubernetesObject[]> {
  const { namespace, labelSelector, keep, bounds, onResourceVersion } = options;
  const objects: KubernetesObject[] = [];
  const collection = collectionPath(
    kind,
    namespace,
    `The cluster's discovery (${kind.label})`,
  );
  const planned = {
    apiVersion: apiVersionOf(kind.group, kind.version),
    kind: kind.kind,
  };
  const followed = new Set<string>();
  let token: string | undefined;
  let limit = PAGE_SIZE;
  let grow = true;
  // Pages are counted in PAGE_SIZE units of what came, so a larger page
  // uses its share of maxPagesPerList.
  let pages = 0;
  for (;;) {
    const query = new URLSearchParams({ limit: String(limit) });
    if (labelSelector) query.set('labelSelector', labelSelector);
    if (token) query.set('continue', token);
    let list: any;
    try {
      list = await kas.get(`${collection}?${query}`, kind.label);
    } catch (error) {
      if (limit === PAGE_SIZE || !isLimitReached(error)) throw error;
      limit = PAGE_SIZE;
      grow = false;
      continue;
    }
    if (list === undefined) return objects;
    if (!isRecord(list) || !Array.isArray(list.items)) {
      throw failure(
        'UPSTREAM_MALFORMED',
        `The list of ${kind.label} is not a Kubernetes list.`,
        { resource: kind.label },
      );
    }
    pages += Math.max(1, Math.ceil(list.items.length / PAGE_SIZE));
    for (const item of list.items) {
      const [itemNamespace, name] = namespaceAndName(item);
      if (keep && !keep(itemNamespace, name)) continue;
      const object = inspectOrWarn(
        item,
        planned,
        kind.label,
        bounds,
        itemNamespace || namespace,
        true,
      );
      if (!object) continue;
      if (!bounds.take()) return objects;
      objects.push(object);
    }
    const listedVersion = list.metadata?.resourceVersion;
    // Opaque to clients (API conventions), but it goes back into a query.
    if (
      typeof listedVersion === 'string' &&
      /^[\w.-]{1,64}$/.test(listedVersion)
    )
      onResourceVersion?.(listedVersion);
    const next = list.metadata?.continue;
    if (typeof next !== 'string' || next === '') return objects;
    if (followed.has(next)) {
      bounds.warn(
        {
          code: 'UPSTREAM_MALFORMED',
          message: `The cluster answered the list of ${kind.label} with a continue token it had already sent (a pagination loop); showing the ${objects.length} objects read before it.`,
          resource: kind.label,
        },
        namespace,
      );
      return objects;
    }
    if (pages >= bounds.maxPagesPerList) {
      bounds.warn(
        limitWarning(
          `The list of ${kind.label} has more than ${bounds.maxPagesPerList} pages of ${PAGE_SIZE} (gitlabEnv.limits.maxPagesPerList); showing the first ${objects.length} objects.`,
          kind.label,
        ),
        namespace,
      );
      return objects;
    }
    followed.add(next);
    token = next;
    // What remains (the API server says so without a selector), else twice
    // the last page, within MAX_PAGE_SIZE and the pages left.
    const remaining = list.metadata?.remainingItemCount;
    if (grow)
      limit = Math.max(
        PAGE_SIZE,
        Math.min(
          MAX_PAGE_SIZE,
          (bounds.maxPagesPerList - pages) * PAGE_SIZE,
          typeof remaining === 'number' && remaining > 0
            ? remaining
            : limit * 2,
        ),
      );
  }
}

/**
 * The item as an object, or a warning naming it and why it is left out.
 * `owned`: the item is a parsed answer held by nothing else, changed in
 * place (see inspectObject). Its short string values are pooled in
 * `bounds.strings`, if any.
 */
export function inspectOrWarn(
  item: unknown,
  planned: PlannedKind,
  label: string,
  bounds: ReadBounds,
  namespace: string | undefined,
  owned = false,
): KubernetesObject | undefined {
  const { object, problem } = inspectObject(item, planned, {
    owned,
    strings: bounds.strings,
  });
  if (!object) {
    bounds.warn(
      {
        code: 'UPSTREAM_MALFORMED',
        message: `The cluster answered ${describeItem(
          item,
          planned,
        )}, which is left out: ${problem}.`,
        resource: label,
      },
      namespace,
    );
  }
  return object;
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
  bounds: ReadBounds,
): Promise<KubernetesObject | undefined> {
  const path = objectPath(
    ref,
    ref.clusterScoped ? undefined : ref.namespace,
    ref.name,
    ref.label,
  );
  const planned = {
    apiVersion: apiVersionOf(ref.group, ref.version),
    kind: ref.kind,
  };
  const item = await kas.get(path, ref.label);
  if (item === undefined) return undefined;
  return inspectOrWarn(item, planned, ref.label, bounds, ref.namespace, true);
}

/** Reads straight from KAS, one request per kind and namespace. */
export function kasObjectSource(
  kas: KasClient,
  bounds: ReadBounds,
  labelSelector?: string,
): ObjectSource {
  return {
    list: (kind, namespace) =>
      listKind(kas, kind, { namespace, labelSelector, bounds }),
    get: ref => getObject(kas, ref, bounds),
  };
}
