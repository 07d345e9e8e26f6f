import type { HealthRule } from '../healthRule';
import { openKruiseRules } from './apps.kruise.io';
import { httpProxyHealth } from './projectcontour.io/HTTPProxy';
import { karmadaBindingHealth } from './work.karmada.io/ResourceBinding';
import { minioTenantHealth } from './minio.min.io/Tenant';
import { subscriptionHealth } from './operators.coreos.com/Subscription';
import { openTelemetryCollectorHealth } from './opentelemetry.io/OpenTelemetryCollector';
import { zalandoPostgresqlHealth } from './acid.zalan.do/postgresql';
import { clickHouseInstallationHealth } from './clickhouse.altinity.com/ClickHouseInstallation';
import { flinkDeploymentHealth } from './flink.apache.org/FlinkDeployment';
import { sparkApplicationHealth } from './sparkoperator.k8s.io/SparkApplication';
import { elasticsearchHealth } from './elasticsearch.k8s.elastic.co/Elasticsearch';
import { beatHealth } from './beat.k8s.elastic.co/Beat';
import { rabbitmqClusterHealth } from './rabbitmq.com/RabbitmqCluster';
import { capiClusterHealth } from './cluster.x-k8s.io/Cluster';
import { capiMachineHealth } from './cluster.x-k8s.io/Machine';
import { capiMachineDeploymentHealth } from './cluster.x-k8s.io/MachineDeployment';
import { capiMachineHealthCheckHealth } from './cluster.x-k8s.io/MachineHealthCheck';
import { capiMachinePoolHealth } from './cluster.x-k8s.io/MachinePool';
import { cephClusterHealth } from './ceph.rook.io/CephCluster';
import { cephObjectStoreHealth } from './ceph.rook.io/CephObjectStore';
import { soloKitHealth } from './gloo.solo.io/soloKit';
import { promotionStrategyHealth } from './promoter.argoproj.io/PromotionStrategy';
import { changeTransferPolicyHealth } from './promoter.argoproj.io/ChangeTransferPolicy';
import { commitStatusHealth } from './promoter.argoproj.io/CommitStatus';
import { pullRequestHealth } from './promoter.argoproj.io/PullRequest';
import { ocmPolicyHealth } from './policy.open-cluster-management.io/Policy';
import { ocmConfigurationPolicyHealth } from './policy.open-cluster-management.io/ConfigurationPolicy';
import { dataVolumeHealth } from './cdi.kubevirt.io/DataVolume';
import {
  threescaleApplicationHealth,
  threescaleSyncedRule,
} from './capabilities.3scale.net/threescale';
import {
  astraAppVaultHealth,
  astraApplicationHealth,
  astraOperationHealth,
} from './astra.netapp.io/astra';
import { appK8sApplicationHealth } from './app.k8s.io/Application';
import { argoApplicationHealth } from './argoproj.io/Application';
import { prometheusHealth } from './monitoring.coreos.com/Prometheus';
import { cnpgClusterHealth } from './postgresql.cnpg.io/Cluster';
import {
  strimziKafkaConnectHealth,
  strimziKafkaHealth,
  strimziKafkaTopicHealth,
} from './kafka.strimzi.io/Kafka';
import { openshiftRouteHealth } from './route.openshift.io/Route';
import { deploymentConfigHealth } from './apps.openshift.io/DeploymentConfig';
import { keycloakHealth } from './k8s.keycloak.org/Keycloak';
import { karpenterNodePoolHealth } from './karpenter.sh/NodePool';
import { onePasswordItemHealth } from './onepassword.com/OnePasswordItem';
import {
  acmeChallengeHealth,
  acmeOrderHealth,
} from './acme.cert-manager.io/acme';
import { istioOperatorHealth } from './install.istio.io/IstioOperator';
import { flaggerCanaryHealth } from './flagger.app/Canary';
import { grafanaHealth } from './grafana.integreatly.org/Grafana';
import { virtualMachineInstanceHealth } from './kubevirt.io/VirtualMachineInstance';
import { kubeadmControlPlaneHealth } from './controlplane.cluster.x-k8s.io/KubeadmControlPlane';
import { mariaDbHealth } from './k8s.mariadb.com/MariaDB';
import { confluentKafkaHealth } from './platform.confluent.io/Kafka';
import { vaultStaticSecretHealth } from './secrets.hashicorp.com/VaultStaticSecret';
import { imageUpdaterHealth } from './argocd-image-updater.argoproj.io/ImageUpdater';
import { clusterResourceSetHealth } from './addons.cluster.x-k8s.io/ClusterResourceSet';
import { apiManagerHealth } from './apps.3scale.net/APIManager';
import { camelIntegrationHealth } from './camel.apache.org/Integration';
import { verticalPodAutoscalerHealth } from './autoscaling.k8s.io/VerticalPodAutoscaler';
import { virtualMachineHealth } from './kubevirt.io/VirtualMachine';
import { inferenceServiceHealth } from './serving.kserve.io/InferenceService';
import {
  RABBITMQ_TOPOLOGY_KINDS,
  rabbitmqTopologyRule,
} from './rabbitmq.com/topology';

/**
 * Rules for the operators platform teams run, one kind per file under a
 * folder named after the API group (as Argo CD's resource_customizations),
 * each with its Argo CD cases beside it. Keyed as Argo CD keys them.
 */
