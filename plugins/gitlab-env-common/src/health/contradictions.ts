import { HealthAssessment, HealthStatus, KubernetesObject } from '../types';
import { Condition, health, readConditionsOf } from './conditions';
import { NO_FIELDS, isRecord, kindOf } from '../k8s/objects';

// Why a guard after the rules: Argo CD's checks each read the fields their
// kind documents, so an object carrying a standard "not fine" signal in a
// field its rule does not read (a suspended CronJob, a Reconciling
// condition on a Flux object whose Ready is still True, an unobserved
// generation) could come out Healthy. A broken object shown green is what
// people stop trusting a tool for; the guard turns such a Healthy into
// the state the signal names. Adopters' rules are theirs and not guarded.

/**
 * `status.phase` / `status.state` / `status.status` values that say an
 * object is not fine, lower-cased without separators. Success words are
 * absent: they never contradict a Healthy.
 */
const NOT_FINE: ReadonlyMap<string, HealthStatus> = new Map([
  ...[
    'failed',
    'failure',
    'error',
    'errored',
    'degraded',
    'unhealthy',
    'lost',
    'rejected',
    'invalid',
    'crashloopbackoff',
  ].map(p => [p, 'Degraded'] as const),
  ...[
    'pending',
    'creating',
    'provisioning',
    'initializing',
    'updating',
    'upgrading',
    'deploying',
    'reconciling',
    'inprogress',
    'progressing',
    'starting',
    'scaling',
    'waiting',
    'installing',
    'terminating',
    'deleting',
  ].map(p => [p, 'Progressing'] as const),
  ...['paused', 'suspended', 'hibernated', 'hibernating'].map(
    p => [p, 'Suspended'] as const,
  ),
]);

/** A False Ready that only says the work is done (a Succeeded Pod's Ready). */
const DONE_REASONS = new Set(['PodCompleted']);

function explain(condition: Condition, fallback: string): string {
  return condition.message || condition.reason || fallback;
}

/** What NOT_FINE says of each raw value met so far (null: nothing): most objects of a kind share a few. */
const notFineOfValue = new Map<string, HealthStatus | null>();
/** Values come from clusters: past this many, or longer than a word, each is normalized again. */
const MAX_CACHED_VALUES = 1024;
const MAX_CACHED_LENGTH = 64;

function notFine(value: string): HealthStatus | undefined {
  const known = notFineOfValue.get(value);
  if (known !== undefined) return known ?? undefined;
  const mapped = NOT_FINE.get(value.toLowerCase().replace(/[\s_-]/g, ''));
  if (
    notFineOfValue.size < MAX_CACHED_VALUES &&
    value.length <= MAX_CACHED_LENGTH
  )
    notFineOfValue.set(value, mapped ?? null);
  return mapped;
}

const PHASE_FIELDS = ['phase', 'state', 'status'] as const;

function phaseSignal(obj: KubernetesObject): HealthAssessment | undefined {
  // Read, never changed: the guard runs for most objects, so nothing is copied.
  const status = isRecord(obj.status) ? obj.status : NO_FIELDS;
  for (const field of PHASE_FIELDS) {
    const value = status[field];
    if (typeof value !== 'string') continue;
    const mapped = notFine(value);
    if (mapped)
      return health(
        mapped,
        (typeof status.message === 'string' && status.message) ||
          `status.${field} is ${value}`,
      );
  }
  return undefined;
}

/**
 * The first standard signal in `obj` that contradicts a Healthy answer, as
 * the status it names: suspended or paused in the spec; a True Stalled,
 * Degraded or Failed condition, or a False Ready / Available; a failing
 * phase, state or status; a generation the controller has not observed
 * (on the object or its Ready / Available condition); a True Reconciling, an Unknown
 * Ready / Available; a progressing or paused phase. Undefined when the
 * object carries none.
 */
export function contradictingSignal(
  obj: KubernetesObject,
): HealthAssessment | undefined {
  const spec = isRecord(obj.spec) ? obj.spec : NO_FIELDS;
  if (spec.suspend === true || spec.paused === true)
    return health('Suspended', `${kindOf(obj) || 'Resource'} is suspended`);
  const conditions = readConditionsOf(obj);
  for (const c of conditions) {
    if (
      c.status === 'True' &&
      (c.type === 'Stalled' || c.type === 'Degraded' || c.type === 'Failed')
    )
      return health('Degraded', explain(c, c.type));
    if (
      c.status === 'False' &&
      (c.type === 'Ready' || c.type === 'Available') &&
      !(c.reason && DONE_REASONS.has(c.reason))
    )
      return health('Degraded', explain(c, `${c.type} is False`));
  }
  const phase = phaseSignal(obj);
  if (phase?.status === 'Degraded') return phase;
  const generation = obj.metadata?.generation;
  if (typeof generation === 'number') {
    const observed = isRecord(obj.status)
      ? obj.status.observedGeneration
      : undefined;
    const staleSummary = conditions.some(
      c =>
        (c.type === 'Ready' || c.type === 'Available') &&
        typeof c.observedGeneration === 'number' &&
        c.observedGeneration < generation,
    );
    if ((typeof observed === 'number' && observed < generation) || staleSummary)
      return health(
        'Progressing',
        `Waiting for the controller to observe generation ${generation}`,
      );
  }
  for (const c of conditions) {
    if (c.type === 'Reconciling' && c.status === 'True')
      return health('Progressing', explain(c, 'Reconciling'));
    if (
      (c.type === 'Ready' || c.type === 'Available') &&
      c.status === 'Unknown'
    )
      return health('Progressing', explain(c, `${c.type} is Unknown`));
  }
  return phase;
}
