import { kindOf, text } from '../k8s/objects';
import { apiServiceHealth } from './builtin/apiService';
import { cronJobHealth } from './builtin/cronJob';
import { customResourceDefinitionHealth } from './builtin/customResourceDefinition';
import { daemonSetHealth } from './builtin/daemonSet';
import { deploymentHealth } from './builtin/deployment';
import { horizontalPodAutoscalerHealth } from './builtin/horizontalPodAutoscaler';
import { jobHealth } from './builtin/job';
import { persistentVolumeClaimHealth } from './builtin/persistentVolumeClaim';
import { podDisruptionBudgetHealth } from './builtin/podDisruptionBudget';
import { podHealth } from './builtin/pod';
import { replicaSetHealth } from './builtin/replicaSet';
import { ingressHealth, serviceHealth } from './builtin/service';
import { statefulSetHealth } from './builtin/statefulSet';
import { volumeSnapshotHealth } from './builtin/volumeSnapshot';
import { applicationSetHealth } from './custom/argoApplicationSet';
import { eventBusHealth } from './custom/argoEventBus';
import { rolloutHealth } from './custom/argoRollout';
import {
  analysisRunHealth,
  cronWorkflowHealth,
  experimentHealth,
  workflowHealth,
} from './custom/argoRuns';
import {
  certificateHealth,
  clusterIssuerHealth,
  issuerHealth,
  legacyCertificateHealth,
} from './custom/certManager';
import {
  fluxSourceHealth,
  helmReleaseHealth,
  kustomizationHealth,
} from './custom/flux';
import { fluxImageHealth } from './custom/fluxImage';
import { fluxReceiverHealth } from './custom/fluxReceiver';
import { awsAckHealth } from './custom/awsAck';
import { crossplaneHealth, upboundHealth } from './custom/crossplane';
import { gcpConfigConnectorHealth } from './custom/gcpConfigConnector';
import {
  crossplaneConfigurationHealth,
  crossplaneConfigurationRevisionHealth,
  crossplaneProviderHealth,
} from './custom/crossplanePackage';
import {
  backendTlsPolicyHealth,
  envoyPolicyHealth,
} from './custom/gatewayPolicies';
import { knativeServiceHealth } from './custom/knative';
import {
  kyvernoClusterPolicyHealth,
  kyvernoPolicyHealth,
} from './custom/kyverno';
import {
  gatewayClassHealth,
  gatewayHealth,
  routeHealth,
} from './custom/gatewayApi';
import { scaledJobHealth, scaledObjectHealth } from './custom/keda';
import { OPERATOR_RULES } from './custom/registry';
import { victoriaMetricsHealth } from './custom/operator.victoriametrics.com/victoriaMetrics';
import {
  clusterExternalSecretHealth,
  externalSecretHealth,
  externalSecretsHealth,
  sealedSecretHealth,
} from './custom/secrets';

import type { HealthRule } from './healthRule';

export type { HealthRule };

/**
 * ArgoCD's Go checks convert the object to the typed struct of the versions
 * they know; any other version fails the check, which reads as Unknown.
 */
function versioned(
  rule: HealthRule,
  versions: readonly string[],
  label?: string,
): HealthRule {
  return obj => {
    const apiVersion = text(obj.apiVersion);
    const slash = apiVersion.indexOf('/');
    // Compared in place: slicing the version out would allocate per object.
    for (const known of versions) {
      if (
        apiVersion.length === slash + 1 + known.length &&
        apiVersion.endsWith(known)
      )
        return rule(obj);
    }
    const version = apiVersion.slice(slash + 1);
    const group = slash < 0 ? '' : apiVersion.slice(0, slash);
    return {
      status: 'Unknown',
      message: `unsupported ${
        label ?? kindOf(obj)
      } GVK: ${group}/${version}, Kind=${kindOf(obj)}`,
    };
  };
}

const V1 = ['v1'];

