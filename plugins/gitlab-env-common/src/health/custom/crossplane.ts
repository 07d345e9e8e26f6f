import { HealthAssessment, KubernetesObject } from '../../types';
import { conditionsOf, health, isRecord } from '../conditions';

const UP_TO_DATE = 'Resource is up-to-date.';
const PROVISIONING = 'Provisioning ...';

/** Kinds ArgoCD calls healthy with no status at all (they never get one). */
const CROSSPLANE_STATUSLESS = new Set([
  'Composition',
  'CompositionRevision',
  'DeploymentRuntimeConfig',
  'ClusterProviderConfig',
  'ProviderConfig',
  'ProviderConfigUsage',
  'ControllerConfig',
]);
const UPBOUND_STATUSLESS = new Set([
  'ClusterProviderConfig',
  'ProviderConfig',
  'ProviderConfigUsage',
]);

/** Crossplane's healthy condition types (ArgoCD's `_.crossplane.io/_` script). */
const CROSSPLANE_HEALTHY_TYPES = new Set([
  'Ready',
  'Healthy',
  'Offered',
  'Established',
  'ValidPipeline',
  'RevisionHealthy',
]);
const UPBOUND_HEALTHY_TYPES = new Set(['Ready']);

interface ManagedFlavour {
  statusless: ReadonlySet<string>;
  healthyTypes: ReadonlySet<string>;
  /** Crossplane stops at the first healthy condition; upbound reads on. */
  stopAtHealthy: boolean;
}

/**
 * ArgoCD's wildcard scripts for Crossplane and Upbound objects. A quirk of
 * Lua's precedence is kept: an object without `status` is Healthy whatever
 * its kind (an empty status only for the kinds that never get one).
 */
function managedHealth(
  obj: KubernetesObject,
  flavour: ManagedFlavour,
): HealthAssessment {
  const status = obj.status;
  const empty = isRecord(status) && Object.keys(status).length === 0;
  if (status === undefined || status === null)
    return health('Healthy', UP_TO_DATE);
  if (empty && flavour.statusless.has(String(obj.kind)))
    return health('Healthy', UP_TO_DATE);
  if (!isRecord(status) || empty || status.conditions === undefined) {
    if (
      (obj.kind === 'ProviderConfig' || obj.kind === 'ClusterProviderConfig') &&
      isRecord(status) &&
      status.users !== undefined &&
      status.users !== null
    )
      return health('Healthy', 'Resource is in use.');
    return health('Progressing', PROVISIONING);
  }
  let result = health('Progressing', PROVISIONING);
  for (const condition of conditionsOf(obj)) {
    if (
      (condition.type === 'LastAsyncOperation' ||
        condition.type === 'Synced') &&
      condition.status === 'False'
    )
      return health('Degraded', condition.message);
    if (
      flavour.healthyTypes.has(condition.type) &&
      condition.status === 'True'
    ) {
      result = health('Healthy', UP_TO_DATE);
      if (flavour.stopAtHealthy) return result;
    }
  }
  return result;
}

/** `*.crossplane.io` objects without a rule of their own (managed resources, Composition, XRDs, ...). */
export function crossplaneHealth(obj: KubernetesObject): HealthAssessment {
  return managedHealth(obj, {
    statusless: CROSSPLANE_STATUSLESS,
    healthyTypes: CROSSPLANE_HEALTHY_TYPES,
    stopAtHealthy: true,
  });
}

/** `*.upbound.io` objects: Upbound providers' managed resources and ProviderConfigs. */
export function upboundHealth(obj: KubernetesObject): HealthAssessment {
  return managedHealth(obj, {
    statusless: UPBOUND_STATUSLESS,
    healthyTypes: UPBOUND_HEALTHY_TYPES,
    stopAtHealthy: false,
  });
}
