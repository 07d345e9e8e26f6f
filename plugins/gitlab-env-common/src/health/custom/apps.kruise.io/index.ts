import type { HealthRule } from '../../healthRule';
import { advancedCronJobHealth } from './AdvancedCronJob';
import { broadcastJobHealth } from './BroadcastJob';
import { cloneSetHealth } from './CloneSet';
import { advancedDaemonSetHealth } from './DaemonSet';
import { advancedStatefulSetHealth } from './StatefulSet';

/** OpenKruise's workloads, keyed as Argo CD keys them. */
export const openKruiseRules: Array<[string, HealthRule]> = [
  ['apps.kruise.io/CloneSet', cloneSetHealth],
  ['apps.kruise.io/StatefulSet', advancedStatefulSetHealth],
  ['apps.kruise.io/DaemonSet', advancedDaemonSetHealth],
  ['apps.kruise.io/BroadcastJob', broadcastJobHealth],
  ['apps.kruise.io/AdvancedCronJob', advancedCronJobHealth],
];
