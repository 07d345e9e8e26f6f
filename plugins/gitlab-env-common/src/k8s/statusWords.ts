import { KubernetesObject } from '../types';
import { isRecord, specOf, statusOf } from './objects';

/**
 * The status a graph node shows under its name, in the words kubectl uses:
 * `['2/3 ready']`, `['CrashLoopBackOff', '0/1 ready', '4 restarts']`. The
 * engine computes it for the page (the compact tree carries it), so the
 * browser never reads an object to draw a node. `undefined` is an object
 * the cluster does not hold (a Flux inventory entry). Objects come from
 * clusters: every field is checked before it is read.
 *
 * @public
 */
export function statusWords(object: KubernetesObject | undefined): string[] {
  if (!object) return ['not in cluster'];
  const spec = specOf(object);
  const status = statusOf(object);
  switch (object.kind) {
    case 'Deployment':
    case 'StatefulSet':
    case 'ReplicaSet':
      return [ready(status.readyReplicas, spec.replicas ?? status.replicas)];
    case 'DaemonSet':
      return [ready(status.numberReady, status.desiredNumberScheduled)];
    case 'Pod':
      return podWords(status);
    case 'Job':
      return [
        `${count(status.succeeded) ?? 0}/${
          count(spec.completions) ?? 1
        } complete`,
      ];
    case 'CronJob':
      return [
        typeof spec.schedule === 'string' ? spec.schedule : '',
        spec.suspend === true ? 'suspended' : '',
      ].filter(Boolean);
    case 'Service':
      return [
        typeof spec.type === 'string' ? spec.type : 'ClusterIP',
        ...servicePorts(spec.ports),
      ];
    case 'Ingress':
      return ingressHosts(spec.rules);
    case 'PersistentVolumeClaim':
      return [
        typeof status.phase === 'string' ? status.phase : '',
        isRecord(status.capacity) && typeof status.capacity.storage === 'string'
          ? status.capacity.storage
          : '',
      ].filter(Boolean);
    case 'HorizontalPodAutoscaler':
      return [
        `${count(status.currentReplicas) ?? 0} replicas (${
          count(spec.minReplicas) ?? 1
        }–${count(spec.maxReplicas) ?? '?'})`,
      ];
    default:
      return readyConditionWords(status);
  }
}

function podWords(status: Record<string, any>): string[] {
  const containers: unknown[] = Array.isArray(status.containerStatuses)
    ? status.containerStatuses
    : [];
  let readyCount = 0;
  let restarts = 0;
  let waiting: string | undefined;
  for (const container of containers) {
    if (!isRecord(container)) continue;
    if (container.ready === true) readyCount++;
    restarts += count(container.restartCount) ?? 0;
    const reason = isRecord(container.state)
      ? container.state.waiting?.reason
      : undefined;
    if (waiting === undefined && typeof reason === 'string') waiting = reason;
  }
  const words = [
    waiting ?? (typeof status.phase === 'string' ? status.phase : 'Pending'),
  ];
  if (containers.length > 0)
    words.push(`${readyCount}/${containers.length} ready`);
  if (restarts > 0)
    words.push(`${restarts} restart${restarts === 1 ? '' : 's'}`);
  return words;
}

// Flux and most custom resources report a Ready condition: its reason says it.
function readyConditionWords(status: Record<string, any>): string[] {
  const conditions: unknown[] = Array.isArray(status.conditions)
    ? status.conditions
    : [];
  const readyCondition = conditions.find(
    (c): c is Record<string, any> => isRecord(c) && c.type === 'Ready',
  );
  if (!readyCondition) return [];
  const reason =
    typeof readyCondition.reason === 'string' ? readyCondition.reason : '';
  return [readyCondition.status === 'True' ? 'Ready' : reason || 'Not ready'];
}

function ready(readyCount: unknown, desired: unknown): string {
  return `${count(readyCount) ?? 0}/${count(desired) ?? 0} ready`;
}

function servicePorts(ports: unknown): string[] {
  if (!Array.isArray(ports) || ports.length === 0) return [];
  const shown = ports.slice(0, 2).map(p => {
    const port = isRecord(p) ? p.port : undefined;
    const protocol = isRecord(p) ? p.protocol : undefined;
    return `${
      typeof port === 'number' || typeof port === 'string' ? port : '?'
    }/${typeof protocol === 'string' ? protocol : 'TCP'}`;
  });
  return [ports.length > 2 ? `${shown.join(', ')}, …` : shown.join(', ')];
}

function ingressHosts(rules: unknown): string[] {
  if (!Array.isArray(rules)) return [];
  const hosts = rules
    .map(rule => (isRecord(rule) ? rule.host : undefined))
    .filter((host): host is string => typeof host === 'string');
  if (hosts.length === 0) return [];
  return [hosts.length > 1 ? `${hosts[0]} +${hosts.length - 1}` : hosts[0]];
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value)
    ? value
    : undefined;
}