/**
 * Health rules keyed by `group/Kind` ('' group for core), as ArgoCD keys its
 * built-in checks and Lua scripts. Kinds absent here fall through to the
 * generic conditions check, or to no health at all for core kinds.
 */
export const HEALTH_RULES: ReadonlyMap<string, HealthRule> = new Map<
  string,
  HealthRule
>([
  ['apps/Deployment', versioned(deploymentHealth, V1)],
  ['apps/StatefulSet', versioned(statefulSetHealth, V1)],
  ['apps/DaemonSet', versioned(daemonSetHealth, V1)],
  ['apps/ReplicaSet', versioned(replicaSetHealth, V1)],
  ['/Pod', versioned(podHealth, V1)],
  ['/Service', versioned(serviceHealth, V1)],
  ['/PersistentVolumeClaim', versioned(persistentVolumeClaimHealth, V1)],
  ['networking.k8s.io/Ingress', ingressHealth],
  ['extensions/Ingress', ingressHealth],
  ['batch/Job', versioned(jobHealth, V1)],
  ['batch/CronJob', cronJobHealth],
  [
    'autoscaling/HorizontalPodAutoscaler',
    versioned(horizontalPodAutoscalerHealth, ['v1', 'v2'], 'HPA'),
  ],
  [
    'apiregistration.k8s.io/APIService',
    versioned(apiServiceHealth, ['v1', 'v1beta1']),
  ],
  ['policy/PodDisruptionBudget', podDisruptionBudgetHealth],
  [
    'apiextensions.k8s.io/CustomResourceDefinition',
    customResourceDefinitionHealth,
  ],
  ['snapshot.storage.k8s.io/VolumeSnapshot', volumeSnapshotHealth],
  ['snapshot.storage.k8s.io/VolumeSnapshotContent', volumeSnapshotHealth],
  ['kustomize.toolkit.fluxcd.io/Kustomization', kustomizationHealth],
  ['helm.toolkit.fluxcd.io/HelmRelease', helmReleaseHealth],
  ['source.toolkit.fluxcd.io/GitRepository', fluxSourceHealth],
  ['source.toolkit.fluxcd.io/HelmRepository', fluxSourceHealth],
  ['source.toolkit.fluxcd.io/OCIRepository', fluxSourceHealth],
  ['source.toolkit.fluxcd.io/HelmChart', fluxSourceHealth],
  ['source.toolkit.fluxcd.io/Bucket', fluxSourceHealth],
  ['image.toolkit.fluxcd.io/ImageRepository', fluxImageHealth],
  ['image.toolkit.fluxcd.io/ImagePolicy', fluxImageHealth],
  ['image.toolkit.fluxcd.io/ImageUpdateAutomation', fluxImageHealth],
  ['argoproj.io/Rollout', rolloutHealth],
  ['argoproj.io/AnalysisRun', analysisRunHealth],
  ['argoproj.io/Experiment', experimentHealth],
  ['argoproj.io/Workflow', workflowHealth],
  ['argoproj.io/CronWorkflow', cronWorkflowHealth],
  ['cert-manager.io/Certificate', certificateHealth],
  ['cert-manager.io/Issuer', issuerHealth],
  ['cert-manager.io/ClusterIssuer', clusterIssuerHealth],
  ['certmanager.k8s.io/Certificate', legacyCertificateHealth],
  ['certmanager.k8s.io/Issuer', issuerHealth],
  ['certmanager.k8s.io/ClusterIssuer', clusterIssuerHealth],
  ['keda.sh/ScaledObject', scaledObjectHealth],
  ['keda.sh/ScaledJob', scaledJobHealth],
  ['external-secrets.io/ExternalSecret', externalSecretHealth],
  ['external-secrets.io/SecretStore', externalSecretsHealth],
  ['external-secrets.io/ClusterSecretStore', externalSecretsHealth],
  ['external-secrets.io/PushSecret', externalSecretsHealth],
  ['external-secrets.io/ClusterExternalSecret', clusterExternalSecretHealth],
  ['bitnami.com/SealedSecret', sealedSecretHealth],
  ['gateway.networking.k8s.io/Gateway', gatewayHealth],
  ['gateway.networking.k8s.io/GatewayClass', gatewayClassHealth],
  ['gateway.networking.k8s.io/HTTPRoute', routeHealth],
  ['gateway.networking.k8s.io/GRPCRoute', routeHealth],
  ['gateway.networking.k8s.io/BackendTLSPolicy', backendTlsPolicyHealth],
  ['gateway.envoyproxy.io/ClientTrafficPolicy', envoyPolicyHealth],
  ['gateway.envoyproxy.io/BackendTrafficPolicy', envoyPolicyHealth],
  ['gateway.envoyproxy.io/SecurityPolicy', envoyPolicyHealth],
  ['gateway.envoyproxy.io/EnvoyExtensionPolicy', envoyPolicyHealth],
  ['gateway.envoyproxy.io/EnvoyPatchPolicy', envoyPolicyHealth],
  ['argoproj.io/ApplicationSet', applicationSetHealth],
  ['argoproj.io/EventBus', eventBusHealth],
  ['notification.toolkit.fluxcd.io/Receiver', fluxReceiverHealth],
  ['kyverno.io/Policy', kyvernoPolicyHealth],
  ['kyverno.io/ClusterPolicy', kyvernoClusterPolicyHealth],
  ['serving.knative.dev/Service', knativeServiceHealth],
  ['pkg.crossplane.io/Provider', crossplaneProviderHealth],
  ['pkg.crossplane.io/Configuration', crossplaneConfigurationHealth],
  [
    'pkg.crossplane.io/ConfigurationRevision',
    crossplaneConfigurationRevisionHealth,
  ],
  ...OPERATOR_RULES,
]);

