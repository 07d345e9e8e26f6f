import { HealthAssessment, HealthStatus, KubernetesObject } from '../types';
import { Condition, health, readConditionsIn } from './conditions';
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

/** What a phase, state or status value says, if it is a word of NOT_FINE. */
function fieldSignal(
  status: Readonly<Record<string, unknown>>,
  field: string,
  value: unknown,
): HealthAssessment | undefined {
  if (typeof value !== 'string') return undefined;
  const mapped = notFine(value);
  if (!mapped) return undefined;
  return health(
    mapped,
    (typeof status.message === 'string' && status.message) ||
      `status.${field} is ${value}`,
  );
}

function phaseSignal(
  status: Readonly<Record<string, unknown>>,
): HealthAssessment | undefined {
  // Each field read by name: the guard runs for objects of every kind, and
  // a read by a computed name from objects of many shapes costs more.
  return (
    fieldSignal(status, 'phase', status.phase) ??
    fieldSignal(status, 'state', status.state) ??
    fieldSignal(status, 'status', status.status)
  );
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
  // Each field of the object read once: objects of every kind come here,
  // each kind its own shape, and every such read is a lookup.
  const spec = obj.spec;
  if (isRecord(spec) && (spec.suspend === true || spec.paused === true))
    return health('Suspended', `${kindOf(obj) || 'Resource'} is suspended`);
  const status = isRecord(obj.status) ? obj.status : NO_FIELDS;
  const conditions = readConditionsIn(status);
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
  const phase = phaseSignal(status);
  if (phase?.status === 'Degraded') return phase;
  const generation = obj.metadata?.generation;
  if (typeof generation === 'number') {
    const observed = status.observedGeneration;
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
