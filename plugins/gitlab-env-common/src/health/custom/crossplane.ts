import { HealthAssessment, KubernetesObject } from '../../types';
import { conditionsOf, health } from '../conditions';
import { isRecord, kindOf } from '../../k8s/objects';

const UP_TO_DATE = 'Resource is up-to-date.';
const PROVISIONING = 'Provisioning ...';

/**
 * Kinds that never get conditions (data and configuration objects): Healthy
 * while they have none. Every other kind without conditions is still being
 * provisioned.
 */
const CROSSPLANE_CONDITIONLESS = new Set([
  'Composition',
  'CompositionRevision',
  'DeploymentRuntimeConfig',
  'ClusterProviderConfig',
  'ProviderConfig',
  'ProviderConfigUsage',
  'ClusterProviderConfigUsage',
  'ControllerConfig',
  'EnvironmentConfig',
  'ImageConfig',
  'StoreConfig',
]);
const UPBOUND_CONDITIONLESS = new Set([
  'ClusterProviderConfig',
  'ProviderConfig',
  'ProviderConfigUsage',
  'ClusterProviderConfigUsage',
  'StoreConfig',
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
  conditionless: ReadonlySet<string>;
  healthyTypes: ReadonlySet<string>;
  /** Crossplane stops at the first healthy condition; upbound reads on. */
  stopAtHealthy: boolean;
}

/**
 * ArgoCD's wildcard scripts for Crossplane and Upbound objects, as ArgoCD's
 * current tests define them (they fixed the Lua precedence that once made
 * any object without status Healthy): an object without conditions is
 * Healthy only for the kinds that never get any, or "in use" for a
 * ProviderConfig with users; else still provisioning.
 */
function managedHealth(
  obj: KubernetesObject,
  flavour: ManagedFlavour,
): HealthAssessment {
  const status = isRecord(obj.status) ? obj.status : undefined;
  const conditions = status?.conditions;
  if (!Array.isArray(conditions) || conditions.length === 0) {
    if (
      (obj.kind === 'ProviderConfig' || obj.kind === 'ClusterProviderConfig') &&
      status?.users !== undefined &&
      status?.users !== null
    )
      return health('Healthy', 'Resource is in use.');
    if (flavour.conditionless.has(kindOf(obj)))
      return health('Healthy', UP_TO_DATE);
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
    conditionless: CROSSPLANE_CONDITIONLESS,
    healthyTypes: CROSSPLANE_HEALTHY_TYPES,
    stopAtHealthy: true,
  });
}

/** `*.upbound.io` objects: Upbound providers' managed resources and ProviderConfigs. */
export function upboundHealth(obj: KubernetesObject): HealthAssessment {
  return managedHealth(obj, {
    conditionless: UPBOUND_CONDITIONLESS,
    healthyTypes: UPBOUND_HEALTHY_TYPES,
    stopAtHealthy: false,
  });
}
