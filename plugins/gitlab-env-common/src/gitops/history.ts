import { KubernetesObject, ResourceNode } from '../types';
import { Condition, conditionsOf } from '../health/conditions';
import { isRecord, statusOf, str } from '../k8s/objects';
import { resourceEvents } from '../events';

/** @public */
export type FluxHistoryOutcome =
  | 'succeeded'
  | 'failed'
  | 'progressing'
  | 'unknown';

/** One step of a Flux object's timeline. @public */
export interface FluxHistoryEntry {
  revision?: string;
  /** When it happened (the last time, for a reconciliation repeated). */
  time?: string;
  outcome: FluxHistoryOutcome;
  /** As the controller wrote it, e.g. `ReconciliationSucceeded`, `deployed`. */
  detail: string;
  /** As the controller wrote it, e.g. `2.818583s`. */
  duration?: string;
  /** How many reconciliations the entry stands for. */
  count?: number;
  /** Where the entry comes from. */
  from: 'status.history' | 'conditions' | 'events';
}

/** Kustomization `lastReconciledStatus` values that mean success. */
const SUCCESS = /Succeeded$|^deployed$|^superseded$/;
const FAILURE = /Failed$|^failed$|Error/;
const MAX_ENTRIES = 50;

function outcomeOf(detail: string): FluxHistoryOutcome {
  if (SUCCESS.test(detail)) return 'succeeded';
  if (FAILURE.test(detail)) return 'failed';
  if (/^pending|Progressing/.test(detail)) return 'progressing';
  return 'unknown';
}

/** Elapsed time between two timestamps, written like Go's durations. */
function between(start: unknown, end: unknown): string | undefined {
  const ms = Date.parse(str(end) ?? '') - Date.parse(str(start) ?? '');
  if (!Number.isFinite(ms) || ms < 0) return undefined;
  return ms < 60_000 ? `${ms / 1000}s` : `${Math.round(ms / 60_000)}m`;
}

/**
 * A Kustomization's snapshots (kustomize-controller, `.status.history`:
 * https://fluxcd.io/flux/components/kustomize/kustomizations/#history) or a
 * HelmRelease's (helm-controller v2, `.status.history`: release name,
 * version, `status`, `chartVersion`, `firstDeployed`, `lastDeployed`).
 */
function fromStatusHistory(object: KubernetesObject): FluxHistoryEntry[] {
  const history = statusOf(object).history;
  if (!Array.isArray(history)) return [];
  const entries: FluxHistoryEntry[] = [];
  for (const snapshot of history.slice(0, MAX_ENTRIES)) {
    if (!isRecord(snapshot)) continue;
    if (str(snapshot.lastReconciledStatus)) {
      const detail = snapshot.lastReconciledStatus as string;
      entries.push({
        revision: isRecord(snapshot.metadata)
          ? str(snapshot.metadata.revision)
          : undefined,
        time: str(snapshot.lastReconciled),
        outcome: outcomeOf(detail),
        detail,
        duration: str(snapshot.lastReconciledDuration),
        count:
          typeof snapshot.totalReconciliations === 'number'
            ? snapshot.totalReconciliations
            : undefined,
        from: 'status.history',
      });
    } else if (str(snapshot.status)) {
      const detail = snapshot.status as string;
      entries.push({
        revision: str(snapshot.chartVersion),
        time: str(snapshot.lastDeployed) ?? str(snapshot.firstDeployed),
        outcome: outcomeOf(detail),
        detail: `${detail}${
          typeof snapshot.version === 'number' ? ` (v${snapshot.version})` : ''
        }`,
        duration: between(snapshot.firstDeployed, snapshot.lastDeployed),
        from: 'status.history',
      });
    }
  }
  return entries;
}

function conditionOutcome(condition: Condition): FluxHistoryOutcome {
  if (condition.status === 'Unknown') return 'progressing';
  if (condition.type === 'Ready')
    return condition.status === 'True' ? 'succeeded' : 'failed';
  return condition.status === 'True' ? 'failed' : 'unknown';
}

/** The last transition of each condition, for controllers that keep no history. */
function fromConditions(object: KubernetesObject): FluxHistoryEntry[] {
  const revision =
    str(statusOf(object).lastAttemptedRevision) ??
    str(statusOf(object).lastAppliedRevision);
  return conditionsOf(object)
    .filter(c => c.type === 'Ready' || c.type === 'Stalled')
    .map(c => ({
      revision,
      time: str(c.lastTransitionTime),
      outcome: conditionOutcome(c),
      detail: `${c.type}=${c.status}${c.reason ? ` ${c.reason}` : ''}`,
      from: 'conditions' as const,
    }));
}

/**
 * A Flux object's timeline, newest first: `status.history` where the
 * controller keeps one, else its conditions' last transitions and the
 * Events about it (kube events keep about an hour by default).
 *
 * @public
 */
export function fluxHistory(
  object: KubernetesObject,
  node: ResourceNode,
  objects: readonly KubernetesObject[],
): FluxHistoryEntry[] {
  const history = fromStatusHistory(object);
  if (history.length > 0) return history;
  const events: FluxHistoryEntry[] = resourceEvents(node, objects)
    .slice(0, MAX_ENTRIES)
    .map(event => ({
      time: event.lastSeen,
      outcome: event.type === 'Warning' ? 'failed' : outcomeOf(event.reason),
      detail: `${event.reason}: ${event.message}`,
      count: event.count,
      from: 'events' as const,
    }));
  return [...fromConditions(object), ...events].sort(
    (a, b) => (Date.parse(b.time ?? '') || 0) - (Date.parse(a.time ?? '') || 0),
  );
}
