import { randomUUID } from 'crypto';
import { isDeepStrictEqual } from 'util';
import { IncomingMessage, ServerResponse } from 'http';
import { KubeObject } from '../scenario/types';
import { deepClone, selectorString } from '../cluster/objects';
import { withWorkloadDefaults } from '../cluster/defaults';
import { jsonPatch, mergePatch, strategicMergePatch } from '../cluster/patch';
import { apiVersionOf } from '../cluster/resources';
import { readBody, sendJson } from '../http/respond';
import type { KubeApi } from './kubeApi';
import {
  badRequest,
  failure,
  KubeStatus,
  methodNotAllowed,
  sendStatus,
} from './status';
import { qualifiedResource, served, Target } from './target';

/**
 * DELETE, PATCH, PUT and POST, with the API server's validation and errors.
 * `dryRun=All` validates and answers what the write would give without
 * persisting it or waking controllers
 * (https://kubernetes.io/docs/reference/using-api/api-concepts/#dry-run).
 */

const OPTIONS_KIND: Record<string, string> = {
  POST: 'CreateOptions',
  PUT: 'UpdateOptions',
  PATCH: 'PatchOptions',
  DELETE: 'DeleteOptions',
};

/** ValidateDryRun: `All` is the only value; undefined when the request is not a dry run. */
export function dryRunOf(
  method: string,
  query: URLSearchParams,
): boolean | KubeStatus {
  const values = query.getAll('dryRun');
  if (values.length === 0) return false;
  if (values.every(v => v === 'All')) return true;
  return failure(
    422,
    `${
      OPTIONS_KIND[method] ?? 'CreateOptions'
    }.meta.k8s.io "" is invalid: dryRun: Unsupported value: ${JSON.stringify(
      values,
    )}: supported values: "All"`,
  );
}

const PATCH_TYPES = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
];

function rejected(error: unknown): KubeStatus {
  return failure(
    422,
    `the server rejected our request due to an error in our request: ${
      (error as Error).message
    }`,
  );
}

