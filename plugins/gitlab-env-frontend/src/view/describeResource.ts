import { KubernetesObject } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { formatAge } from './format';

/**
 * The one-line status a node shows under its name, in the words kubectl
 * uses: `2/3 ready · 4 restarts · 3d`. Objects come from clusters, so every
 * field is checked before it is read.
 */
export function describeResource(
  object: KubernetesObject | undefined,
  now: number,
): string[] {
  const parts = describeStatus(object);
  const age = formatAge(object?.metadata?.creationTimestamp, now);
  if (age) parts.push(age);
  return parts;
}

/** The status words without the age, for tables that show age apart. */
export function describeStatus(object: KubernetesObject | undefined): string[] {
  if (!object) return ['not in cluster'];
  const spec = object.spec ?? {};
  const status = object.status ?? {};
  switch (object.kind) {
    case 'Deployment':
    case 'StatefulSet':
    case 'ReplicaSet':
      return [ready(status.readyReplicas, spec.replicas ?? status.replicas)];
    case 'DaemonSet':
      return [ready(status.numberReady, status.desiredNumberScheduled)];
    case 'Pod':
      return describePod(status);
    case 'Job': {
      const completions = num(spec.completions) ?? 1;
      return [`${num(status.succeeded) ?? 0}/${completions} complete`];
    }
    case 'CronJob':
      return [
        typeof spec.schedule === 'string' ? spec.schedule : '',
        spec.suspend ? 'suspended' : '',
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
        typeof status.capacity?.storage === 'string'
          ? status.capacity.storage
          : '',
      ].filter(Boolean);
    case 'HorizontalPodAutoscaler':
      return [
        `${num(status.currentReplicas) ?? 0} replicas (${
          num(spec.minReplicas) ?? 1
        }–${num(spec.maxReplicas) ?? '?'})`,
      ];
    default:
      return describeConditions(status);
  }
}

function describePod(status: any): string[] {
  const containers: any[] = Array.isArray(status.containerStatuses)
    ? status.containerStatuses
    : [];
  const readyCount = containers.filter(c => c?.ready === true).length;
  const restarts = containers.reduce(
    (sum, c) => sum + (num(c?.restartCount) ?? 0),
    0,
  );
  const waiting = containers
    .map(c => c?.state?.waiting?.reason)
    .find(reason => typeof reason === 'string');
  const parts = [
    waiting ?? (typeof status.phase === 'string' ? status.phase : 'Pending'),
  ];
  if (containers.length > 0) {
    parts.push(`${readyCount}/${containers.length} ready`);
  }
  if (restarts > 0) {
    parts.push(`${restarts} restart${restarts === 1 ? '' : 's'}`);
  }
  return parts;
}

// Flux and most CRDs report a Ready condition: show its reason.
function describeConditions(status: any): string[] {
  const conditions: any[] = Array.isArray(status?.conditions)
    ? status.conditions
    : [];
  const readyCondition = conditions.find(c => c?.type === 'Ready');
  if (!readyCondition) return [];
  const reason =
    typeof readyCondition.reason === 'string' ? readyCondition.reason : '';
  return [readyCondition.status === 'True' ? 'Ready' : reason || 'Not ready'];
}

function ready(readyCount: unknown, desired: unknown): string {
  return `${num(readyCount) ?? 0}/${num(desired) ?? 0} ready`;
}

function servicePorts(ports: unknown): string[] {
  if (!Array.isArray(ports) || ports.length === 0) return [];
  const shown = ports
    .slice(0, 2)
    .map(p => `${p?.port ?? '?'}/${p?.protocol ?? 'TCP'}`);
  return [ports.length > 2 ? `${shown.join(', ')}, …` : shown.join(', ')];
}

function ingressHosts(rules: unknown): string[] {
  if (!Array.isArray(rules)) return [];
  const hosts = rules
    .map(rule => rule?.host)
    .filter((host): host is string => typeof host === 'string');
  if (hosts.length === 0) return [];
  return [hosts.length > 1 ? `${hosts[0]} +${hosts.length - 1}` : hosts[0]];
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value)
    ? value
    : undefined;
}
