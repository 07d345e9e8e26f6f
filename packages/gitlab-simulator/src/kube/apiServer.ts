import { IncomingMessage, ServerResponse } from 'http';
import { KubeObject } from '../scenario/types';
import {
  apiVersionOf,
  BUILTIN_RESOURCES,
  catalogWith,
  ResourceCatalog,
} from '../cluster/resources';
import {
  parseFieldSelector,
  parseLabelSelector,
  SelectorError,
} from '../cluster/selectors';
import { sendJson } from '../http/respond';
import {
  aggregatedDiscovery,
  aggregatedDiscoveryMediaType,
  apiGroup,
  coreVersions,
  groupList,
  resourceList,
  versionInfo,
} from './discovery';
import { logOptions, logRequestError, streamLogs } from './logs';
import { handleMetrics, METRICS_GROUP, METRICS_RESOURCES } from './metrics';
import { handleServiceProxy } from './serviceProxy';
import {
  badRequest,
  failure,
  forbidden,
  methodNotAllowed,
  notFound,
  pathNotFound,
  sendStatus,
} from './status';
import { parseTarget, served, Target } from './target';
import {
  dryRunOf,
  handleCreate,
  handleDelete,
  handleWrite,
  toScale,
} from './writes';
import type { ActiveWatch, KubeApi } from './kubeApi';
import {
  expiredStatus,
  handleWatch,
  tooLargeResourceVersion,
  waitForRevision,
} from './watch';
import { handleAccessReview } from './access';
import {
  includeObjectOf,
  TABLE_MEDIA_TYPE,
  toTable,
  wantsTable,
} from './table';

export type { KubeApi };

const BUILTIN = new Set(BUILTIN_RESOURCES);

/** An object as served at the requested version (CRDs may serve several). */

function listItem(object: KubeObject, target: Target): KubeObject {
  // kube-apiserver leaves kind/apiVersion out of list items for built-in types.
  if (BUILTIN.has(target.resource)) {
    const { kind: _kind, apiVersion: _apiVersion, ...rest } = object;
    return rest as KubeObject;
  }
  return served(object, target);
}

function objectKey(o: KubeObject) {
  return `${o.metadata.namespace ?? ''}/${o.metadata.name}`;
}

/** Is the object after `key` (`namespace/name`) in the store's (namespace, name) order? */
function isAfter(o: KubeObject, key: string): boolean {
  const slash = key.indexOf('/');
  const namespace = key.slice(0, slash);
  const name = key.slice(slash + 1);
  const ns = o.metadata.namespace ?? '';
  return ns === namespace ? o.metadata.name > name : ns > namespace;
}

function encodeContinue(resourceVersion: string, start: string) {
  return Buffer.from(
    JSON.stringify({ v: 'meta.k8s.io/v1', rv: Number(resourceVersion), start }),
  ).toString('base64url');
}

function decodeContinue(
  token: string,
): { rv: number; start: string } | undefined {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    return typeof parsed.start === 'string' && Number.isInteger(parsed.rv)
      ? { rv: parsed.rv, start: parsed.start }
      : undefined;
  } catch {
    return undefined;
  }
}

function verbOf(method: string, target: Target, watch: boolean) {
  if (method === 'GET' && target.name) return 'get';
  if (method === 'GET') return watch ? 'watch' : 'list';
  return (
    { DELETE: 'delete', PATCH: 'patch', PUT: 'update', POST: 'create' }[
      method
    ] ?? method.toLowerCase()
  );
}

/** What discovery describes: the stored resources, and metrics-server's when it runs. */
function catalog(api: KubeApi): ResourceCatalog {
  return catalogWith(
    api.store.registry,
    api.metricsApi() ? METRICS_RESOURCES : [],
  );
}

