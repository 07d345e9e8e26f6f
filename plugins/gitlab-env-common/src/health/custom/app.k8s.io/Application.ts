import { HealthAssessment, KubernetesObject } from '../../../types';
import { conditionsOf, health } from '../../conditions';
import { isRecord, specOf, statusOf } from '../../../k8s/objects';

/** `status.componentsReady` ("ready/total") as numbers. */
function componentsReady(
  value: unknown,
): { ready: number; total: number } | undefined {
  const parsed =
    typeof value === 'string' ? /^(\d+)\/(\d+)$/.exec(value) : null;
  return parsed
    ? { ready: Number(parsed[1]), total: Number(parsed[2]) }
    : undefined;
}

/**
 * The Application of kubernetes-sigs/application (app.k8s.io), which Argo
 * CD has no check for: the assembly phase its installer writes in the
 * spec (Pending, Succeeded, Failed), then what its controller reports —
 * an Error condition, the Ready condition and how many components are
 * ready. Healthy needs positive evidence: Ready True with every component
 * ready, or a Succeeded assembly when no controller reports. Without
 * either, an Application carries no health of its own (the project's
 * controller is dormant; its components still show theirs under it).
 */
export function appK8sApplicationHealth(
  obj: KubernetesObject,
): HealthAssessment | undefined {
  const phase = specOf(obj).assemblyPhase;
  if (phase === 'Failed')
    return health('Degraded', 'The application failed to assemble');
  if (phase === 'Pending')
    return health('Progressing', 'Waiting for the application to be assembled');
  const conditions = conditionsOf(obj);
  const error = conditions.find(c => c.type === 'Error' && c.status === 'True');
  if (error)
    return health('Degraded', error.message || error.reason || 'Error');
  const counts = componentsReady(statusOf(obj).componentsReady);
  const ready = conditions.find(c => c.type === 'Ready');
  if (counts && counts.ready < counts.total)
    return health(
      'Progressing',
      `${counts.ready} of ${counts.total} components are ready`,
    );
  if (ready?.status === 'True')
    return health(
      'Healthy',
      ready.message ||
        (counts ? `All ${counts.total} components are ready` : undefined),
    );
  if (ready?.status === 'False')
    return health(
      'Degraded',
      ready.message || ready.reason || 'Ready is False',
    );
  if (ready) return health('Progressing', ready.message || 'Ready is Unknown');
  if (phase === 'Succeeded' && !isRecord(obj.status))
    return health('Healthy', 'Assembled');
  if (isRecord(obj.status))
    return health('Progressing', 'Waiting for the application controller');
  return undefined;
}
