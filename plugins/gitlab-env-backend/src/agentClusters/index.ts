export {
  gitlabAgentClustersServiceRef,
  DefaultGitlabAgentClustersService,
} from './agentClustersService';
export type { GitlabAgentClustersService } from './agentClustersService';
export { listAgentClusters } from './listAgentClusters';
export type {
  GitlabAgentCluster,
  GitlabAgentClusterList,
} from './listAgentClusters';
