import { resourceEvents, ResourceEventSummary } from '../events';
import { compareHealth, rollsUp } from '../health';
import {
  EnvironmentResourcesResponse,
  HealthStatus,
  KubernetesObject,
  ResourceGraph,
  ResourceNode,
} from '../types';

/**
 * What an AI assistant is told about an environment: small enough for its
 * context (a few KB whatever the environment's size), the rest on request.
 * Strings are cut, lists capped and the rest counted (`more`).
 */

/** The longest message kept (health messages, events). */
const MESSAGE_CHARS = 300;

/** A message cut to MESSAGE_CHARS, marked when cut. @public */
export function shortMessage(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > MESSAGE_CHARS
    ? `${oneLine.slice(0, MESSAGE_CHARS - 1)}…`
    : oneLine;
}

/** `Kind/name` (with the namespace when it is another's), how assistants name resources to act on. @public */
export function resourceName(node: ResourceNode, namespace?: string): string {
  const where =
    node.namespace && node.namespace !== namespace ? `${node.namespace}/` : '';
  return `${node.kind}/${where}${node.name}`;
}

/** @public */
export interface LikelyCause {
  resource: string;
  status: HealthStatus;
  message?: string;
  /** The latest Warning event about it. */
  event?: { reason: string; message: string; count: number };
}

const isUnhealthy = (node: ResourceNode) =>
  rollsUp(node.health) &&
  node.health.status !== 'Healthy' &&
  node.health.status !== 'Suspended';

function latestWarning(
  events: ResourceEventSummary[],
): LikelyCause['event'] | undefined {
  const warnings = events
    .filter(e => e.type === 'Warning')
    .sort((a, b) => (b.lastSeen ?? '').localeCompare(a.lastSeen ?? ''));
  const [latest] = warnings;
  return latest
    ? {
        reason: latest.reason,
        message: shortMessage(latest.message) ?? '',
        count: latest.count,
      }
    : undefined;
}

/**
 * Where an unhealthy resource's trouble most likely starts: the worst
 * unhealthy resource below it in the graph's tree (a Deployment's
 * crash-looping Pod, a Kustomization's failing Deployment), followed down
 * while one is unhealthy, with its health message and latest Warning
 * event. Itself when nothing below it is unhealthy.
 *
 * @public
 */
export function likelyCause(
  node: ResourceNode,
  byId: ReadonlyMap<string, ResourceNode>,
  objects: readonly KubernetesObject[],
  namespace?: string,
): LikelyCause {
  let at = node;
  for (let depth = 0; depth < 8; depth++) {
    const worst = at.childIds
      .map(id => byId.get(id))
      .filter((c): c is ResourceNode => c !== undefined && isUnhealthy(c))
      .sort(
        (a, b) =>
          compareHealth(a.health!.status, b.health!.status) ||
          a.name.localeCompare(b.name),
      )[0];
    if (!worst) break;
    at = worst;
  }
  return {
    resource: resourceName(at, namespace),
    status: at.health?.status ?? 'Unknown',
    message: shortMessage(at.health?.message),
    event: latestWarning(resourceEvents(at, objects)),
  };
}

/** @public */
export interface UnhealthyResourcesAnswer {
  environment: string;
  namespace?: string;
  health: HealthStatus;
  /** Resources per health status, Events left out. */
  counts: Record<string, number>;
  /** The unhealthy resources whose trouble does not come from another listed below them, worst first. */
  unhealthy: Array<{
    resource: string;
    status: HealthStatus;
    message?: string;
    likelyCause?: LikelyCause;
  }>;
  /** Unhealthy resources left out of the list. */
  more: number;
  /** Parts of the environment that could not be read. */
  partial?: string[];
}

/**
 * The unhealthy resources of an environment, with Argo CD's messages and
 * the likely cause of each (see likelyCause): the top of each unhealthy
 * chain only (a Deployment, not also its ReplicaSet and Pods), worst
 * first, at most `limit`.
 *
 * @public
 */
