import { randomUUID } from 'crypto';
import { IncomingMessage, ServerResponse } from 'http';
import { KubeObject } from '../scenario/types';
import { Controllers } from '../cluster/controllers';
import { deepClone, selectorString } from '../cluster/objects';
import {
  jsonPatch,
  mergePatch,
  PatchError,
  strategicMergePatch,
} from '../cluster/patch';
import {
  ApiResource,
  apiVersionOf,
  BUILTIN_RESOURCES,
} from '../cluster/resources';
import {
  parseFieldSelector,
  parseLabelSelector,
  SelectorError,
} from '../cluster/selectors';
import { ClusterStore, StoreEvent } from '../cluster/store';
import { readBody, sendJson } from '../http/respond';
import {
  apiGroup,
  coreVersions,
  groupList,
  resourceList,
  versionInfo,
} from './discovery';
import { logRequestError, streamLogs } from './logs';
import {
  badRequest,
  failure,
  forbidden,
  KubeStatus,
  methodNotAllowed,
  notFound,
  pathNotFound,
  sendStatus,
} from './status';

/**
 * A kube-apiserver over a ClusterStore: discovery, get/list/watch with
 * selectors and pagination, logs, delete, patch, scale and create.
 */
export interface KubeApi {
  store: ClusterStore;
  controllers: Controllers;
  kubernetesVersion: string;
  /** The cluster's RBAC: may agentk's service account touch this resource? */
  isForbidden(resource: ApiResource, subresource?: string): boolean;
  /** Keeps a long-lived response closable when the simulator shuts down. */
  trackStream(stop: () => void): () => void;
  logFollowIntervalMs: number;
}

interface Target {
  resource: ApiResource;
  version: string;
  namespace?: string;
  name?: string;
  subresource?: string;
}

const BUILTIN = new Set(BUILTIN_RESOURCES);
const DEFAULT_WATCH_TIMEOUT_S = 1800;

function parseTarget(
  api: KubeApi,
  segments: string[],
): Target | KubeStatus | 'discovery' {
  const core = segments[0] === 'api';
  const group = core ? '' : segments[1];
  const version = core ? segments[1] : segments[2];
  const rest = segments.slice(core ? 2 : 3);
  if (rest.length === 0) return 'discovery';
  let namespace: string | undefined;
  let parts = rest;
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    namespace = rest[1];
    parts = rest.slice(2);
  }
  if (parts.length > 3) return pathNotFound();
  const [plural, name, subresource] = parts;
  const resource = api.store.registry.forPath(group, version, plural);
  if (!resource || (namespace !== undefined && !resource.namespaced))
    return pathNotFound();
  if (subresource && !resource.subresources.some(s => s.name === subresource))
    return pathNotFound();
  return { resource, version, namespace, name, subresource };
}

/** An object as served at the requested version (CRDs may serve several). */
function served(object: KubeObject, target: Target): KubeObject {
  const apiVersion = apiVersionOf(target.resource.group, target.version);
  return object.apiVersion === apiVersion ? object : { ...object, apiVersion };
}

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

