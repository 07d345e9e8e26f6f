import {
  DriftReport,
  FieldChange,
  KubernetesObject,
  ResourceKey,
} from '../types';
import { conditionsOf } from '../health/conditions';
import { isRecord, str, annotationsOf } from '../k8s/objects';
import { diffDesiredLive } from './fieldDiff';
import {
  FieldManagerEntry,
  fieldManagers,
  formatFieldPath,
  valueAtFieldPath,
} from './managedFields';

/** The field managers of Flux's appliers and CLI (`flux-client-side-apply`). @public */
export const FLUX_FIELD_MANAGERS: ReadonlySet<string> = new Set([
  'kustomize-controller',
  'helm-controller',
  'flux-operator',
  'flux-client-side-apply',
]);

/**
 * Kubernetes' own controllers write fields of objects they act on (the
 * Deployment revision annotation, a Service's cluster IP): not drift.
 */
const SYSTEM_FIELD_MANAGERS: ReadonlySet<string> = new Set([
  'kube-controller-manager',
  'kube-scheduler',
  'kubelet',
  'kube-apiserver',
  'before-first-apply',
]);

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
/** Fields that change on every write and say nothing of drift. */
const BOOKKEEPING = new Set([
  'status',
  'metadata.managedFields',
  'metadata.resourceVersion',
]);
const MAX_LAST_APPLIED_BYTES = 256 * 1024;

function isBookkeeping(path: readonly string[]): boolean {
  return (
    BOOKKEEPING.has(path[0]) ||
    BOOKKEEPING.has(`${path[0]}.${path[1]}`) ||
    (path[0] === 'metadata' &&
      path[1] === 'annotations' &&
      path[2] === LAST_APPLIED)
  );
}

/** The fields of a managedFields entry that would be drift: written by neither Flux nor Kubernetes. */
function foreignPaths(entry: FieldManagerEntry): string[][] {
  if (entry.subresource) return [];
  if (FLUX_FIELD_MANAGERS.has(entry.manager)) return [];
  if (SYSTEM_FIELD_MANAGERS.has(entry.manager)) return [];
  return entry.paths.filter(path => !isBookkeeping(path));
}

/**
 * The managedFields entries that are evidence of drift — the rest is
 * bookkeeping a reader can drop (see driftEvidence).
 *
 * @public
 */
export function foreignFieldManagers(object: KubernetesObject): unknown[] {
  const entries = object.metadata?.managedFields;
  if (!Array.isArray(entries)) return [];
  const managers = fieldManagers(object);
  return entries.filter(entry =>
    managers.some(
      m =>
        isRecord(entry) &&
        m.manager === entry.manager &&
        m.subresource === str(entry.subresource) &&
        foreignPaths(m).length > 0,
    ),
  );
}

/** Fields a manager other than Flux or Kubernetes wrote into the object itself. */
function fromManagedFields(object: KubernetesObject, report: DriftReport) {
  for (const entry of fieldManagers(object)) {
    const paths = foreignPaths(entry);
    if (paths.length === 0) continue;
    report.signals.push({
      signal: 'managedFields',
      detail: `${paths.length} field(s) owned by ${entry.manager} (${entry.operation})`,
      time: entry.time,
    });
    for (const path of paths) {
      const { value } = valueAtFieldPath(object, path);
      report.changes.push({
        path: formatFieldPath(path),
        change: 'changed',
        live: value,
        by: entry.manager,
        at: entry.time,
      });
    }
  }
}

/**
 * The fields that differ between `kubectl.kubernetes.io/last-applied-configuration`
 * (what `kubectl apply`, client-side, last applied) and the live object.
 *
 * @public
 */
export function lastAppliedChanges(object: KubernetesObject): FieldChange[] {
  const annotation = annotationsOf(object)[LAST_APPLIED];
  if (
    typeof annotation !== 'string' ||
    annotation.length > MAX_LAST_APPLIED_BYTES
  )
    return [];
  let applied: unknown;
  try {
    applied = JSON.parse(annotation);
  } catch {
    return [];
  }
  if (!isRecord(applied)) return [];
  const { status: _ignored, ...desired } = applied;
  return diffDesiredLive(desired, object);
}

/** What `kubectl apply` (client-side) last applied, against the live object. */
function fromLastApplied(object: KubernetesObject, report: DriftReport) {
  const changes = lastAppliedChanges(object).filter(
    change => !report.changes.some(known => known.path === change.path),
  );
  if (changes.length === 0) return;
  report.signals.push({
    signal: 'lastApplied',
    detail: `${changes.length} field(s) differ from ${LAST_APPLIED}`,
  });
  report.changes.push(...changes);
}

/**
 * helm-controller's drift detection events on the HelmRelease
 * (helm-controller internal/reconcile/atomic_release.go, ReleaseStatusDrifted;
 * https://fluxcd.io/flux/components/helm/helmreleases/#drift-detection):
 * `DriftDetected`, "Cluster state of release <ns>/<name>.v<n> has drifted
 * from the desired state:" then one line per object, `<Kind>/<namespace>/<name>
 * changed (1 additions, 0 changes, 0 removals)` or `... removed`. With
 * `spec.driftDetection.mode: enabled` it then corrects
 * (internal/reconcile/correct_cluster_drift.go): `DriftCorrected`, "Cluster
 * state of release … has been corrected:", or `DriftCorrectionFailed` with a
 * "Successful corrections:" part, each then one line per object as
 * fluxcd/pkg/ssa's ChangeSetEntry prints it, `<Kind>/<namespace>/<name> <action>`.
 */
const DRIFT_LINE =
  /^([A-Za-z0-9]+)\/(?:([^/\s]*)\/)?([^/\s]+) (changed|removed)(?: \((.*)\))?$/;
