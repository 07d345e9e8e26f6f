import { HealthAssessment, KubernetesObject } from '../../types';
import { conditionsOf, health } from '../conditions';

export function customResourceDefinitionHealth(
  obj: KubernetesObject,
): HealthAssessment {
  const conditions = conditionsOf(obj);
  if (conditions.length === 0)
    return health('Progressing', 'Status conditions not found');
  const is = (type: string, status: string) =>
    conditions.find(c => c.type === type && c.status === status);
  const terminating = is('Terminating', 'True');
  if (terminating)
    return health(
      'Progressing',
      `CRD is terminating: ${terminating.message ?? ''}`,
    );
  const names = is('NamesAccepted', 'False');
  if (names)
    return health(
      'Degraded',
      `CRD names have not been accepted: ${names.message ?? ''}`,
    );
  const schema = is('NonStructuralSchema', 'True');
  if (schema)
    return health(
      'Degraded',
      `Schema violations found: ${schema.message ?? ''}`,
    );
  const established = conditions.find(c => c.type === 'Established');
  if (established?.reason === 'Installing' && established.status !== 'True') {
    return health('Progressing', 'CRD is being installed');
  }
  if (established?.status !== 'True')
    return health('Degraded', 'CRD is not established');
  return health('Healthy', 'CRD is healthy');
}