function decodeContinue(token: string): string | undefined {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    return typeof parsed.start === 'string' ? parsed.start : undefined;
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
  if (segments[0] !== 'api' && segments[0] !== 'apis') {
    sendStatus(res, pathNotFound());
    return;
  }
  if (segments.length === 1) {
    sendJson(
      res,
      200,
      segments[0] === 'api' ? coreVersions() : groupList(api.store.registry),
    );
    return;
  }
  if (segments[0] === 'apis' && segments.length === 2) {
    const doc = apiGroup(api.store.registry, segments[1]);
    if (doc) {
      sendJson(res, 200, doc);
    } else {
      sendStatus(res, pathNotFound());
    }
    return;
  }
  const target = parseTarget(api, segments);
  if (target === 'discovery') {
    const core = segments[0] === 'api';
    const doc = resourceList(
      api.store.registry,
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
  if (api.isForbidden(target.resource, target.subresource)) {
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
  try {
    if (!target.name) {
      if (method === 'GET') {
        if (watch) {
          handleWatch(api, req, res, target, query);
        } else {
          handleList(api, res, target, query);
        }
      } else if (method === 'POST') {
        await handleCreate(api, req, res, target);
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
    await handleObject(api, req, res, target, object, query, method);
  } catch (error) {
    if (error instanceof SelectorError) {
      sendStatus(res, badRequest(error.message));
    } else {
      throw error;
    }
  }
}

function handleList(
  api: KubeApi,
  res: ServerResponse,
  target: Target,
  query: URLSearchParams,
) {
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
    const start = decodeContinue(token);
    if (start === undefined) {
      sendStatus(
        res,
        badRequest('continue key is not valid: illegal base64 data'),
      );
      return;
    }
    items = items.filter(o => isAfter(o, start));
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
  sendJson(res, 200, {
    kind: `${target.resource.kind}List`,
    apiVersion: apiVersionOf(target.resource.group, target.version),
    metadata,
    items: items.map(o => listItem(o, target)),
  });
}

function handleWatch(
  api: KubeApi,
  req: IncomingMessage,
  res: ServerResponse,
  target: Target,
  query: URLSearchParams,
) {
  const labels = parseLabelSelector(query.get('labelSelector'));
  const fields = parseFieldSelector(
    query.get('fieldSelector'),
    target.resource,
  );
  const matches = (o: KubeObject | undefined) =>
    !!o &&
    (target.namespace === undefined ||
      o.metadata.namespace === target.namespace) &&
    labels(o) &&
    fields(o);
  res.writeHead(200, {
    'Content-Type': 'application/json',
    'Transfer-Encoding': 'chunked',
    'Cache-Control': 'no-cache, private',
  });
  // Headers go out at once, like kube-apiserver, even before the first event.
  res.flushHeaders();
  const write = (type: string, object: KubeObject) =>
    res.write(`${JSON.stringify({ type, object: served(object, target) })}\n`);
  const since = query.get('resourceVersion');
  if (!since || since === '0' || query.get('sendInitialEvents') === 'true') {
    api.store
      .list(target.resource, target.namespace)
      .filter(matches)
      .forEach(o => write('ADDED', o));
  }
  const unsubscribe = api.store.subscribe((event: StoreEvent) => {
    if (event.resource !== target.resource) return;
    const now = matches(event.object);
    const before = event.type === 'MODIFIED' ? matches(event.previous) : now;
    if (event.type === 'MODIFIED' && now !== before) {
      // An object entering or leaving the selection looks like a create or delete to the watcher.
      write(now ? 'ADDED' : 'DELETED', event.object);
    } else if (now) {
      write(event.type, event.object);
    }
  });
  const timeout = Number(
    query.get('timeoutSeconds') ?? DEFAULT_WATCH_TIMEOUT_S,
  );
  const timer = setTimeout(() => stop(), timeout * 1000);
  const untrack = api.trackStream(() => stop());
  function stop() {
    clearTimeout(timer);
    unsubscribe();
    untrack();
    if (!res.writableEnded) res.end();
  }
  req.on('close', stop);
  res.on('close', stop);
}

function toScale(object: KubeObject): KubeObject {
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: object.metadata.name,
      namespace: object.metadata.namespace,
      uid: object.metadata.uid,
      resourceVersion: object.metadata.resourceVersion,
      creationTimestamp: object.metadata.creationTimestamp,
    },
    spec: { replicas: object.spec?.replicas ?? 1 },
    status: {
      replicas: object.status?.replicas ?? 0,
      selector: selectorString(object.spec?.selector?.matchLabels),
    },
  };
}

async function readJson(req: IncomingMessage): Promise<any> {
  const text = await readBody(req);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new PatchError(`error decoding patch: ${(e as Error).message}`);
  }
}

function applyPatch(contentType: string, current: any, patch: any) {
  if (contentType.startsWith('application/json-patch+json'))
    return jsonPatch(current, patch);
  if (contentType.startsWith('application/merge-patch+json'))
    return mergePatch(current, patch);
  return strategicMergePatch(current, patch);
}

const PATCH_TYPES = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
];

async function handleObject(
  api: KubeApi,
  req: IncomingMessage,
  res: ServerResponse,
  target: Target,
  object: KubeObject,
  query: URLSearchParams,
  method: string,
) {
  const sub = target.subresource;
  if (sub === 'log') {
    if (method !== 'GET') return sendStatus(res, methodNotAllowed());
    const previous = query.get('previous') === 'true';
    const container = logRequestError(
      object,
      query.get('container') ?? undefined,
      previous,
    );
    if (typeof container !== 'string') return sendStatus(res, container);
    const tail = query.get('tailLines');
    streamLogs(
      res,
      { pod: object, container, previous, now: new Date() },
      {
        tailLines: tail === null ? undefined : Number(tail),
        timestamps: query.get('timestamps') === 'true',
        follow: query.get('follow') === 'true',
        followIntervalMs: api.logFollowIntervalMs,
        podExists: () =>
          api.store.get(target.resource, target.namespace, target.name!)
            ?.metadata.uid === object.metadata.uid,
        onClose: stop => {
          const untrack = api.trackStream(stop);
          res.on('close', untrack);
        },
      },
    );
    return undefined;
  }
  if (sub === 'exec' || sub === 'attach') {
    return sendStatus(res, badRequest('Upgrade request required'));
  }
  if (method === 'GET') {
    return sendJson(
      res,
      200,
      sub === 'scale' ? toScale(object) : served(object, target),
    );
  }
  if (method === 'DELETE') {
    const deleted = api.controllers.deleteCascading(object)!;
    if (target.resource.kind === 'Pod') {
      return sendJson(res, 200, served(deleted, target));
    }
    return sendJson(res, 200, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: {
        name: object.metadata.name,
        ...(target.resource.group ? { group: target.resource.group } : {}),
        kind: target.resource.plural,
        uid: object.metadata.uid,
      },
    });
  }
  if (method !== 'PATCH' && method !== 'PUT') {
    return sendStatus(res, methodNotAllowed());
  }
  const contentType = String(req.headers['content-type'] ?? 'application/json');
  if (method === 'PATCH' && !PATCH_TYPES.some(t => contentType.startsWith(t))) {
    return sendStatus(
      res,
      failure(
        415,
        `the body of the request was in an unknown format - accepted media types include: ${PATCH_TYPES.join(
          ', ',
        )}`,
      ),
    );
  }
  let body: any;
  try {
    body = await readJson(req);
  } catch (e) {
    return sendStatus(res, badRequest((e as Error).message));
  }
  if (sub === 'scale') {
    let scale: any;
    try {
      scale =
        method === 'PUT'
          ? body
          : applyPatch(contentType, toScale(object), body);
    } catch (e) {
      return sendStatus(
        res,
        failure(
          422,
          `the server rejected our request due to an error in our request: ${
            (e as Error).message
          }`,
        ),
      );
    }
    const replicas = scale?.spec?.replicas;
    if (!Number.isInteger(replicas) || replicas < 0) {
      return sendStatus(
        res,
        failure(
          422,
          `Scale.autoscaling "${
            object.metadata.name
          }" is invalid: spec.replicas: Invalid value: ${JSON.stringify(
            replicas,
          )}: must be greater than or equal to 0`,
          {
            name: object.metadata.name,
            group: 'autoscaling',
            kind: 'Scale',
            causes: [
              {
                reason: 'FieldValueInvalid',
                message: 'Invalid value: must be greater than or equal to 0',
                field: 'spec.replicas',
              },
            ],
          },
        ),
      );
    }
    return sendJson(res, 200, toScale(api.controllers.scale(object, replicas)));
  }
  let next: any;
  try {
    if (method === 'PUT') {
      next = body;
    } else {
      const current = served(object, target);
      const patched = applyPatch(
        contentType,
        sub === 'status' ? { status: current.status } : current,
        body,
      );
      next =
        sub === 'status' ? { ...current, status: patched.status } : patched;
    }
  } catch (e) {
    return sendStatus(
      res,
      failure(
        422,
        `the server rejected our request due to an error in our request: ${
          (e as Error).message
        }`,
      ),
    );
  }
  const sentVersion = next?.metadata?.resourceVersion;
  if (sentVersion && sentVersion !== object.metadata.resourceVersion) {
    return sendStatus(
      res,
      failure(
        409,
        `Operation cannot be fulfilled on ${target.resource.plural}${
          target.resource.group ? `.${target.resource.group}` : ''
        } "${
          object.metadata.name
        }": the object has been modified; please apply your changes to the latest version and try again`,
        {
          name: object.metadata.name,
          kind: target.resource.plural,
        },
      ),
    );
  }
  const updated: KubeObject = {
    ...next,
    apiVersion: object.apiVersion,
    kind: object.kind,
    metadata: {
      ...next?.metadata,
      name: object.metadata.name,
      namespace: object.metadata.namespace,
      uid: object.metadata.uid,
      creationTimestamp: object.metadata.creationTimestamp,
      generation: object.metadata.generation,
    },
  };
  if (
    JSON.stringify(updated.spec) !== JSON.stringify(object.spec) &&
    object.metadata.generation !== undefined
  ) {
    updated.metadata.generation = object.metadata.generation + 1;
  }
  const stored = api.store.upsert(updated);
  api.controllers.afterPatch(object, stored);
  const fresh = api.store.get(target.resource, target.namespace, target.name!)!;
  return sendJson(res, 200, served(fresh, target));
}

