import { capabilitiesForKind } from '../actions';
import { resourceEvents, ResourceEventSummary } from '../events';
import { compareHealth, rollsUp } from '../health';
import {
  EnvironmentCapability,
  EnvironmentResourcesResponse,
  GitlabEnvError,
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

/**
 * The bytes of JSON an answer's list may take: with the answer's other
 * fields it stays under 8 KB however long the messages are; the items that
 * do not fit are counted with the rest (`more`).
 */
export const LIST_BUDGET_BYTES = 6 * 1024;

const encoder = new TextEncoder();

/**
 * What `make` makes of the items, in order, while their JSON fits `budget`
 * bytes (the first one always) and at most `limit` of them.
 */
export function takeWithin<T, R>(
  items: readonly T[],
  limit: number,
  budget: number,
  make: (item: T) => R,
): R[] {
  const taken: R[] = [];
  let used = 0;
  for (const item of items) {
    if (taken.length >= limit) break;
    const made = make(item);
    used += encoder.encode(JSON.stringify(made)).length + 1;
    if (taken.length > 0 && used > budget) break;
    taken.push(made);
  }
  return taken;
}

/** A message cut to MESSAGE_CHARS, marked when cut. @public */
export function shortMessage(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > MESSAGE_CHARS
    ? `${oneLine.slice(0, MESSAGE_CHARS - 1)}…`
    : oneLine;
}

/**
 * `CODE: message` of each failure, refusals the cluster makes on purpose
 * (Secrets, expected forbidden kinds) left out: they are how the
 * environment is set up, not something wrong with it.
 */
export function errorLines(
  errors: readonly GitlabEnvError[] | undefined,
  max = 3,
) {
  const unexpected = errors?.filter(e => !e.expected);
  if (!unexpected?.length) return undefined;
  return unexpected
    .slice(0, max)
    .map(e => `${e.code}: ${shortMessage(e.message) ?? ''}`);
}

/** `Kind/name` (with the namespace when it is another's), how assistants name resources to act on. @public */
export function resourceName(node: ResourceNode, namespace?: string): string {
  const where =
    node.namespace && node.namespace !== namespace ? `${node.namespace}/` : '';
  return `${node.kind}/${where}${node.name}`;
}

/**
 * The nodes a name as assistants write it designates: `Kind/name` (in the
 * environment's namespace, else in any namespace) or `Kind/namespace/name`;
 * the kind's case is not significant. Several when the name is ambiguous
 * (one kind in two API groups, one name in two namespaces), none when
 * nothing matches or the text is not such a name.
 *
 * @public
 */
export function resourcesNamed(
  nodes: readonly ResourceNode[],
  text: string,
  namespace?: string,
): ResourceNode[] {
  const parts = text.trim().split('/');
  if (parts.length < 2 || parts.length > 3 || parts.some(p => p === ''))
    return [];
  const [kind, ...rest] = parts;
  const name = rest[rest.length - 1];
  const inNamespace = rest.length === 2 ? rest[0] : undefined;
  const named = nodes.filter(
    n =>
      n.kind.toLowerCase() === kind.toLowerCase() &&
      n.name === name &&
      (inNamespace === undefined || (n.namespace ?? '') === inNamespace),
  );
  // An object the cluster holds wins over one a Flux inventory names but the
  // cluster lacks (which answers list as Missing, and may be described).
  const held = named.filter(n => !n.missing);
  const matches = held.length > 0 ? held : named;
  if (inNamespace !== undefined || matches.length < 2) return matches;
  const local = matches.filter(n => (n.namespace ?? '') === (namespace ?? ''));
  return local.length > 0 ? local : matches;
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
  /** Resources per health status; those at zero and those without health (`none`) left out. */
  counts: Record<string, number>;
  /** The unhealthy resources whose trouble does not come from another listed below them, worst first. */
  unhealthy: Array<{
    resource: string;
    status: HealthStatus;
    message?: string;
    likelyCause?: LikelyCause;
  }>;
  /** Unhealthy resources after the listed ones (ask again from a later offset). */
  more: number;
  /** Parts of the environment that could not be read, `CODE: message` (refusals made on purpose left out). */
  partial?: string[];
}

/**
 * The unhealthy resources of an environment, with Argo CD's messages and
 * the likely cause of each (see likelyCause): the top of each unhealthy
 * chain only (a Deployment, not also its ReplicaSet and Pods), worst
 * first, at most `limit` from the `offset`th on, as many as fit
 * LIST_BUDGET_BYTES.
 *
 * @public
 */
export function unhealthyResources(
  read: Pick<
    EnvironmentResourcesResponse,
    'environment' | 'graph' | 'resources' | 'health' | 'errors'
  >,
  limit = 15,
  offset = 0,
): UnhealthyResourcesAnswer {
  const { graph } = read;
  const namespace = read.environment.namespace;
  const byId = new Map(graph.nodes.map(n => [n.id, n]));
  // A chain is named once, at its top: skip a node whose parent is listed.
  const tops = graph.nodes.filter(isUnhealthy).filter(n => {
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
    if (count && status !== 'none') counts[status] = count;
  const unhealthy = takeWithin(
    tops.slice(offset),
    limit,
    LIST_BUDGET_BYTES,
    node => {
      const cause = likelyCause(node, byId, read.resources, namespace);
      return {
        resource: resourceName(node, namespace),
        status: node.health!.status,
        message: shortMessage(node.health?.message),
        likelyCause:
          cause.resource === resourceName(node, namespace) ? undefined : cause,
      };
    },
  );
  return {
    environment: read.environment.name,
    namespace,
    health: read.health.status,
    counts,
    unhealthy,
    more: Math.max(0, tops.length - offset - unhealthy.length),
    partial: errorLines(read.errors, 5),
  };
}

/** @public */
export interface ResourceSummaryAnswer {
  resource: string;
  /** As the object carries it, e.g. `apps/v1`. */
  apiVersion: string;
  status?: HealthStatus;
  message?: string;
  /** What may be done with it (actions, `pod.logs`), as its kind allows. */
  capabilities: EnvironmentCapability[];
  /** Why the environment never acts on it, when it does not. */
  readOnly?: string;
  /** Ready replicas, phase, restarts: what `kubectl get` shows in a line. */
  facts: Record<string, string | number | boolean>;
  conditions: Array<{
    type: string;
    status: string;
    reason?: string;
    message?: string;
  }>;
  /** The latest events, newest first, as many as fit with the rest (see LIST_BUDGET_BYTES). */
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
  /** Events about it after the listed ones. */
  moreEvents: number;
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
  const allEvents = resourceEvents(node, objects).sort((a, b) =>
    (b.lastSeen ?? '').localeCompare(a.lastSeen ?? ''),
  );
  const owner = node.parentId ? byId.get(node.parentId) : undefined;
  const owned = node.childIds
    .map(id => byId.get(id))
    .filter((c): c is ResourceNode => c !== undefined);
  const apiVersion = node.group
    ? `${node.group}/${node.version}`
    : node.version;
  const summary = {
    resource: resourceName(node, namespace),
    apiVersion,
    status: node.health?.status,
    message: shortMessage(node.health?.message),
    capabilities: capabilitiesForKind(apiVersion, node.kind),
    readOnly: shortMessage(node.readOnly),
    facts,
    conditions,
    owner: owner && resourceName(owner, namespace),
    owns: owned.slice(0, 10).map(c => resourceName(c, namespace)),
    moreOwned: Math.max(0, owned.length - 10),
  };
  const events = takeWithin(
    allEvents,
    eventLimit,
    LIST_BUDGET_BYTES - encoder.encode(JSON.stringify(summary)).length,
    e => ({ ...e, message: shortMessage(e.message) ?? '' }),
  );
  return {
    ...summary,
    events,
    moreEvents: allEvents.length - events.length,
  };
}