export function unhealthyResources(
  read: Pick<
    EnvironmentResourcesResponse,
    'environment' | 'graph' | 'resources' | 'health' | 'errors'
  >,
  limit = 15,
): UnhealthyResourcesAnswer {
  const { graph } = read;
  const namespace = read.environment.namespace;
  const byId = new Map(graph.nodes.map(n => [n.id, n]));
  const unhealthy = graph.nodes.filter(isUnhealthy);
  // A chain is named once, at its top: skip a node whose parent is listed.
  const tops = unhealthy.filter(n => {
    const parent = n.parentId ? byId.get(n.parentId) : undefined;
    return !parent || !isUnhealthy(parent);
  });
  tops.sort(
    (a, b) =>
      compareHealth(a.health!.status, b.health!.status) ||
      resourceName(a).localeCompare(resourceName(b)),
  );
  const counts: Record<string, number> = {};
  for (const [status, count] of Object.entries(read.health.counts))
    if (count) counts[status] = count;
  return {
    environment: read.environment.name,
    namespace,
    health: read.health.status,
    counts,
    unhealthy: tops.slice(0, limit).map(node => {
      const cause = likelyCause(node, byId, read.resources, namespace);
      return {
        resource: resourceName(node, namespace),
        status: node.health!.status,
        message: shortMessage(node.health?.message),
        likelyCause:
          cause.resource === resourceName(node, namespace) ? undefined : cause,
      };
    }),
    more: Math.max(0, tops.length - limit),
    partial:
      read.errors.length > 0
        ? read.errors.slice(0, 5).map(e => shortMessage(e.message) ?? e.code)
        : undefined,
  };
}

/** @public */
export interface ResourceSummaryAnswer {
  resource: string;
  status?: HealthStatus;
  message?: string;
  /** Ready replicas, phase, restarts: what `kubectl get` shows in a line. */
  facts: Record<string, string | number | boolean>;
  conditions: Array<{
    type: string;
    status: string;
    reason?: string;
    message?: string;
  }>;
  /** The latest events, newest first. */
  events: Array<{
    type: string;
    reason: string;
    message: string;
    count: number;
    lastSeen?: string;
  }>;
  /** What owns it and what it owns, by name. */
  owner?: string;
  owns: string[];
  moreOwned: number;
}

/**
 * One resource as an assistant reads it: its health and message, a line of
 * facts, its conditions, its latest events (at most `eventLimit`), its
 * owner and what it owns (at most 10 named).
 *
 * @public
 */
export function resourceSummary(
  node: ResourceNode,
  graph: Pick<ResourceGraph, 'nodes'>,
  objects: readonly KubernetesObject[],
  namespace?: string,
  eventLimit = 10,
): ResourceSummaryAnswer {
  const byId = new Map(graph.nodes.map(n => [n.id, n]));
  const object = objects.find(
    o =>
      o.kind === node.kind &&
      o.metadata?.name === node.name &&
      (o.metadata?.namespace ?? '') === (node.namespace ?? ''),
  );
  const status = object?.status ?? {};
  const facts: Record<string, string | number | boolean> = {};
  if (typeof status.phase === 'string') facts.phase = status.phase;
  if (typeof object?.spec?.replicas === 'number')
    facts.replicas = object.spec.replicas;
  if (typeof status.readyReplicas === 'number')
    facts.readyReplicas = status.readyReplicas;
  if (object?.spec?.suspend === true) facts.suspended = true;
  const restarts = Array.isArray(status.containerStatuses)
    ? status.containerStatuses.reduce(
        (sum: number, c: any) => sum + (Number(c?.restartCount) || 0),
        0,
      )
    : undefined;
  if (restarts !== undefined) facts.restarts = restarts;
  const conditions: ResourceSummaryAnswer['conditions'] = (
    Array.isArray(status.conditions) ? status.conditions : []
  )
    .slice(0, 10)
    .map((c: any) => ({
      type: String(c?.type ?? ''),
      status: String(c?.status ?? ''),
      reason: c?.reason ? String(c.reason) : undefined,
      message: shortMessage(c?.message),
    }));
  const events = resourceEvents(node, objects)
    .sort((a, b) => (b.lastSeen ?? '').localeCompare(a.lastSeen ?? ''))
    .slice(0, eventLimit)
    .map(e => ({ ...e, message: shortMessage(e.message) ?? '' }));
  const owner = node.parentId ? byId.get(node.parentId) : undefined;
  const owned = node.childIds
    .map(id => byId.get(id))
    .filter((c): c is ResourceNode => c !== undefined);
  return {
    resource: resourceName(node, namespace),
    status: node.health?.status,
    message: shortMessage(node.health?.message),
    facts,
    conditions,
    events,
    owner: owner && resourceName(owner, namespace),
    owns: owned.slice(0, 10).map(c => resourceName(c, namespace)),
    moreOwned: Math.max(0, owned.length - 10),
  };
}
