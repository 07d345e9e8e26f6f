import { HealthAssessment, KubernetesObject } from '../../types';
import { conditionsOf, health } from '../conditions';
import { isRecord } from '../../k8s/objects';

/** argoproj.io AnalysisRun. */
export function analysisRunHealth(
  obj: KubernetesObject,
): HealthAssessment | undefined {
  if (!isRecord(obj.status)) {
    return health(
      'Progressing',
      'Waiting for analysis run to finish: status has not been reconciled.',
    );
  }
  const { phase, message } = obj.status;
  switch (phase) {
    case 'Pending':
    case 'Running':
      return health('Progressing', 'Analysis run is running');
    case 'Successful':
      return health(
        'Healthy',
        message || 'Analysis run completed successfully',
      );
    case 'Failed':
      return health('Degraded', message || 'Analysis run failed');
    case 'Error':
      return health('Degraded', message || 'Analysis run had an error');
    case 'Inconclusive':
      return health('Unknown', message || 'Analysis run was inconclusive');
    default:
      return undefined;
  }
}

/** argoproj.io Experiment. */
export function experimentHealth(
  obj: KubernetesObject,
): HealthAssessment | undefined {
  if (!isRecord(obj.status)) {
    return health(
      'Progressing',
      'Waiting for experiment to finish: status has not been reconciled.',
    );
  }
  const byPhase: Record<string, HealthAssessment> = {
    Pending: health('Progressing', 'Experiment is pending'),
    Running: health('Progressing', 'Experiment is running'),
    Successful: health('Healthy', 'Experiment is successful'),
    Failed: health('Degraded', 'Experiment has failed'),
    Error: health('Degraded', 'Experiment had an error'),
  };
  return byPhase[obj.status.phase];
}

/** argoproj.io Workflow (ArgoCD's built-in Go check). */
export function workflowHealth(obj: KubernetesObject): HealthAssessment {
  const status = isRecord(obj.status) ? obj.status : {};
  const phase = status.phase ?? '';
  if (phase === '' || phase === 'Pending' || phase === 'Running')
    return health('Progressing', status.message);
  if (phase === 'Succeeded') return health('Healthy', status.message);
  if (phase === 'Failed' || phase === 'Error')
    return health('Degraded', status.message);
  return health('Unknown', status.message);
}

/** argoproj.io CronWorkflow. */
export function cronWorkflowHealth(obj: KubernetesObject): HealthAssessment {
  for (const c of conditionsOf(obj)) {
    if (
      (c.type === 'SpecError' || c.type === 'SubmissionError') &&
      c.status === 'True'
    ) {
      return health('Degraded', c.message);
    }
    if (c.type === 'Completed' && c.status === 'True')
      return health('Healthy', c.message);
  }
  return health('Healthy', 'CronWorkflow is healthy.');
}
