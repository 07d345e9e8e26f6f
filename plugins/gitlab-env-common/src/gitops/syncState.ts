import { KubernetesObject } from '../types';
import { findCondition } from '../health/conditions';
import { specOf, statusOf, str } from '../k8s/objects';
import { ownerOfField } from './managedFields';
import { appliedRevisionOf } from './fluxSource';

/** @public */
export type FluxSyncStatus =
  | 'ready'
  | 'reconciling'
  | 'stalled'
  | 'suspended'
  | 'failed'
  | 'unknown';

/** A Flux object's sync state, as `flux get` reports it. @public */
export interface FluxSyncState {
  status: FluxSyncStatus;
  message?: string;
  /** Reason of the deciding condition, e.g. `ReconciliationSucceeded`. */
  reason?: string;
  lastAppliedRevision?: string;
  lastAttemptedRevision?: string;
  /** Who set `spec.suspend` (its field manager) and when, where managedFields record it. */
  suspendedBy?: string;
  suspendedAt?: string;
}

/**
 * The sync state of a Flux object, in nearly the order GitLab's dashboard
 * decides it (`k8s_integration_helper.js` `fluxSyncStatus`): suspended,
 * Stalled=True, Ready=False failed, Ready=Unknown or Reconciling=True
 * reconciling, Ready=True ready, else unknown. Stalled comes before failed
 * here: a stalled object also has Ready=False (kstatus), and stalled says
 * more — Flux will not retry until the spec changes.
 *
 * @public
 */
export function fluxSyncState(object: KubernetesObject): FluxSyncState {
  const status = statusOf(object);
  const revisions = {
    lastAppliedRevision: appliedRevisionOf(object),
    lastAttemptedRevision: str(status.lastAttemptedRevision),
  };
  if (specOf(object).suspend === true) {
    const owner = ownerOfField(object, ['spec', 'suspend']);
    return {
      status: 'suspended',
      message: `${object.kind ?? 'Object'} is suspended`,
      ...revisions,
      ...(owner && { suspendedBy: owner.manager, suspendedAt: owner.time }),
    };
  }
  const ready = findCondition(object, 'Ready');
  const stalled = findCondition(object, 'Stalled');
  const reconciling = findCondition(object, 'Reconciling');
  const from = (state: FluxSyncStatus, condition = ready): FluxSyncState => ({
    status: state,
    ...(condition?.message && { message: condition.message }),
    ...(condition?.reason && { reason: condition.reason }),
    ...revisions,
  });
  if (stalled?.status === 'True') return from('stalled', stalled);
  if (ready?.status === 'False') return from('failed');
  if (ready?.status === 'Unknown') return from('reconciling');
  if (reconciling?.status === 'True') return from('reconciling', reconciling);
  if (ready?.status === 'True') return from('ready');
  return from('unknown');
}
