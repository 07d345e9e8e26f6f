import { KubernetesObject } from '../../../types';
import { firstConditionHealth } from '../readyCondition';

/** 1Password Connect OnePasswordItem (Argo CD's onepassword.com/OnePasswordItem): its Ready condition. */
export const onePasswordItemHealth = (obj: KubernetesObject) =>
  firstConditionHealth(obj, 'Ready', 'Waiting for controller to report status');