async function handleCreate(
  api: KubeApi,
  req: IncomingMessage,
  res: ServerResponse,
  target: Target,
) {
  let body: any;
  try {
    body = await readJson(req);
  } catch (e) {
    return sendStatus(res, badRequest((e as Error).message));
  }
  const name =
    body?.metadata?.name ??
    (body?.metadata?.generateName
      ? `${body.metadata.generateName}${Math.random().toString(36).slice(2, 7)}`
      : undefined);
  if (!name) {
    return sendStatus(
      res,
      failure(
        422,
        `${target.resource.kind} "" is invalid: metadata.name: Required value: name or generateName is required`,
      ),
    );
  }
  if (api.store.get(target.resource, target.namespace, name)) {
    return sendStatus(
      res,
      failure(
        409,
        `${target.resource.plural}${
          target.resource.group ? `.${target.resource.group}` : ''
        } "${name}" already exists`,
        { name, kind: target.resource.plural },
        'AlreadyExists',
      ),
    );
  }
  const object: KubeObject = deepClone({
    ...body,
    apiVersion: apiVersionOf(target.resource.group, target.version),
    kind: target.resource.kind,
    metadata: {
      ...body.metadata,
      name,
      ...(target.resource.namespaced
        ? {
            namespace:
              target.namespace ?? body.metadata?.namespace ?? 'default',
          }
        : {}),
      uid: randomUUID(),
      creationTimestamp: `${new Date().toISOString().slice(0, 19)}Z`,
      ...(body.spec !== undefined ? { generation: 1 } : {}),
    },
  });
  return sendJson(res, 201, served(api.store.upsert(object), target));
}