/** What `GET /` lists: every discovery path, like kube-apiserver. */
function rootPaths(api: KubeApi): string[] {
  const groups = catalog(api)
    .groups()
    .filter(g => g.name !== '');
  return [
    '/api',
    '/api/v1',
    '/apis',
    ...groups.flatMap(g => [
      `/apis/${g.name}`,
      ...g.versions.map(v => `/apis/${g.name}/${v}`),
    ]),
    '/healthz',
    '/livez',
    '/readyz',
    '/version',
  ];
}

export async function handleKubeRequest(
  api: KubeApi,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  query: URLSearchParams,
) {
  const segments = path.split('/').filter(Boolean);
  const method = req.method ?? 'GET';
  if (path === '/version' || path === '/version/') {
    sendJson(res, 200, versionInfo(api.kubernetesVersion));
    return;
  }
  if (
    ['healthz', 'readyz', 'livez'].includes(segments[0]) &&
    segments.length === 1
  ) {
    res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('ok');
    return;
  }
  if (segments.length === 0) {
    sendJson(res, 200, { paths: rootPaths(api) });
    return;
  }
  if (segments[0] !== 'api' && segments[0] !== 'apis') {
    sendStatus(res, pathNotFound());
    return;
  }
  if (segments.length === 1) {
    const aggregated = aggregatedDiscoveryMediaType(
      req.headers.accept,
      api.kubernetesVersion,
    );
    if (aggregated) {
      sendJson(
        res,
        200,
        aggregatedDiscovery(catalog(api), segments[0] === 'api', aggregated),
        { 'Content-Type': aggregated, Vary: 'Accept' },
      );
      return;
    }
    sendJson(
      res,
      200,
      segments[0] === 'api' ? coreVersions() : groupList(catalog(api)),
    );
    return;
  }
  if (segments[0] === 'apis' && segments.length === 2) {
    const doc = apiGroup(catalog(api), segments[1]);
    if (doc) {
      sendJson(res, 200, doc);
    } else {
      sendStatus(res, pathNotFound());
    }
    return;
  }
  if (
    segments[0] === 'api' &&
    segments[1] === 'v1' &&
    segments[2] === 'namespaces' &&
    segments[4] === 'services' &&
    segments[6] === 'proxy'
  ) {
    const prefix = `/${segments.slice(0, 7).join('/')}`;
    await handleServiceProxy(
      api,
      req,
      res,
      segments[3],
      decodeURIComponent(segments[5]),
      path.slice(path.indexOf(prefix) + prefix.length),
      query,
    );
    return;
  }
  if (segments[0] === 'apis' && segments[1] === METRICS_GROUP) {
    if (!api.metricsApi() || segments[2] !== 'v1beta1') {
      sendStatus(res, pathNotFound());
    } else if (segments.length === 3) {
      sendJson(res, 200, resourceList(catalog(api), METRICS_GROUP, 'v1beta1'));
    } else {
      handleMetrics(api, method, res, segments.slice(3), query);
    }
    return;
  }
  const target = parseTarget(api.store, segments);
  if (target === 'discovery') {
    const core = segments[0] === 'api';
    const doc = resourceList(
      catalog(api),
      core ? '' : segments[1],
      core ? segments[1] : segments[2],
    );
    if (doc) {
      sendJson(res, 200, doc);
    } else {
      sendStatus(res, pathNotFound());
    }
    return;
  }
  if ('kind' in target) {
    sendStatus(res, target);
    return;
  }
  if (
    target.resource.namespaced &&
    target.name &&
    target.namespace === undefined
  ) {
    sendStatus(res, pathNotFound());
    return;
  }
  const watch = query.get('watch') === 'true' || query.get('watch') === '1';
  const verb = verbOf(method, target, watch);
  if (
    api.isForbidden(target.resource, target.subresource, target.namespace, verb)
  ) {
    sendStatus(
      res,
      forbidden(
        target.resource,
        verb,
        target.namespace,
        target.name,
        target.subresource,
      ),
    );
    return;
  }
  if (target.resource.plural === 'selfsubjectaccessreviews') {
    if (method === 'POST' && !target.name) {
      await handleAccessReview(api, req, res);
    } else {
      sendStatus(res, methodNotAllowed());
    }
    return;
  }
  const dryRun = method === 'GET' ? false : dryRunOf(method, query);
  if (typeof dryRun !== 'boolean') {
    sendStatus(res, dryRun);
    return;
  }
  const table = method === 'GET' && wantsTable(req.headers.accept);
  const include = includeObjectOf(query.get('includeObject'));
  if (table && !include) {
    sendStatus(
      res,
      badRequest(
        `Invalid value: "${query.get(
          'includeObject',
        )}": must be one of None, Metadata, Object`,
      ),
    );
    return;
  }
  const view: View = table
    ? { table: true, include: include ?? 'Metadata' }
    : { table: false };
  try {
    if (!target.name) {
      if (method === 'GET') {
        if (watch) {
          await handleWatch(
            api,
            req,
            res,
            target,
            query,
            (o, first) =>
              view.table
                ? toTable(target.resource, [served(o, target)], {
                    include: view.include,
                    noHeaders: !first,
                  })
                : served(o, target),
            view.table
              ? undefined
              : apiVersionOf(target.resource.group, target.version),
          );
        } else {
          await handleList(api, res, target, query, view);
        }
      } else if (method === 'POST') {
        await handleCreate(api, req, res, target, dryRun);
      } else {
        sendStatus(res, methodNotAllowed());
      }
      return;
    }
    const object = api.store.get(
      target.resource,
      target.namespace,
      target.name,
    );
    if (!object) {
      sendStatus(res, notFound(target.resource, target.name));
      return;
    }
    await handleObject(api, req, res, target, object, query, view, dryRun);
  } catch (error) {
    if (error instanceof SelectorError) {
      sendStatus(res, badRequest(error.message));
    } else {
      throw error;
    }
  }
}