export const OPERATOR_RULES: Array<[string, HealthRule]> = [
  ...openKruiseRules,
  ['work.karmada.io/ResourceBinding', karmadaBindingHealth],
  ['work.karmada.io/ClusterResourceBinding', karmadaBindingHealth],
  ['operators.coreos.com/Subscription', subscriptionHealth],
  ['minio.min.io/Tenant', minioTenantHealth],
  ['projectcontour.io/HTTPProxy', httpProxyHealth],
  ['opentelemetry.io/OpenTelemetryCollector', openTelemetryCollectorHealth],
  ['acid.zalan.do/postgresql', zalandoPostgresqlHealth],
  [
    'clickhouse.altinity.com/ClickHouseInstallation',
    clickHouseInstallationHealth,
  ],
  ['flink.apache.org/FlinkDeployment', flinkDeploymentHealth],
  ['sparkoperator.k8s.io/SparkApplication', sparkApplicationHealth],
  ['elasticsearch.k8s.elastic.co/Elasticsearch', elasticsearchHealth],
  ['beat.k8s.elastic.co/Beat', beatHealth],
  ['rabbitmq.com/RabbitmqCluster', rabbitmqClusterHealth],
  ['cluster.x-k8s.io/Cluster', capiClusterHealth],
  ['cluster.x-k8s.io/Machine', capiMachineHealth],
  ['cluster.x-k8s.io/MachineDeployment', capiMachineDeploymentHealth],
  ['cluster.x-k8s.io/MachineHealthCheck', capiMachineHealthCheckHealth],
  ['cluster.x-k8s.io/MachinePool', capiMachinePoolHealth],
  ['ceph.rook.io/CephCluster', cephClusterHealth],
  ['ceph.rook.io/CephObjectStore', cephObjectStoreHealth],
  ['gloo.solo.io/Upstream', soloKitHealth],
  ['gloo.solo.io/UpstreamGroup', soloKitHealth],
  ['gloo.solo.io/Proxy', soloKitHealth],
  ['gloo.solo.io/Settings', soloKitHealth],
  ['gateway.solo.io/VirtualService', soloKitHealth],
  ['gateway.solo.io/RouteTable', soloKitHealth],
  ['gateway.solo.io/MatchableHttpGateway', soloKitHealth],
  ['gateway.solo.io/RouteOption', soloKitHealth],
  ['promoter.argoproj.io/PromotionStrategy', promotionStrategyHealth],
  ['promoter.argoproj.io/ChangeTransferPolicy', changeTransferPolicyHealth],
  ['promoter.argoproj.io/CommitStatus', commitStatusHealth],
  ['promoter.argoproj.io/PullRequest', pullRequestHealth],
  ['policy.open-cluster-management.io/Policy', ocmPolicyHealth],
  [
    'policy.open-cluster-management.io/ConfigurationPolicy',
    ocmConfigurationPolicyHealth,
  ],
  ['cdi.kubevirt.io/DataVolume', dataVolumeHealth],
  ['capabilities.3scale.net/Backend', threescaleSyncedRule('Backend')],
  ['capabilities.3scale.net/Product', threescaleSyncedRule('Product')],
  ['capabilities.3scale.net/Application', threescaleApplicationHealth],
  ['astra.netapp.io/Application', astraApplicationHealth],
  ['astra.netapp.io/Backup', astraOperationHealth],
  ['astra.netapp.io/ResourceBackup', astraOperationHealth],
  ['astra.netapp.io/AppVault', astraAppVaultHealth],
  ['app.k8s.io/Application', appK8sApplicationHealth],
  ['argoproj.io/Application', argoApplicationHealth],
  ['monitoring.coreos.com/Prometheus', prometheusHealth],
  ['postgresql.cnpg.io/Cluster', cnpgClusterHealth],
  ['kafka.strimzi.io/Kafka', strimziKafkaHealth],
  ['kafka.strimzi.io/KafkaTopic', strimziKafkaTopicHealth],
  ['kafka.strimzi.io/KafkaConnect', strimziKafkaConnectHealth],
  ['route.openshift.io/Route', openshiftRouteHealth],
  ['apps.openshift.io/DeploymentConfig', deploymentConfigHealth],
  ['k8s.keycloak.org/Keycloak', keycloakHealth],
  ['karpenter.sh/NodePool', karpenterNodePoolHealth],
  ['onepassword.com/OnePasswordItem', onePasswordItemHealth],
  ['acme.cert-manager.io/Order', acmeOrderHealth],
  ['acme.cert-manager.io/Challenge', acmeChallengeHealth],
  ['install.istio.io/IstioOperator', istioOperatorHealth],
  ['flagger.app/Canary', flaggerCanaryHealth],
  ['grafana.integreatly.org/Grafana', grafanaHealth],
  ['kubevirt.io/VirtualMachineInstance', virtualMachineInstanceHealth],
  [
    'controlplane.cluster.x-k8s.io/KubeadmControlPlane',
    kubeadmControlPlaneHealth,
  ],
  ['k8s.mariadb.com/MariaDB', mariaDbHealth],
  ['platform.confluent.io/Kafka', confluentKafkaHealth],
  ['secrets.hashicorp.com/VaultStaticSecret', vaultStaticSecretHealth],
  ['argocd-image-updater.argoproj.io/ImageUpdater', imageUpdaterHealth],
  ['addons.cluster.x-k8s.io/ClusterResourceSet', clusterResourceSetHealth],
  ['apps.3scale.net/APIManager', apiManagerHealth],
  ['camel.apache.org/Integration', camelIntegrationHealth],
  ['autoscaling.k8s.io/VerticalPodAutoscaler', verticalPodAutoscalerHealth],
  ['kubevirt.io/VirtualMachine', virtualMachineHealth],
  ['serving.kserve.io/InferenceService', inferenceServiceHealth],
  ...RABBITMQ_TOPOLOGY_KINDS.map(([kind, noun]): [string, HealthRule] => [
    `rabbitmq.com/${kind}`,
    rabbitmqTopologyRule(noun),
  ]),
];
