import { groupOfApiVersion } from '../k8s/resourceId';
import {
  ActionTarget,
  EnvironmentAction,
  EnvironmentCapability,
} from '../types';

const FLUX_SOURCE_GROUP = 'source.toolkit.fluxcd.io';

/** Flux's reconcilable kinds by API group (fluxcd.io/flux/components). */
const FLUX_KINDS: Record<string, ReadonlySet<string>> = {
  'kustomize.toolkit.fluxcd.io': new Set(['Kustomization']),
  'helm.toolkit.fluxcd.io': new Set(['HelmRelease']),
  [FLUX_SOURCE_GROUP]: new Set([
    'GitRepository',
    'OCIRepository',
    'HelmRepository',
    'HelmChart',
    'Bucket',
  ]),
};

/**
 * `kubectl rollout restart` and `rollout undo` support exactly these
 * (kubectl's ObjectRestarter and Rollbacker).
 */
const RESTARTABLE = new Set(['Deployment', 'StatefulSet', 'DaemonSet']);
/** Workloads with a scale subresource the UI offers. */
const SCALABLE = new Set(['Deployment', 'StatefulSet', 'ReplicaSet']);

/** True for a Flux object the flux.* actions apply to. @public */
export function isFluxActionKind(apiVersion: string, kind: string): boolean {
  return FLUX_KINDS[groupOfApiVersion(apiVersion)]?.has(kind) ?? false;
}

/**
 * True when `flux reconcile --with-source` exists for the kind: a
 * Kustomization or HelmRelease (sources have no source of their own).
 *
 * @public
 */
export function reconcilesWithSource(
  apiVersion: string,
  kind: string,
): boolean {
  const group = groupOfApiVersion(apiVersion);
  return isFluxActionKind(apiVersion, kind) && group !== FLUX_SOURCE_GROUP;
}

/**
 * The actions that apply to an object of this kind, in the order a menu
 * shows them. Both flux.suspend and flux.resume apply to every Flux kind;
 * the page offers the one that changes `spec.suspend`.
 *
 * @public
 */
export function actionsForKind(
  apiVersion: string,
  kind: string,
): EnvironmentAction[] {
  const group = groupOfApiVersion(apiVersion);
  const actions: EnvironmentAction[] = [];
  if (group === '' && kind === 'Pod') actions.push('pod.delete');
  if (group === 'apps' && RESTARTABLE.has(kind))
    actions.push('workload.restart');
  if (group === 'apps' && SCALABLE.has(kind)) actions.push('workload.scale');
  if (group === 'apps' && RESTARTABLE.has(kind))
    actions.push('workload.rollback');
  if (isFluxActionKind(apiVersion, kind))
    actions.push('flux.reconcile', 'flux.suspend', 'flux.resume');
  return actions;
}

/** actionsForKind plus `pod.logs` for a Pod. @public */
export function capabilitiesForKind(
  apiVersion: string,
  kind: string,
): EnvironmentCapability[] {
  const actions: EnvironmentCapability[] = actionsForKind(apiVersion, kind);
  if (groupOfApiVersion(apiVersion) === '' && kind === 'Pod')
    actions.unshift('pod.logs');
  return actions;
}

/** Whether an action applies to a target's kind. @public */
export function actionAppliesTo(
  action: EnvironmentAction,
  target: Pick<ActionTarget, 'apiVersion' | 'kind'>,
): boolean {
  return actionsForKind(target.apiVersion, target.kind).includes(action);
}
