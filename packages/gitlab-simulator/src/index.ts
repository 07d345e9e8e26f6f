/**
 * A local GitLab + KAS simulator: GitLab GraphQL and REST, and the KAS
 * Kubernetes API proxy in front of simulated clusters, with fault injection.
 *
 * @packageDocumentation
 */
export { startGitlabSimulator } from './server';
export type {
  RunningSimulator,
  SimulatorOptions,
  SimulatorStats,
} from './server';
export type { FaultKnobs } from './faults';
export { REAL_TUNNEL_POOL } from './kas/tunnels';
export type { TunnelPoolOptions } from './kas/tunnels';
export { DEFAULT_FAULTS } from './faults';
export {
  loadDefaultScenario,
  loadHostileScenario,
  loadScenario,
  DEFAULT_SCENARIO_DIR,
  HOSTILE_SCENARIO_DIR,
} from './scenario/load';
export {
  generateScenario,
  scenarioCatalogEntities,
  DEMO_TOKEN,
  BENCH_AGENT,
} from './scenario/generate';
export type { GenerateOptions } from './scenario/generate';
export { environmentSlug } from './scenario/slug';
export { expandCluster } from './cluster/expand';
export type * from './scenario/types';
export type { ClusterKnobs } from './clusterKnobs';
export { DEFAULT_CLUSTER_KNOBS } from './clusterKnobs';
export type { SimulatedCluster } from './simulatedCluster';
export { CHANGED_AT } from './cluster/churn';
export { writeKubeconfig } from './tls/kubeconfig';
export type { KubeconfigOptions } from './tls/kubeconfig';
export type { ServerCertificate } from './tls/selfSigned';
