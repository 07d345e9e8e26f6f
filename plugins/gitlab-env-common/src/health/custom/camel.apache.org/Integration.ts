import { KubernetesObject } from '../../../types';
import { firstConditionHealth } from '../readyCondition';

/** Apache Camel K Integration (Argo CD's camel.apache.org/Integration): its Ready condition. */
export const camelIntegrationHealth = (obj: KubernetesObject) =>
  firstConditionHealth(obj, 'Ready', 'Waiting for Integration');
