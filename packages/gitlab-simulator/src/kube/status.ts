import { ServerResponse } from 'http';
import { sendJson } from '../http/respond';
import { ApiResource } from '../cluster/resources';

/** Kubernetes `Status` bodies with the reasons and messages kube-apiserver uses. */

const REASONS: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  406: 'NotAcceptable',
  409: 'Conflict',
  410: 'Expired',
  415: 'UnsupportedMediaType',
  422: 'Invalid',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

export interface KubeStatus {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, unknown>;
  status: 'Failure' | 'Success';
  message?: string;
  reason?: string;
  details?: Record<string, unknown>;
  code: number;
}

export function failure(
  code: number,
  message: string,
  details?: Record<string, unknown>,
  reason = REASONS[code] ?? '',
): KubeStatus {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    ...(details ? { details } : {}),
    code,
  };
}

export function sendStatus(
  res: ServerResponse,
  status: KubeStatus,
  headers: Record<string, string> = {},
) {
  sendJson(res, status.code, status, headers);
}

export function notFound(resource: ApiResource, name: string): KubeStatus {
  return failure(
    404,
    `${resource.plural}${
      resource.group ? `.${resource.group}` : ''
    } "${name}" not found`,
    {
      name,
      ...(resource.group ? { group: resource.group } : {}),
      kind: resource.plural,
    },
  );
}

export function pathNotFound(): KubeStatus {
  return failure(404, 'the server could not find the requested resource', {
    causes: [
      { reason: 'UnexpectedServerResponse', message: '404 page not found' },
    ],
  });
}

export function badRequest(message: string): KubeStatus {
  return failure(400, message);
}

export function methodNotAllowed(): KubeStatus {
  return failure(
    405,
    'the server does not allow this method on the requested resource',
  );
}

/** The RBAC refusal for agentk's service account (`access_as: agent`). */
export function forbidden(
  resource: ApiResource,
  verb: string,
  namespace: string | undefined,
  name?: string,
  subresource?: string,
  user = 'system:serviceaccount:gitlab-agent:gitlab-agent',
): KubeStatus {
  const plural = subresource
    ? `${resource.plural}/${subresource}`
    : resource.plural;
  const qualified = `${resource.plural}${
    resource.group ? `.${resource.group}` : ''
  }${name ? ` "${name}"` : ''}`;
  const scope = namespace
    ? `in the namespace "${namespace}"`
    : 'at the cluster scope';
  return failure(
    403,
    `${qualified} is forbidden: User "${user}" cannot ${verb} resource "${plural}" in API group "${resource.group}" ${scope}`,
    {
      ...(name ? { name } : {}),
      ...(resource.group ? { group: resource.group } : {}),
      kind: resource.plural,
    },
  );
}