/**
 * ArgoCD's wildcard script directories (`_.cnrm.cloud.google.com/_`,
 * `_.crossplane.io/_`, `_.services.k8s.aws/_`, `_.upbound.io/_`): any kind
 * of a group under these domains that has no rule of its own, tried after
 * the exact rules.
 */
const WILDCARD_RULES: ReadonlyArray<
  readonly [suffix: string, rule: HealthRule]
> = [
  ['.cnrm.cloud.google.com', gcpConfigConnectorHealth],
  ['.crossplane.io', crossplaneHealth],
  ['.services.k8s.aws', awsAckHealth],
  ['.upbound.io', upboundHealth],
];

/**
 * ArgoCD's wildcard directories for every kind of one group
 * (`operator.victoriametrics.com/_`), tried after the exact rules.
 */
const GROUP_RULES: ReadonlyMap<string, HealthRule> = new Map([
  ['operator.victoriametrics.com', victoriaMetricsHealth],
]);

/**
 * HEALTH_RULES per kind, then group: found without joining a `group/Kind`
 * key string for every object.
 */
const RULES_BY_KIND = new Map<string, Map<string, HealthRule>>();
for (const [key, rule] of HEALTH_RULES) {
  const slash = key.indexOf('/');
  const kind = key.slice(slash + 1);
  let byGroup = RULES_BY_KIND.get(kind);
  if (!byGroup) RULES_BY_KIND.set(kind, (byGroup = new Map()));
  byGroup.set(key.slice(0, slash), rule);
}

/** The rule for a group and kind, if any. */
export function healthRuleOf(
  group: string,
  kind: string,
): HealthRule | undefined {
  const exact = RULES_BY_KIND.get(kind)?.get(group);
  if (exact) return exact;
  const groupRule = GROUP_RULES.get(group);
  if (groupRule) return groupRule;
  for (const [suffix, rule] of WILDCARD_RULES) {
    if (group.endsWith(suffix)) return rule;
  }
  return undefined;
}
