import { HealthAssessment, KubernetesObject } from '../../../types';
import { health } from '../../conditions';
import { isRecord, statusOf, str } from '../../../k8s/objects';

// solo-kit resource states, by name or by their enum number.
const STATES: Record<string, 'Pending' | 'Accepted' | 'Rejected' | 'Warning'> =
  {
    Pending: 'Pending',
    '0': 'Pending',
    Accepted: 'Accepted',
    '1': 'Accepted',
    Rejected: 'Rejected',
    '2': 'Rejected',
    Warning: 'Warning',
    '3': 'Warning',
  };

/**
 * Solo.io Gloo and Gloo gateway kinds (Argo CD's gloo.solo.io and
 * gateway.solo.io scripts): the solo-kit status per reporting namespace
 * (`status.statuses`), or the single status of older versions. Where
 * several namespaces report, the worst wins (Argo CD takes whichever its
 * map walk meets first).
 */
export function soloKitHealth(obj: KubernetesObject): HealthAssessment {
  const status = statusOf(obj);
  const reports: Record<string, unknown>[] = [];
  if (isRecord(status.statuses))
    for (const report of Object.values(status.statuses))
      if (isRecord(report)) reports.push(report);
  if (status.state !== undefined) reports.push(status);
  const seen = reports
    .map(report => ({
      state: STATES[String(report.state)],
      reason: str(report.reason),
    }))
    .filter(r => r.state);
  const failing =
    seen.find(r => r.state === 'Rejected') ??
    seen.find(r => r.state === 'Warning');
  if (failing) return health('Degraded', failing.reason);
  if (seen.some(r => r.state === 'Pending'))
    return health('Suspended', 'The resource has not yet been validated');
  if (seen.some(r => r.state === 'Accepted'))
    return health('Healthy', 'The resource has been validated');
  return health('Progressing', 'Update in progress');
}
