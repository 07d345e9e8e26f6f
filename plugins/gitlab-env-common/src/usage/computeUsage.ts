import { KubernetesObject, KubernetesOwnerReference } from '../types';
import { parseQuantity } from './quantity';
import {
  ContainerUsage,
  PodMetricsObject,
  PodUsage,
  ResourceFigures,
  UsageFigures,
  WorkloadRef,
  WorkloadUsage,
} from './types';

type Resource = 'cpu' | 'memory';

/**
 * The kinds a pod's usage is summed into (and whose pods a workload's
 * usage sums): the workloads and the controllers between them and pods.
 *
 * @public
 */
export const USAGE_WORKLOAD_KINDS: ReadonlySet<string> = new Set([
  'Deployment',
  'StatefulSet',
  'DaemonSet',
  'ReplicaSet',
  'Job',
  'CronJob',
  'Rollout',
]);

function add(a: number | undefined, b: number | undefined) {
  if (a === undefined) return b;
  return b === undefined ? a : a + b;
}

function containerFigures(
  container: any,
  used: { cpu?: string; memory?: string } | undefined,
): UsageFigures {
  const figures = (resource: Resource): ResourceFigures => {
    const request = parseQuantity(container?.resources?.requests?.[resource]);
    const limit = parseQuantity(container?.resources?.limits?.[resource]);
    const usage = used ? parseQuantity(used[resource]) : undefined;
    return {
      usage,
      request,
      limit,
      overLimit: usage !== undefined && limit !== undefined && usage > limit,
      requestMissing: request === undefined,
    };
  };
  return { cpu: figures('cpu'), memory: figures('memory') };
}

/** Sums of figures: a mark of any part marks the whole. */
function sumFigures(parts: UsageFigures[]): UsageFigures {
  const sum = (resource: Resource): ResourceFigures =>
    parts.reduce<ResourceFigures>(
      (total, part) => ({
        usage: add(total.usage, part[resource].usage),
        request: add(total.request, part[resource].request),
        limit: add(total.limit, part[resource].limit),
        overLimit: total.overLimit || part[resource].overLimit,
        requestMissing: total.requestMissing || part[resource].requestMissing,
      }),
      { overLimit: false, requestMissing: false },
    );
  return { cpu: sum('cpu'), memory: sum('memory') };
}

const refKey = (kind: string, namespace: string, name: string) =>
  `${kind}/${namespace}/${name}`;

function controllerOf(
  object: KubernetesObject,
): KubernetesOwnerReference | undefined {
  const refs = object.metadata?.ownerReferences ?? [];
  return refs.find(r => r.controller) ?? refs[0];
}

/**
 * The workload a pod belongs to, following controller references: a
 * ReplicaSet to its Deployment (or Rollout), a Job to its CronJob; the
 * ReplicaSet or Job itself when its owner is not among `owners`.
 *
 * @public
 */
export function workloadOf(
  pod: KubernetesObject,
  owners: ReadonlyMap<string, KubernetesObject>,
): WorkloadRef | undefined {
  const namespace = pod.metadata?.namespace ?? '';
  let ref = controllerOf(pod);
  let found: WorkloadRef | undefined;
  for (let depth = 0; ref?.kind && ref.name && depth < 4; depth++) {
    found = { kind: ref.kind, namespace, name: ref.name };
    const owner = owners.get(refKey(ref.kind, namespace, ref.name));
    ref = owner ? controllerOf(owner) : undefined;
  }
  return found;
}

/** Objects by `kind/namespace/name`, for workloadOf. @public */
export function ownerIndex(
  objects: Iterable<KubernetesObject>,
): Map<string, KubernetesObject> {
  const index = new Map<string, KubernetesObject>();
  for (const object of objects) {
    const { kind } = object;
    const { namespace, name } = object.metadata ?? {};
    if (kind && name) index.set(refKey(kind, namespace ?? '', name), object);
  }
  return index;
}

/** The key a pod's usage and its samples go by: `namespace/name`. @public */
export const podKey = (namespace: string, name: string) =>
  `${namespace}/${name}`;

/**
 * Each pod's usage against its containers' requests and limits (what
 * `kubectl top pod --containers` shows, plus what the specs ask for), and
 * each workload's, summed over its pods. A pod metrics.k8s.io does not have
 * keeps its requests and limits, without usage.
 *
 * @public
 */
export function computeUsage(input: {
  pods: KubernetesObject[];
  /** ReplicaSets, Jobs and the workloads above them. */
  owners: KubernetesObject[];
  metrics: PodMetricsObject[];
}): { pods: PodUsage[]; workloads: WorkloadUsage[] } {
  const measured = new Map<string, PodMetricsObject>();
  for (const m of input.metrics) {
    const { namespace, name } = m.metadata ?? {};
    if (namespace && name) measured.set(podKey(namespace, name), m);
  }
  const owners = ownerIndex(input.owners);
  const pods: PodUsage[] = [];
  for (const pod of input.pods) {
    const { namespace, name } = pod.metadata ?? {};
    if (!namespace || !name || pod.kind !== 'Pod') continue;
    const metrics = measured.get(podKey(namespace, name));
    const containerSpecs: any[] = Array.isArray(pod.spec?.containers)
      ? pod.spec.containers
      : [];
    const containers: ContainerUsage[] = containerSpecs.map(spec => ({
      name: String(spec?.name ?? ''),
      ...containerFigures(
        spec,
        metrics?.containers?.find(c => c.name === spec?.name)?.usage ??
          (metrics ? {} : undefined),
      ),
    }));
    pods.push({
      namespace,
      name,
      workload: workloadOf(pod, owners),
      containers,
      measured: metrics !== undefined,
      ...sumFigures(containers),
    });
  }
  const byWorkload = new Map<string, { ref: WorkloadRef; pods: PodUsage[] }>();
  for (const pod of pods) {
    if (!pod.workload) continue;
    const key = refKey(
      pod.workload.kind,
      pod.workload.namespace,
      pod.workload.name,
    );
    const entry = byWorkload.get(key) ?? { ref: pod.workload, pods: [] };
    entry.pods.push(pod);
    byWorkload.set(key, entry);
  }
  const workloads = [...byWorkload.values()].map(({ ref, pods: members }) => ({
    ...ref,
    pods: members.length,
    measuredPods: members.filter(p => p.measured).length,
    ...sumFigures(members),
  }));
  return { pods, workloads };
}

/**
 * The `kubectl top` command that shows the same usage: a pod's
 * containers, a workload's pods (by its selector), or the environment's.
 *
 * @public
 */
export function kubectlTop(options: {
  namespace: string;
  pod?: string;
  labelSelector?: string;
}): string {
  const parts = ['kubectl top pod'];
  if (options.pod) parts.push(options.pod);
  parts.push(`-n ${options.namespace}`);
  if (!options.pod && options.labelSelector)
    parts.push(`-l '${options.labelSelector.replace(/'/g, `'\\''`)}'`);
  parts.push('--containers');
  return parts.join(' ');
}

/** A workload's pod selector (`spec.selector.matchLabels`) as a label selector. @public */
export function workloadSelector(
  workload: KubernetesObject,
): string | undefined {
  const labels = workload.spec?.selector?.matchLabels;
  if (!labels || typeof labels !== 'object') return undefined;
  const pairs = Object.entries(labels)
    .filter(([, v]) => typeof v === 'string')
    .map(([k, v]) => `${k}=${v}`);
  return pairs.length ? pairs.join(',') : undefined;
}