/** An autoscaling/v1 Scale view of a Deployment, ReplicaSet or StatefulSet. */
export function toScale(object: KubeObject): KubeObject {
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

async function readJson(
  req: IncomingMessage,
): Promise<{ body: any } | { error: KubeStatus }> {
  const text = await readBody(req);
  try {
    return { body: JSON.parse(text) };
  } catch (e) {
    return {
      error: badRequest(`error decoding patch: ${(e as Error).message}`),
    };
  }
}

function applyPatch(contentType: string, current: any, patch: any) {
  if (contentType.startsWith('application/json-patch+json'))
    return jsonPatch(current, patch);
  if (contentType.startsWith('application/merge-patch+json'))
    return mergePatch(current, patch);
  return strategicMergePatch(current, patch);
}

/** DeleteOptions come as query parameters or, from kubectl, as a JSON body. */
async function deleteOptions(
  req: IncomingMessage,
  query: URLSearchParams,
): Promise<{ gracePeriodSeconds?: number; dryRun: boolean }> {
  let body: any = {};
  const text = await readBody(req);
  if (text.trim()) {
    try {
      body = JSON.parse(text);
    } catch {
      body = {};
    }
  }
  const grace = query.get('gracePeriodSeconds') ?? body.gracePeriodSeconds;
  return {
    gracePeriodSeconds:
      grace === undefined || grace === null ? undefined : Number(grace),
    dryRun: Array.isArray(body.dryRun) && body.dryRun.includes('All'),
  };
}

export async function handleDelete(
  api: KubeApi,
  req: IncomingMessage,
  res: ServerResponse,
  target: Target,
  object: KubeObject,
  query: URLSearchParams,
  dryRunQuery: boolean,
) {
  const options = await deleteOptions(req, query);
  const dryRun = dryRunQuery || options.dryRun;
  const graceMs =
    options.gracePeriodSeconds === undefined
      ? api.knobs().podTerminationMs
      : options.gracePeriodSeconds * 1000;
  let deleted: KubeObject;
  if (dryRun) {
    deleted =
      graceMs > 0 && target.resource.kind === 'Pod'
        ? {
            ...object,
            metadata: {
              ...object.metadata,
              deletionTimestamp: new Date(Date.now() + graceMs)
                .toISOString()
                .replace(/\.\d+Z$/, 'Z'),
              deletionGracePeriodSeconds: Math.ceil(graceMs / 1000),
            },
          }
        : object;
  } else {
    deleted =
      target.resource.kind === 'Pod'
        ? api.controllers.deletePod(object, graceMs)!
        : api.controllers.deleteCascading(object)!;
  }
  // Pods answer with the deleted object; most other resources with a Success Status.
  if (target.resource.kind === 'Pod') {
    sendJson(res, 200, served(deleted, target));
    return;
  }
  // A Namespace answers with itself, Terminating while its finalizer runs.
  if (target.resource.kind === 'Namespace') {
    sendJson(res, 200, {
      ...served(deleted, target),
      metadata: {
        ...deleted.metadata,
        deletionTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      },
      status: { phase: 'Terminating' },
    });
    return;
  }
  sendJson(res, 200, {
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

function scale(
  api: KubeApi,
  _target: Target,
  object: KubeObject,
  method: string,
  contentType: string,
  body: any,
  dryRun: boolean,
): KubeObject | KubeStatus {
  let requested: any;
  try {
    requested =
      method === 'PUT' ? body : applyPatch(contentType, toScale(object), body);
  } catch (e) {
    return rejected(e);
  }
  const replicas = requested?.spec?.replicas;
  if (!Number.isInteger(replicas) || replicas < 0) {
    return failure(
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
    );
  }
  // The scale subresource updates its parent object: the same replicas are
  // no write at all (see update below).
  if (dryRun || replicas === object.spec?.replicas) {
    return toScale({ ...object, spec: { ...object.spec, replicas } });
  }
  return toScale(api.controllers.scale(object, replicas));
}

function update(
  api: KubeApi,
  target: Target,
  object: KubeObject,
  method: string,
  contentType: string,
  body: any,
  dryRun: boolean,
): KubeObject | KubeStatus {
  const statusOnly = target.subresource === 'status';
  let next: any;
  try {
    if (method === 'PUT') {
      next = body;
    } else {
      const current = served(object, target);
      const patched = applyPatch(
        contentType,
        statusOnly ? { status: current.status } : current,
        body,
      );
      next = statusOnly ? { ...current, status: patched.status } : patched;
    }
  } catch (e) {
    return rejected(e);
  }
  const sentVersion = next?.metadata?.resourceVersion;
  if (sentVersion && sentVersion !== object.metadata.resourceVersion) {
    return failure(
      409,
      `Operation cannot be fulfilled on ${qualifiedResource(
        target.resource,
      )} "${
        object.metadata.name
      }": the object has been modified; please apply your changes to the latest version and try again`,
      { name: object.metadata.name, kind: target.resource.plural },
    );
  }
  // Identity and server-owned fields cannot be changed by a client.
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
    object.metadata.generation !== undefined &&
    JSON.stringify(updated.spec) !== JSON.stringify(object.spec)
  ) {
    updated.metadata.generation = object.metadata.generation + 1;
  }
  // A write that changes nothing is not stored: the API server answers the
  // object as it is, resourceVersion unchanged, and no watch event goes out
  // (k8s.io/apiserver/pkg/storage/etcd3/store.go, GuaranteedUpdate: "if we
  // don't send an update, we simply return the currently existing version of
  // the object").
  if (isDeepStrictEqual(updated, object)) return served(object, target);
  if (dryRun) {
    return served(
      {
        ...updated,
        metadata: {
          ...updated.metadata,
          resourceVersion: object.metadata.resourceVersion,
        },
      },
      target,
    );
  }
  const stored = api.store.upsert(updated);
  api.controllers.afterPatch(object, stored);
  return served(
    api.store.get(target.resource, target.namespace, object.metadata.name)!,
    target,
  );
}

/** PATCH or PUT of an object or its `scale`/`status` subresource. */
export async function handleWrite(
  api: KubeApi,
  req: IncomingMessage,
  res: ServerResponse,
  target: Target,
  object: KubeObject,
  dryRun: boolean,
) {
  const method = req.method ?? 'PATCH';
  if (method !== 'PATCH' && method !== 'PUT') {
    sendStatus(res, methodNotAllowed());
    return;
  }
  const contentType = String(req.headers['content-type'] ?? 'application/json');
  if (method === 'PATCH' && !PATCH_TYPES.some(t => contentType.startsWith(t))) {
    sendStatus(
      res,
      failure(
        415,
        `the body of the request was in an unknown format - accepted media types include: ${PATCH_TYPES.join(
          ', ',
        )}`,
      ),
    );
    return;
  }
  const parsed = await readJson(req);
  if ('error' in parsed) {
    sendStatus(res, parsed.error);
    return;
  }
  const write = target.subresource === 'scale' ? scale : update;
  const result = write(
    api,
    target,
    object,
    method,
    contentType,
    parsed.body,
    dryRun,
  );
  if (result.kind === 'Status') {
    sendStatus(res, result as KubeStatus);
  } else {
    sendJson(res, 200, result);
  }
}

/** POST to a collection; workload controllers then create what the object asks for. */
export async function handleCreate(
  api: KubeApi,
  req: IncomingMessage,
  res: ServerResponse,
  target: Target,
  dryRun: boolean,
) {
  const parsed = await readJson(req);
  if ('error' in parsed) {
    sendStatus(res, parsed.error);
    return;
  }
  const body = parsed.body;
  const generateName = body?.metadata?.generateName;
  const name =
    body?.metadata?.name ??
    (generateName ? `${generateName}${randomUUID().slice(0, 5)}` : undefined);
  if (!name) {
    sendStatus(
      res,
      failure(
        422,
        `${target.resource.kind} "" is invalid: metadata.name: Required value: name or generateName is required`,
      ),
    );
    return;
  }
  if (api.store.get(target.resource, target.namespace, name)) {
    sendStatus(
      res,
      failure(
        409,
        `${qualifiedResource(target.resource)} "${name}" already exists`,
        { name, kind: target.resource.plural },
        'AlreadyExists',
      ),
    );
    return;
  }
  const object: KubeObject = withWorkloadDefaults(
    deepClone({
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
    }),
  );
  if (dryRun) {
    sendJson(res, 201, served(object, target));
    return;
  }
  const stored = api.store.upsert(object);
  // Workload controllers act on new objects as on changed ones (ReplicaSets, pods, statuses).
  api.controllers.reconcile(stored);
  sendJson(res, 201, served(stored, target));
}
