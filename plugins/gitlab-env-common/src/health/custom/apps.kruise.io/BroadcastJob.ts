import { HealthAssessment, KubernetesObject } from '../../../types';
import { health } from '../../conditions';
import { specOf, statusOf } from '../../../k8s/objects';

const RUNNING = 'BroadcastJob is still running';

/** OpenKruise BroadcastJob (Argo CD's apps.kruise.io/BroadcastJob): by its phase and counts. */
export function broadcastJobHealth(obj: KubernetesObject): HealthAssessment {
  const status = statusOf(obj);
  const phase = status.phase;
  if (phase === 'completed' && status.desired === status.succeeded)
    return health('Healthy', 'BroadcastJob is completed successfully');
  if (phase === 'running' && status.active !== 0)
    return health('Progressing', RUNNING);
  if (phase === 'failed' && status.failed !== 0)
    return health('Degraded', 'BroadcastJob failed');
  if (phase === 'paused' && specOf(obj).paused === true)
    return health('Suspended', 'BroadcastJob is Paused');
  return health('Progressing', RUNNING);
}
