import { KubeObject } from '../scenario/types';
import { isoSeconds } from './ids';

/**
 * helm-controller's drift detection, for a HelmRelease whose scenario names
 * drifted objects. The scenario lists them in `simulator.gitlab-env/drift`,
 * one per line as helm-controller prints them (`<Kind>/<ns>/<name> changed
 * (…)` or `… removed`); `simulator.gitlab-env/drift-correction: failed`
 * makes the correction fail. What helm-controller records, and nothing more
 * (helm-controller internal/reconcile/atomic_release.go, ReleaseStatusDrifted,
 * and correct_cluster_drift.go):
 * - mode `disabled` (the default): nothing;
 * - mode `warn`: a Warning Event `DriftDetected`; no condition;
 * - mode `enabled`: that Event, then the correction: a Normal Event
 *   `DriftCorrected`, or a Warning `DriftCorrectionFailed`, and then
 *   `Ready=Unknown Progressing` and `Reconciling=True ProgressingWithRetry`,
 *   both "correcting cluster drift", until it takes.
 */
export const DRIFT_ANNOTATION = 'simulator.gitlab-env/drift';
export const DRIFT_CORRECTION_ANNOTATION =
  'simulator.gitlab-env/drift-correction';

const CORRECTING = 'correcting cluster drift';

function driftOf(release: KubeObject) {
  const mode = release.spec?.driftDetection?.mode;
  const lines = String(release.metadata.annotations?.[DRIFT_ANNOTATION] ?? '')
    .split('\n')
    .map(line => line.trim())
    .filter(Boolean);
  if ((mode !== 'warn' && mode !== 'enabled') || lines.length === 0)
    return undefined;
  const latest = release.status?.history?.[0];
  return {
    mode: mode as 'warn' | 'enabled',
    lines,
    failed:
      mode === 'enabled' &&
      release.metadata.annotations?.[DRIFT_CORRECTION_ANNOTATION] === 'failed',
    // Snapshot.FullReleaseName: <namespace>/<name>.v<version>.
    release: `${latest?.namespace ?? release.metadata.namespace}/${
      latest?.name ?? release.metadata.name
    }.v${latest?.version ?? 1}`,
  };
}

/** The HelmRelease with the conditions a correction that keeps failing leaves. */
export function withHelmDriftStatus(
  release: KubeObject,
  now: Date,
): KubeObject {
  const drift = driftOf(release);
  if (!drift?.failed) return release;
  const at = isoSeconds(now);
  const generation = release.status?.observedGeneration;
  const conditions = (release.status?.conditions ?? []).filter(
    (c: { type?: string }) => c.type !== 'Ready' && c.type !== 'Reconciling',
  );
  return {
    ...release,
    status: {
      ...release.status,
      conditions: [
        {
          type: 'Reconciling',
          status: 'True',
          reason: 'ProgressingWithRetry',
          message: CORRECTING,
          lastTransitionTime: at,
          observedGeneration: generation,
        },
        {
          type: 'Ready',
          status: 'Unknown',
          reason: 'Progressing',
          message: CORRECTING,
          lastTransitionTime: at,
          observedGeneration: generation,
        },
        ...conditions,
      ],
    },
  };
}

export interface HelmDriftEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
  /** Seconds before now. */
  ago: number;
}

/** The Events helm-controller records about the release's drift, oldest first. */
export function helmDriftEvents(release: KubeObject): HelmDriftEvent[] {
  const drift = driftOf(release);
  if (!drift) return [];
  const events: HelmDriftEvent[] = [
    {
      type: 'Warning',
      reason: 'DriftDetected',
      message: `Cluster state of release ${
        drift.release
      } has drifted from the desired state:\n${drift.lines.join('\n')}`,
      ago: 5,
    },
  ];
  if (drift.mode !== 'enabled') return events;
  // ssa.ChangeSetEntry: "<Kind>/<namespace>/<name> <action>".
  const subjects = drift.lines.map(line => line.split(' ')[0]);
  if (drift.failed)
    events.push({
      type: 'Warning',
      reason: 'DriftCorrectionFailed',
      message: `Failed to correct cluster state of release ${
        drift.release
      }:\n${subjects
        .map(s => `${s} dry-run failed: admission webhook denied the request`)
        .join('\n')}`,
      ago: 0,
    });
  else
    events.push({
      type: 'Normal',
      reason: 'DriftCorrected',
      message: `Cluster state of release ${
        drift.release
      } has been corrected:\n${drift.lines
        .map(
          (line, i) =>
            `${subjects[i]} ${
              line.endsWith('removed') ? 'created' : 'configured'
            }`,
        )
        .join('\n')}`,
      ago: 0,
    });
  return events;
}
