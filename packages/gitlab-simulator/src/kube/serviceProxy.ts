import { IncomingMessage, ServerResponse } from 'http';
import { KubeObject } from '../scenario/types';
import { handlePrometheus } from '../apps/prometheus/api';
import { readBody } from '../http/respond';
import type { KubeApi } from './kubeApi';
import { failure, forbidden, notFound, sendStatus } from './status';

/**
 * The API server's service proxy,
 * `/api/v1/namespaces/{ns}/services/[scheme:]{name}[:port]/proxy/{path}`
 * (https://kubernetes.io/docs/tasks/access-application-cluster/access-cluster-services/;
 * `ResourceLocation` in pkg/registry/core/service/storage/storage.go): RBAC
 * on `services/proxy`, the Service, the first of its ports whose name or
 * number matches, a ready endpoint of its EndpointSlices, then that pod's
 * server gets the rest of the path verbatim. KAS forwards the whole path
 * unchanged, so this works through the agent as directly (contracts §3.1).
 *
 * What answers is what runs in the pod: a Prometheus container
 * (image `…/prometheus/prometheus`) serves its HTTP API
 * (`apps/prometheus/api.ts`); the simulator runs no other servers, and says
 * so with the API server's "error trying to reach service" 503.
 */

const PROXY_VERBS: Record<string, string> = {
  GET: 'get',
  HEAD: 'get',
  POST: 'create',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
};

/** `SplitSchemeNamePort`: `name`, `name:port`, `https:name:port`; undefined if malformed. */
function splitSchemeNamePort(
  id: string,
): { scheme: string; name: string; port: string } | undefined {
  const parts = id.split(':');
  if (parts.length === 1) return { scheme: '', name: parts[0], port: '' };
  if (parts.length === 2) return { scheme: '', name: parts[0], port: parts[1] };
  if (parts.length === 3 && ['http', 'https', ''].includes(parts[0]))
    return { scheme: parts[0], name: parts[1], port: parts[2] };
  return undefined;
}

function isPrometheus(container: any): boolean {
  return /(^|\/)prometheus\/prometheus(:|@|$)/.test(String(container.image));
}

/**
 * Handles a service proxy request; `segments` are the path's after
 * `/api/v1/namespaces/{ns}/services/`, i.e. `[id, 'proxy', …rest]`, and
 * `path` the raw request path (its trailing slash matters to servers).
 */
export async function handleServiceProxy(
  api: KubeApi,
  req: IncomingMessage,
  res: ServerResponse,
  namespace: string,
  id: string,
  path: string,
  query: URLSearchParams,
) {
  const method = req.method ?? 'GET';
  const services = api.store.registry.forKind('', 'Service')!;
  const verb = PROXY_VERBS[method] ?? method.toLowerCase();
  const parsed = splitSchemeNamePort(id);
  if (api.isForbidden(services, 'proxy', namespace, verb)) {
    sendStatus(
      res,
      forbidden(services, verb, namespace, parsed?.name ?? id, 'proxy'),
    );
    return;
  }
  if (!parsed) {
    sendStatus(res, failure(400, `invalid service request "${id}"`));
    return;
  }
  const service = api.store.get(services, namespace, parsed.name);
  if (!service) {
    sendStatus(res, notFound(services, parsed.name));
    return;
  }
  const slices = api.store
    .list(
      api.store.registry.forKind('discovery.k8s.io', 'EndpointSlice')!,
      namespace,
    )
    .filter(
      s => s.metadata.labels?.['kubernetes.io/service-name'] === parsed.name,
    );
  const pods = api.store.registry.forKind('', 'Pod')!;
  let backend: { pod: KubeObject; port: number } | undefined;
  for (const servicePort of service.spec?.ports ?? []) {
    const matchesPort =
      parsed.port === '' ||
      parsed.port === servicePort.name ||
      parsed.port === String(servicePort.port);
    if (!matchesPort) continue;
    for (const slice of slices) {
      const port = (slice.ports ?? []).find(
        (p: any) => (p.name ?? '') === (servicePort.name ?? ''),
      );
      const endpoint = (slice.endpoints ?? []).find(
        (e: any) => e.conditions?.ready && e.targetRef?.kind === 'Pod',
      );
      const pod =
        endpoint && api.store.get(pods, namespace, endpoint.targetRef.name);
      if (port && pod) {
        backend = { pod, port: port.port };
        break;
      }
    }
    if (backend) break;
  }
  if (!backend) {
    sendStatus(res, failure(503, `no endpoints available for service "${id}"`));
    return;
  }
  const server = (backend.pod.spec?.containers ?? []).find(
    (c: any) =>
      isPrometheus(c) &&
      (c.ports ?? []).some((p: any) => p.containerPort === backend!.port),
  );
  if (!server) {
    sendStatus(
      res,
      failure(
        503,
        `error trying to reach service: the simulator runs no server on port ${backend.port} of pod ${namespace}/${backend.pod.metadata.name}`,
      ),
    );
    return;
  }
  const params = new URLSearchParams(query);
  if (method === 'POST') {
    const contentType = String(req.headers['content-type'] ?? '');
    if (contentType.startsWith('application/x-www-form-urlencoded')) {
      new URLSearchParams(await readBody(req)).forEach((value, key) =>
        params.append(key, value),
      );
    }
  }
  handlePrometheus(res, method, path || '/', params, () => {
    const addresses = new Map(
      api.store
        .list(api.store.registry.forKind('', 'Node')!)
        .map(node => [
          node.metadata.name,
          (node.status?.addresses ?? []).find(
            (a: any) => a.type === 'InternalIP',
          )?.address as string,
        ]),
    );
    return {
      pods: api.store.list(pods),
      nodeAddress: node => addresses.get(node) ?? '',
    };
  });
}