/** How a GET answers: the objects, or a meta.k8s.io Table of them. */
type View =
  | { table: false }
  | { table: true; include: 'None' | 'Metadata' | 'Object' };

async function handleList(
  api: KubeApi,
  res: ServerResponse,
  target: Target,
  query: URLSearchParams,
  view: View,
) {
  const listVersion = query.get('resourceVersion');
  const match = query.get('resourceVersionMatch');
  if (listVersion && !/^\d+$/.test(listVersion)) {
    sendStatus(res, badRequest(`invalid resource version: ${listVersion}`));
    return;
  }
  if (match && !listVersion) {
    // ValidateListOptions: a match needs a version to match.
    sendStatus(
      res,
      failure(
        422,
        'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
      ),
    );
    return;
  }
  if (listVersion && listVersion !== '0') {
    const requested = Number(listVersion);
    // "Resource versions" semantics: NotOlderThan (the default) waits for a future version, then 504;
    // Exact can serve only the present state here, older states are refused as expired.
    if (!(await waitForRevision(api, requested))) {
      sendStatus(
        res,
        tooLargeResourceVersion(requested, api.store.resourceVersion),
      );
      return;
    }
    if (match === 'Exact' && requested !== Number(api.store.resourceVersion)) {
      sendStatus(
        res,
        expiredStatus('The resourceVersion for the provided list is too old.'),
      );
      return;
    }
  }
  const labels = parseLabelSelector(query.get('labelSelector'));
  const fields = parseFieldSelector(
    query.get('fieldSelector'),
    target.resource,
  );
  const resourceVersion = api.store.resourceVersion;
  let items = api.store
    .list(target.resource, target.namespace)
    .filter(o => labels(o) && fields(o));
  const token = query.get('continue');
  if (token) {
    const decoded = decodeContinue(token);
    if (decoded === undefined) {
      sendStatus(
        res,
        badRequest('continue key is not valid: illegal base64 data'),
      );
      return;
    }
    if (decoded.rv < api.store.compacted) {
      // etcd3 store: a continue token whose revision was compacted (`storage/etcd3/store.go`).
      sendStatus(res, {
        ...expiredStatus(
          'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
        ),
        metadata: { continue: encodeContinue('-1', decoded.start) },
      });
      return;
    }
    items = items.filter(o => isAfter(o, decoded.start));
  }
  const limit = Number(query.get('limit') ?? 0);
  const metadata: Record<string, unknown> = { resourceVersion };
  if (limit > 0 && items.length > limit) {
    metadata.continue = encodeContinue(
      resourceVersion,
      objectKey(items[limit - 1]),
    );
    metadata.remainingItemCount = items.length - limit;
    items = items.slice(0, limit);
  }
  if (view.table) {
    sendJson(
      res,
      200,
      toTable(
        target.resource,
        items.map(o => served(o, target)),
        { include: view.include, listMetadata: metadata },
      ),
      { 'Content-Type': TABLE_MEDIA_TYPE },
    );
    return;
  }
  sendJson(res, 200, {
    kind: `${target.resource.kind}List`,
    apiVersion: apiVersionOf(target.resource.group, target.version),
    metadata,
    items: items.map(o => listItem(o, target)),
  });
}

