/**
 * ArgoCD's health codes, listed from most healthy to least healthy: the
 * order ArgoCD's `IsWorse` uses when rolling health up.
 *
 * @public
 */
export const HEALTH_STATUSES = [
  'Healthy',
  'Suspended',
  'Progressing',
  'Missing',
  'Degraded',
  'Unknown',
] as const;

/** @public */
export type HealthStatus = (typeof HEALTH_STATUSES)[number];

/**
 * Where an assessment came from when no built-in ArgoCD-compatible rule
 * made it: `generic` for the status conventions applied to a custom
 * resource without a rule, `adopter` for a rule the portal's adopters
 * registered (backend module or app-config). Absent for built-in rules.
 *
 * @public
 */
export type HealthOrigin = 'generic' | 'adopter';

/** @public */
export interface HealthAssessment {
  status: HealthStatus;
  message?: string;
  /** Set when the assessment did not come from a built-in rule. */
  origin?: HealthOrigin;
}

/**
 * Counts of objects per health status, for an environment or a subtree.
 * Objects whose kind carries no health are counted in `none`; an
 * environment's summary leaves Events out (`summarizeGraphHealth`).
 *
 * @public
 */
export type HealthCounts = Record<HealthStatus, number> & { none: number };

/**
 * The rolled-up health of a set of objects (an environment, a subtree).
 *
 * @public
 */
export interface HealthSummary {
  status: HealthStatus;
  counts: HealthCounts;
  total: number;
  /**
   * Set when the summary was computed from incomplete data (a kind could not
   * be listed, objects were dropped, a limit was reached): the status may be
   * better than the full data's. `reasons` says what is missing, for people.
   */
  partial?: { reasons: string[] };
}