const CORRECTED_LINE =
  /^([A-Za-z0-9]+)\/(?:([^/\s]*)\/)?([^/\s]+) (configured|created|deleted)$/;
const MAX_LINES = 200;

/** @public */
export interface FluxDriftEventEntry {
  kind: string;
  namespace: string;
  name: string;
  detail: string;
  time?: string;
  /** helm-controller corrected the object (drift detection `enabled`): no drift since. */
  corrected?: boolean;
}

/** The lines of a drift correction event that name corrected objects. */
function correctedLines(message: string): string[] {
  if (/^Cluster state of release .* has been corrected:/.test(message))
    return message.split('\n').slice(1, MAX_LINES + 1);
  const at = message.indexOf('\n\nSuccessful corrections:\n');
  if (!message.startsWith('Failed to ') || at === -1) return [];
  return message
    .slice(at + '\n\nSuccessful corrections:\n'.length)
    .split('\n')
    .slice(0, MAX_LINES);
}

/**
 * The objects Flux's drift-detection Events name, newest event first: drifted,
 * or corrected since (see driftOf).
 *
 * @public
 */
export function fluxDriftEvents(
  events: readonly KubernetesObject[],
): FluxDriftEventEntry[] {
  const entries: FluxDriftEventEntry[] = [];
  for (const event of events) {
    if (event?.kind !== 'Event') continue;
    const message = str((event as Record<string, unknown>).message) ?? '';
    const record = event as Record<string, any>;
    const time = str(record.lastTimestamp) ?? str(record.eventTime);
    if (message.includes('has drifted from the desired state')) {
      for (const line of message.split('\n').slice(1, MAX_LINES + 1)) {
        const match = DRIFT_LINE.exec(line.trim());
        if (!match) continue;
        entries.push({
          kind: match[1],
          namespace: match[2] ?? '',
          name: match[3],
          detail: `${match[4]}${match[5] ? ` (${match[5]})` : ''}`,
          time,
        });
      }
      continue;
    }
    for (const line of correctedLines(message)) {
      const match = CORRECTED_LINE.exec(line.trim());
      if (!match) continue;
      entries.push({
        kind: match[1],
        namespace: match[2] ?? '',
        name: match[3],
        detail: `corrected (${match[4]})`,
        time,
        corrected: true,
      });
    }
  }
  // In one second, the correction follows the detection (one reconcile).
  return entries.sort(
    (a, b) =>
      (Date.parse(b.time ?? '') || 0) - (Date.parse(a.time ?? '') || 0) ||
      Number(b.corrected ?? false) - Number(a.corrected ?? false),
  );
}

/**
 * helm-controller's drift conditions. It defines no `Drifted` condition and
 * no `DriftDetected` reason on Ready (helm-controller api/v2, OwnedConditions:
 * Released, Remediated, TestSuccess, Reconciling, Ready, Stalled); in mode
 * `warn` drift is an Event only. In mode `enabled`, while it corrects the
 * release's objects it marks `Ready=Unknown`, reason `Progressing`, message
 * "correcting cluster drift" (correct_cluster_drift.go), and when the
 * correction does not take, the next attempt leaves it there with
 * `Reconciling=True`, reason `ProgressingWithRetry`, the same message
 * (atomic_release.go, MustContinue). The condition names no object: it is
 * the release's drift.
 */
const CORRECTING_DRIFT = 'correcting cluster drift';

/**
 * The drift signal of a HelmRelease's own conditions, when helm-controller
 * is correcting its cluster state; undefined otherwise.
 *
 * @public
 */
export function fluxDriftCondition(
  object: KubernetesObject,
): DriftReport['signals'][number] | undefined {
  if (object.kind !== 'HelmRelease') return undefined;
  const condition = conditionsOf(object).find(
    c =>
      ((c.type === 'Ready' && c.status === 'Unknown') ||
        (c.type === 'Reconciling' && c.status === 'True')) &&
      c.message === CORRECTING_DRIFT,
  );
  if (!condition) return undefined;
  return {
    signal: 'fluxCondition',
    detail: `helm-controller is correcting the release's drift (${
      condition.type
    }=${condition.status}${condition.reason ? ` ${condition.reason}` : ''}: ${
      condition.message
    })`,
    time: str(condition.lastTransitionTime),
  };
}

/**
 * The drift events naming the object, newest first, up to the first
 * correction: what helm-controller corrected has not drifted since.
 */
function fromFluxEvents(
  key: ResourceKey,
  driftEvents: readonly FluxDriftEventEntry[],
  report: DriftReport,
) {
  for (const event of driftEvents) {
    if (
      event.kind !== key.kind ||
      event.name !== key.name ||
      event.namespace !== key.namespace
    )
      continue;
    if (event.corrected) return;
    report.signals.push({
      signal: 'fluxEvent',
      detail: event.detail,
      time: event.time,
    });
  }
}

/**
 * Whether a Flux-managed object drifted, from each signal the cluster
 * gives: Flux's drift events (up to a correction), a HelmRelease's own
 * drift-correction condition, fields owned by a manager other than Flux
 * (server-side apply's managedFields), and
 * `kubectl.kubernetes.io/last-applied-configuration`.
 *
 * @public
 */
export function driftOf(
  object: KubernetesObject,
  key: ResourceKey,
  driftEvents: readonly FluxDriftEventEntry[],
): DriftReport {
  const report: DriftReport = { drifted: false, signals: [], changes: [] };
  fromFluxEvents(key, driftEvents, report);
  const condition = fluxDriftCondition(object);
  if (condition) report.signals.push(condition);
  fromManagedFields(object, report);
  fromLastApplied(object, report);
  report.drifted = report.signals.length > 0;
  return report;
}
