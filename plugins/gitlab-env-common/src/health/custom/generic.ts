import { HealthAssessment, HealthStatus, KubernetesObject } from '../../types';
import { ancestorPolicyHealth } from './gatewayPolicies';
import { Condition, conditionsOf, health } from '../conditions';
import { isRecord, kindOf, specOf, statusOf, str } from '../../k8s/objects';

/**
 * Condition types whose True/False/Unknown says how the whole object is
 * doing, in the order they are read: kstatus's `Ready` first, then the
 * types other controller families use for the same meaning (Tekton
 * `Succeeded`, Deployment-like `Available`, Crossplane-like `Synced`,
 * CRD-like `Established`, OLM/OpenShift `Healthy`).
 */
const SUMMARY_CONDITIONS = [
  'Ready',
  'Succeeded',
  'Available',
  'Synced',
  'Established',
  'Healthy',
] as const;

/**
 * `status.phase` (or `status.state`) values whose meaning controllers
 * agree on, lower-cased. Any other value is not guessed at.
 */
const PHASES: ReadonlyMap<string, HealthStatus> = new Map([
  ...[
    'running',
    'ready',
    'active',
    'succeeded',
    'completed',
    'complete',
    'bound',
    'available',
    'healthy',
    'deployed',
    'established',
    'synced',
    'online',
  ].map(p => [p, 'Healthy'] as const),
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
  ...['paused', 'suspended', 'hibernated', 'hibernating'].map(
    p => [p, 'Suspended'] as const,
  ),
]);

function trueCondition(
  conditions: Condition[],
  type: string,
): Condition | undefined {
  return conditions.find(c => c.type === type && c.status === 'True');
}

function explain(condition: Condition): string | undefined {
  return condition.message || condition.reason || undefined;
}

/** The generation the controller has seen, when it says and is behind. */
function unobservedGeneration(
  obj: KubernetesObject,
  conditions: Condition[],
): number | undefined {
  const generation = obj.metadata?.generation;
  if (typeof generation !== 'number') return undefined;
  const observed = statusOf(obj).observedGeneration;
  if (typeof observed === 'number' && observed < generation) return generation;
  const ready = conditions.find(c => c.type === 'Ready');
  if (
    typeof ready?.observedGeneration === 'number' &&
    ready.observedGeneration < generation
  )
    return generation;
  return undefined;
}

/**
 * Reasons with which controllers say "not ready yet" rather than "failed"
 * (kstatus reads a False Ready as in progress; most ArgoCD scripts as
 * Degraded): matched as words in the reason.
 */
const IN_PROGRESS_REASON =
  /^(Creating|Provisioning|Pending|Progressing|Reconciling|Initializing|Installing|Updating|Upgrading|Deploying|Waiting|Starting|Scaling|InProgress)|(Progressing|InProgress|Pending)$/;

/** A False summary condition that says it is still on its way. */
function stillInProgress(condition: Condition): boolean {
  const severity = (condition as { severity?: unknown }).severity;
  // Cluster API: a False condition of severity Info is progress, not failure.
  if (severity === 'Info') return true;
  return (
    typeof condition.reason === 'string' &&
    IN_PROGRESS_REASON.test(condition.reason)
  );
}

function fromSummaryCondition(
  conditions: Condition[],
): HealthAssessment | undefined {
  for (const type of SUMMARY_CONDITIONS) {
    const condition = conditions.find(c => c.type === type);
    if (!condition) continue;
    if (condition.status === 'True')
      return health('Healthy', condition.message || undefined);
    if (condition.status === 'False' && stillInProgress(condition))
      return health('Progressing', explain(condition) ?? `${type} is False`);
    if (condition.status === 'False')
      return health('Degraded', explain(condition) ?? `${type} is False`);
    return health('Progressing', explain(condition) ?? `${type} is Unknown`);
  }
  return undefined;
}

function fromPhase(status: Record<string, any>): HealthAssessment | undefined {
  // `status.status` too: some operators keep their phase there (ClickHouse).
  const phase = str(status.phase) ?? str(status.state) ?? str(status.status);
  if (!phase) return undefined;
  const mapped = PHASES.get(phase.toLowerCase().replace(/[\s_-]/g, ''));
  if (!mapped) return undefined;
  return health(mapped, str(status.message) || `Phase ${phase}`);
}

/** Why the generic rule cannot tell, naming what the status does hold. */
function unreadable(
  obj: KubernetesObject,
  status: Record<string, any>,
  conditions: Condition[],
): HealthAssessment {
  const phase = str(status.phase) ?? str(status.state);
  let says = 'its status reports no conditions and no phase';
  if (conditions.length > 0) {
    const types = [...new Set(conditions.map(c => c.type))].slice(0, 5);
    says = `its conditions (${types.join(
      ', ',
    )}) are none the generic rule reads`;
  } else if (phase) {
    says = `its phase '${phase}' is not one the generic rule knows`;
  }
  return health(
    'Unknown',
    `No health rule for ${
      kindOf(obj) || 'this kind'
    }, and ${says}. Add a rule in gitlabEnv.health.rules to assess it.`,
  );
}

/**
 * Any other custom resource, by the status conventions most controllers
 * follow (kstatus and the common condition types): suspended, Stalled, a
 * generation the controller has not observed yet, Reconciling, an explicit
 * failure, then the first summary condition, then a known phase, then a
 * policy's `status.ancestors` (Gateway API policy attachment). An object
 * without status carries no health (like a ConfigMap); one whose status
 * says nothing the rule can read is Unknown with the reason, never a guess.
 */
export function genericHealth(
  obj: KubernetesObject,
): HealthAssessment | undefined {
  const spec = specOf(obj);
  if (spec.suspend === true || spec.paused === true)
    return health('Suspended', `${kindOf(obj) || 'Resource'} is suspended`);
  if (!isRecord(obj.status) || Object.keys(obj.status).length === 0)
    return undefined;
  const status = statusOf(obj);
  const conditions = conditionsOf(obj);
  const stalled = trueCondition(conditions, 'Stalled');
  if (stalled) return health('Degraded', explain(stalled) ?? 'Stalled');
  const generation = unobservedGeneration(obj, conditions);
  if (generation !== undefined)
    return health(
      'Progressing',
      `Waiting for the controller to observe generation ${generation}`,
    );
  const reconciling = trueCondition(conditions, 'Reconciling');
  if (reconciling)
    return health('Progressing', explain(reconciling) ?? 'Reconciling');
  const failed =
    trueCondition(conditions, 'Degraded') ??
    trueCondition(conditions, 'Failed');
  if (failed) return health('Degraded', explain(failed) ?? failed.type);
  const summary = fromSummaryCondition(conditions);
  if (summary) return summary;
  const progressing = trueCondition(conditions, 'Progressing');
  if (progressing)
    return health('Progressing', explain(progressing) ?? 'Progressing');
  return (
    fromPhase(status) ??
    ancestorPolicyHealth(obj) ??
    unreadable(obj, status, conditions)
  );
}
