import { ServerResponse } from 'http';
import { KubeObject } from '../scenario/types';
import { isoSeconds } from '../cluster/ids';
import { ApiResource } from '../cluster/resources';
import {
  parseFieldSelector,
  parseLabelSelector,
  SelectorError,
} from '../cluster/selectors';
import {
  containerUsage,
  formatUsage,
  hasUsage,
  measuredContainers,
  nodeOverhead,
  SAMPLE_MS,
  sampleOf,
  Usage,
} from '../cluster/usage';
import { sendJson } from '../http/respond';
import type { KubeApi } from './kubeApi';
import {
  badRequest,
  failure,
  forbidden,
  methodNotAllowed,
  pathNotFound,
  sendStatus,
} from './status';

/**
 * The resource metrics API metrics-server serves through the API server's
 * aggregation layer: `metrics.k8s.io/v1beta1` PodMetrics and NodeMetrics,
 * get and list only (no watch), with label selectors and the common field
 * selectors (types: staging/src/k8s.io/metrics/pkg/apis/metrics/v1beta1/types.go;
 * behaviour: kubernetes-sigs/metrics-server README and pkg/api). Usage comes
 * from `cluster/usage.ts`. A cluster without metrics-server has no such
 * group: discovery leaves it out and every path under it is 404, which is
 * how `kubectl top` tells "Metrics API not available"
 * (staging/src/k8s.io/kubectl/pkg/cmd/top/top_pod.go).
 */

export const METRICS_GROUP = 'metrics.k8s.io';
const VERSION = 'v1beta1';
const API_VERSION = `${METRICS_GROUP}/${VERSION}`;
const WINDOW = `${SAMPLE_MS / 1000}s`;

function metricsResource(
  plural: string,
  kind: string,
  namespaced: boolean,
): ApiResource {
  return {
    group: METRICS_GROUP,
    versions: [VERSION],
    plural,
    singular: '',
    kind,
    namespaced,
    verbs: ['get', 'list'],
    subresources: [],
  };
}

export const METRICS_RESOURCES: ApiResource[] = [
  metricsResource('nodes', 'NodeMetrics', false),
  metricsResource('pods', 'PodMetrics', true),
];

function metadata(object: KubeObject, now: Date) {
  return {
    name: object.metadata.name,
    ...(object.metadata.namespace
      ? { namespace: object.metadata.namespace }
      : {}),
    creationTimestamp: isoSeconds(now),
    ...(object.metadata.labels ? { labels: object.metadata.labels } : {}),
  };
}

/** A pod's usage per container in a sample, or undefined when metrics-server has none. */
function podUsage(pod: KubeObject, sample: number) {
  if (!hasUsage(pod, sample)) return undefined;
  const containers = measuredContainers(pod).map(c => ({
    name: c.name as string,
    usage: containerUsage(pod, c, sample),
  }));
  return containers.length ? containers : undefined;
}

function podMetrics(pod: KubeObject, sample: number, now: Date) {
  const containers = podUsage(pod, sample);
  if (!containers) return undefined;
  return {
    metadata: metadata(pod, now),
    timestamp: isoSeconds(new Date(sample * SAMPLE_MS)),
    window: WINDOW,
    containers: containers.map(c => ({
      name: c.name,
      usage: formatUsage(c.usage),
    })),
  };
}

function nodeMetrics(
  node: KubeObject,
  pods: KubeObject[],
  sample: number,
  now: Date,
) {
  const total: Usage = nodeOverhead(node.metadata.name, sample);
  for (const pod of pods) {
    if (pod.spec?.nodeName !== node.metadata.name) continue;
    for (const c of podUsage(pod, sample) ?? []) {
      total.cpuNanocores += c.usage.cpuNanocores;
      total.memoryBytes += c.usage.memoryBytes;
    }
  }
  return {
    metadata: metadata(node, now),
    timestamp: isoSeconds(new Date(sample * SAMPLE_MS)),
    window: WINDOW,
    usage: formatUsage(total),
  };
}

/** Handles a path under `/apis/metrics.k8s.io/v1beta1/` (after discovery). */
export function handleMetrics(
  api: KubeApi,
  method: string,
  res: ServerResponse,
  rest: string[],
  query: URLSearchParams,
) {
  let namespace: string | undefined;
  let parts = rest;
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    namespace = rest[1];
    parts = rest.slice(2);
  }
  const [plural, name, ...more] = parts;
  const resource = METRICS_RESOURCES.find(r => r.plural === plural);
  if (!resource || more.length || (namespace && !resource.namespaced)) {
    sendStatus(res, pathNotFound());
    return;
  }
  const watch = query.get('watch') === 'true' || query.get('watch') === '1';
  if (method !== 'GET' || watch) {
    sendStatus(res, methodNotAllowed());
    return;
  }
  const verb = name ? 'get' : 'list';
  if (api.isForbidden(resource, undefined, namespace, verb)) {
    sendStatus(res, forbidden(resource, verb, namespace, name));
    return;
  }
  const now = new Date();
  const sample = sampleOf(now.getTime());
  const podResource = api.store.registry.forKind('', 'Pod')!;
  const nodeResource = api.store.registry.forKind('', 'Node')!;
  const toMetrics = (o: KubeObject) =>
    resource.kind === 'PodMetrics'
      ? podMetrics(o, sample, now)
      : nodeMetrics(o, api.store.list(podResource), sample, now);
  if (name) {
    const object = api.store.get(
      resource.kind === 'PodMetrics' ? podResource : nodeResource,
      namespace,
      name,
    );
    const id = namespace ? `${namespace}/${name}` : name;
    if (!object) {
      // metrics-server looks the object up first (pkg/api/pod.go, node.go).
      const core = resource.kind === 'PodMetrics' ? 'pods' : 'nodes';
      sendStatus(
        res,
        failure(404, `${core} "${id}" not found`, { name: id, kind: core }),
      );
      return;
    }
    const metrics = toMetrics(object);
    if (!metrics) {
      // It has no sample for it: metrics.Resource("podmetrics"|"nodemetrics").
      const kind = resource.kind.toLowerCase();
      sendStatus(
        res,
        failure(404, `${kind}.${METRICS_GROUP} "${id}" not found`, {
          name: id,
          group: METRICS_GROUP,
          kind,
        }),
      );
      return;
    }
    sendJson(res, 200, {
      kind: resource.kind,
      apiVersion: API_VERSION,
      ...metrics,
    });
    return;
  }
  let selected: (o: KubeObject) => boolean;
  try {
    const labels = parseLabelSelector(query.get('labelSelector'));
    const fields = parseFieldSelector(query.get('fieldSelector'), resource);
    selected = o => labels(o) && fields(o);
  } catch (error) {
    if (!(error instanceof SelectorError)) throw error;
    sendStatus(res, badRequest(error.message));
    return;
  }
  const objects = api.store
    .list(
      resource.kind === 'PodMetrics' ? podResource : nodeResource,
      namespace,
    )
    .filter(selected);
  sendJson(res, 200, {
    kind: `${resource.kind}List`,
    apiVersion: API_VERSION,
    metadata: {},
    items: objects.map(toMetrics).filter(Boolean),
  });
}
