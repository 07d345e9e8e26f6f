import { HealthAssessment, KubernetesObject } from '../../types';
import { health } from '../conditions';
import { isRecord, kindOf, specOf, statusOf } from '../../k8s/objects';

/**
 * ArgoCD's Lua checks for Flux reconcilers: Kustomization needs Ready;
 * HelmRelease and the sources need two signals (Ready plus Released /
 * TestSuccess, or ArtifactInStorage).
 */
function fluxHealth(obj: KubernetesObject, needed: number): HealthAssessment {
  const kind = kindOf(obj);
  if (specOf(obj).suspend === true)
    return health('Suspended', `${kind} is suspended`);
  if (kind === 'HelmRepository' && specOf(obj).type === 'oci') {
    return health(
      'Healthy',
      "Helm repositories of type 'oci' do not contain any information in the status.",
    );
  }
  const conditions = statusOf(obj).conditions;
  if (!Array.isArray(conditions))
    return health('Progressing', 'Status unknown');
  let progressing = 0;
  let ok = 0;
  let message = '';
  for (const c of conditions.filter(isRecord)) {
    if (c.type === 'Ready') {
      if (c.status === 'True') ok += 1;
      if (c.status === 'Unknown') progressing += 1;
      message = typeof c.reason === 'string' ? c.reason : '';
    } else if (c.type === 'Reconciling' && c.status === 'True') {
      progressing += 1;
    } else if (
      kind === 'HelmRelease' &&
      (c.type === 'Released' || c.type === 'TestSuccess') &&
      c.status === 'True'
    ) {
      ok += 1;
    } else if (c.type === 'ArtifactOutdated' && c.status === 'True') {
      message = `${message} ${c.reason ?? ''}`;
    } else if (c.type === 'ArtifactInStorage' && c.status === 'True') {
      ok += 1;
    }
  }
  if (progressing === 2) return health('Progressing', message);
  return health(ok === needed ? 'Healthy' : 'Degraded', message);
}

export const kustomizationHealth = (obj: KubernetesObject) =>
  fluxHealth(obj, 1);
export const helmReleaseHealth = (obj: KubernetesObject) => fluxHealth(obj, 2);
export const fluxSourceHealth = (obj: KubernetesObject) => fluxHealth(obj, 2);
