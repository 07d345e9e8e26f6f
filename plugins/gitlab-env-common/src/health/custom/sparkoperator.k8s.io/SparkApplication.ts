import { HealthAssessment, KubernetesObject } from '../../../types';
import { health } from '../../conditions';
import { isRecord, specOf, statusOf, str } from '../../../k8s/objects';

const WAITING = 'Waiting for Executor pods';

const STATES: Record<string, HealthAssessment> = {
  SUBMITTED: health(
    'Progressing',
    'SparkApplication was submitted successfully',
  ),
  COMPLETED: health('Healthy', 'SparkApplication was Completed'),
  PENDING_RERUN: health('Progressing', 'SparkApplication is Pending Rerun'),
  INVALIDATING: health('Missing', 'SparkApplication is in InvalidatingState'),
  SUCCEEDING: health(
    'Progressing',
    'The driver pod has been completed successfully. The executor pods terminate and are cleaned up.',
  ),
  UNKNOWN: health(
    'Progressing',
    'SparkApplication is in UnknownState because either driver pod or one or all executor pods in unknown state',
  ),
};

/**
 * Kubeflow Spark operator SparkApplication (Argo CD's
 * sparkoperator.k8s.io/SparkApplication): the application state; RUNNING
 * is Healthy once as many executors run as the spec asks for.
 */
export function sparkApplicationHealth(
  obj: KubernetesObject,
): HealthAssessment {
  const appState = statusOf(obj).applicationState;
  if (!isRecord(appState) || typeof appState.state !== 'string')
    return health('Progressing', WAITING);
  const state = appState.state;
  if (state === '')
    return health(
      'Progressing',
      'SparkApplication was added, enqueuing it for submission',
    );
  if (
    state === 'FAILED' ||
    state === 'SUBMISSION_FAILED' ||
    state === 'FAILING'
  )
    return health('Degraded', str(appState.errorMessage));
  if (state === 'RUNNING') {
    const executors = statusOf(obj).executorState;
    const executor = specOf(obj).executor;
    const wanted = isRecord(executor) ? executor.instances : undefined;
    if (isRecord(executors) && typeof wanted === 'number') {
      const running = Object.values(executors).filter(
        s => s === 'RUNNING',
      ).length;
      if (running === wanted)
        return health('Healthy', 'SparkApplication is Running');
    }
    return health('Progressing', WAITING);
  }
  return STATES[state] ?? health('Progressing', WAITING);
}
