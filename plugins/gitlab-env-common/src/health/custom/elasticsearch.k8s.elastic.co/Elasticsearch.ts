import { HealthAssessment, KubernetesObject } from '../../../types';
import { health } from '../../conditions';
import { isRecord, specOf, statusOf } from '../../../k8s/objects';

const UNKNOWN =
  'Elasticsearch Cluster status is unknown. Ensure your ArgoCD is current and then check for/file a bug report: https://github.com/argoproj/argo-cd/issues';

/**
 * Elastic Elasticsearch (Argo CD's elasticsearch.k8s.elastic.co/Elasticsearch):
 * every node of the node sets available, then the phase and the cluster's
 * green / yellow / red health.
 */
export function elasticsearchHealth(obj: KubernetesObject): HealthAssessment {
  const status = statusOf(obj);
  const available = status.availableNodes;
  if (typeof available !== 'number') return health('Unknown', UNKNOWN);
  const nodeSets = specOf(obj).nodeSets;
  const desired = Array.isArray(nodeSets)
    ? nodeSets.reduce(
        (sum, set) =>
          sum +
          (isRecord(set) && typeof set.count === 'number' ? set.count : 0),
        0,
      )
    : 0;
  if (available < desired)
    return health(
      'Progressing',
      `The desired amount of nodes is ${desired} but the amount of availableNodes is ${available}`,
    );
  if (available === desired) {
    if (status.phase === 'Ready') {
      if (status.health === 'green')
        return health('Healthy', 'Elasticsearch Cluster status is Green');
      if (status.health === 'yellow')
        return health(
          'Degraded',
          'Elasticsearch Cluster status is Yellow. Check the status of indices, replicas and shards',
        );
      if (status.health === 'red')
        return health(
          'Degraded',
          'Elasticsearch Cluster status is Red. Check the status of indices, replicas and shards',
        );
    } else if (
      status.phase === 'ApplyingChanges' ||
      status.phase === 'MigratingData'
    )
      return health('Progressing', `Elasticsearch phase is ${status.phase}`);
    else if (status.phase === 'Invalid')
      return health('Degraded', 'Elasticsearch phase is Invalid');
  }
  return health('Unknown', UNKNOWN);
}
