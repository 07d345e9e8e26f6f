import { HealthAssessment, KubernetesObject } from '../../../types';
import { conditionsOf, health } from '../../conditions';
import { isRecord } from '../../../k8s/objects';

/**
 * Keycloak operator Keycloak (Argo CD's k8s.keycloak.org/Keycloak): the
 * oldest of a True Ready (Healthy) or a True HasErrors (Degraded), by
 * lastTransitionTime (conditions without one last), as Argo CD sorts them.
 */
export function keycloakHealth(obj: KubernetesObject): HealthAssessment {
  if (!isRecord(obj.status) || !Array.isArray(obj.status.conditions))
    return health(
      'Progressing',
      'Waiting for Keycloak status conditions to exist',
    );
  const time = (value: unknown) =>
    typeof value === 'string' ? value : undefined;
  const sorted = conditionsOf(obj)
    .map((c, i) => ({ c, i, t: time(c.lastTransitionTime) }))
    .sort((a, b) => {
      // Without a time, last; equal times keep their order.
      if (a.t === b.t) return a.i - b.i;
      if (a.t === undefined) return 1;
      if (b.t === undefined) return -1;
      return a.t < b.t ? -1 : 1;
    });
  for (const { c } of sorted) {
    if (c.type === 'Ready' && c.status === 'True') return health('Healthy');
    if (c.type === 'HasErrors' && c.status === 'True')
      return health('Degraded', `Has Errors: ${c.message ?? ''}`);
  }
  return health('Progressing');
}