function handleLog(
  api: KubeApi,
  res: ServerResponse,
  target: Target,
  pod: KubeObject,
  query: URLSearchParams,
) {
  const previous = query.get('previous') === 'true';
  const container = logRequestError(
    pod,
    query.get('container') ?? undefined,
    previous,
  );
  if (typeof container !== 'string') {
    sendStatus(res, container);
    return;
  }
  const options = logOptions(query);
  if ('kind' in options) {
    sendStatus(res, options);
    return;
  }
  streamLogs(
    res,
    { pod, container, previous, now: new Date() },
    {
      ...options,
      timestamps: query.get('timestamps') === 'true',
      follow: query.get('follow') === 'true',
      followIntervalMs: api.logFollowIntervalMs,
      // Following ends when the pod goes away (or is replaced under the same name).
      podExists: () =>
        api.store.get(target.resource, target.namespace, pod.metadata.name)
          ?.metadata.uid === pod.metadata.uid,
      onClose: stop => {
        const untrack = api.trackStream(stop);
        // A followed log runs through the agent's tunnel like a watch: the same knobs cut it.
        const stream: ActiveWatch = {
          drop: abrupt => (abrupt ? res.destroy() : stop()),
          expire: stop,
        };
        api.watches.add(stream);
        res.on('close', () => {
          untrack();
          api.watches.delete(stream);
        });
      },
    },
  );
}

/** Requests addressing one existing object or its subresource. */
async function handleObject(
  api: KubeApi,
  req: IncomingMessage,
  res: ServerResponse,
  target: Target,
  object: KubeObject,
  query: URLSearchParams,
  view: View,
  dryRun: boolean,
) {
  const method = req.method ?? 'GET';
  const sub = target.subresource;
  if (sub === 'exec' || sub === 'attach') {
    sendStatus(res, badRequest('Upgrade request required'));
  } else if (sub === 'log') {
    if (method === 'GET') {
      handleLog(api, res, target, object, query);
    } else {
      sendStatus(res, methodNotAllowed());
    }
  } else if (method === 'GET' && view.table && !sub) {
    sendJson(
      res,
      200,
      toTable(target.resource, [served(object, target)], {
        include: view.include,
        listMetadata: { resourceVersion: object.metadata.resourceVersion },
      }),
      { 'Content-Type': TABLE_MEDIA_TYPE },
    );
  } else if (method === 'GET') {
    sendJson(
      res,
      200,
      sub === 'scale' ? toScale(object) : served(object, target),
    );
  } else if (method === 'DELETE' && !sub) {
    await handleDelete(api, req, res, target, object, query, dryRun);
  } else {
    await handleWrite(api, req, res, target, object, dryRun);
  }
}
