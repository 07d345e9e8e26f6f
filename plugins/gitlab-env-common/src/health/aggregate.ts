import {
  HEALTH_STATUSES,
  HealthAssessment,
  HealthCounts,
  HealthStatus,
  HealthSummary,
} from '../types';

const SEVERITY = new Map<HealthStatus, number>(
  HEALTH_STATUSES.map((s, i) => [s, i]),
);

/** A status's place in ArgoCD's order of severity: 0 for Healthy, higher is worse. */
export function healthSeverity(status: HealthStatus): number {
  return SEVERITY.get(status) ?? 0;
}

/**
 * Whether an assessment counts in roll-ups. The generic rule's Unknown
 * ("no rule, and the status says nothing we can read") does not: ArgoCD
 * gives such objects no health at all, so an environment's health stays
 * what ArgoCD would show while the node itself says why it is unassessed.
 *
 * @public
 */
export function rollsUp(
  assessment: HealthAssessment | undefined,
): assessment is HealthAssessment {
  return (
    assessment !== undefined &&
    !(assessment.origin === 'generic' && assessment.status === 'Unknown')
  );
}

/**
 * The severity an assessment rolls up with (see healthSeverity), or -1
 * when it does not roll up (see rollsUp).
 */
export function rollupSeverity(
  assessment: HealthAssessment | undefined,
): number {
  return rollsUp(assessment) ? healthSeverity(assessment.status) : -1;
}

/** ArgoCD's `IsWorse`: true when `next` is less healthy than `current`. @public */
export function isWorseHealth(
  current: HealthStatus,
  next: HealthStatus,
): boolean {
  return (SEVERITY.get(next) ?? 0) > (SEVERITY.get(current) ?? 0);
}

/** Sorts worst first: Unknown, Degraded, Missing, Progressing, Suspended, Healthy. @public */
export function compareHealth(a: HealthStatus, b: HealthStatus): number {
  return (SEVERITY.get(b) ?? 0) - (SEVERITY.get(a) ?? 0);
}

/**
 * Rolls statuses up by ArgoCD's order of severity; objects without health
 * are skipped and an empty set is Healthy, as in ArgoCD's application health.
 *
 * @public
 */
export function aggregateHealth(
  statuses: Iterable<HealthStatus | undefined>,
): HealthStatus {
  let worst: HealthStatus = 'Healthy';
  for (const status of statuses) {
    if (status && isWorseHealth(worst, status)) worst = status;
  }
  return worst;
}

/** @public */
export function emptyHealthCounts(): HealthCounts {
  return {
    Healthy: 0,
    Suspended: 0,
    Progressing: 0,
    Missing: 0,
    Degraded: 0,
    Unknown: 0,
    none: 0,
  };
}

/** Counts per status and the worst status of a set of assessments. @public */
export function summarizeHealth(
  assessments: Iterable<HealthAssessment | undefined>,
): HealthSummary {
  const counts = emptyHealthCounts();
  let status: HealthStatus = 'Healthy';
  let total = 0;
  for (const assessment of assessments) {
    total += 1;
    if (!rollsUp(assessment)) {
      counts.none += 1;
      continue;
    }
    counts[assessment.status] += 1;
    if (isWorseHealth(status, assessment.status)) status = assessment.status;
  }
  return { status, counts, total };
}
