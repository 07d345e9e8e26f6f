import {
  BackstageCredentials,
  LoggerService,
} from '@backstage/backend-plugin-api';
import {
  ClusterDetails,
  KubernetesClustersSupplier,
} from '@backstage/plugin-kubernetes-node';
import {
  GitlabAgentCluster,
  GitlabAgentClusterList,
  GitlabAgentClustersService,
} from '@gitlab-env/backstage-plugin-gitlab-env-backend';
import {
  ANNOTATION_KUBERNETES_AUTH_PROVIDER,
  GITLAB_AGENT_AUTH_PROVIDER,
  GITLAB_AGENT_ID_METADATA,
  GITLAB_AGENT_METADATA,
  GITLAB_INSTANCE_METADATA,
} from './authMetadata';

export interface GitlabAgentClusterSupplierOptions {
  /** How old the list may get before a call refreshes it (in the background). */
  refreshIntervalMs: number;
  /** Passed on to each cluster: skip `metrics.k8s.io` in the Kubernetes tab. */
  skipMetricsLookup: boolean;
  logger: LoggerService;
  now?: () => number;
}

/**
 * Failures that say nothing about the agents (GitLab or KAS did not answer):
 * the instance's clusters listed before stay until an answer says otherwise.
 * A token or version problem is an answer: its clusters go.
 */
const TRANSIENT = new Set([
  'UPSTREAM_ERROR',
  'UPSTREAM_TIMEOUT',
  'UPSTREAM_MALFORMED',
  'KAS_UNAVAILABLE',
]);

/**
 * Cluster names must be unique in the Kubernetes plugin: an agent's name,
 * qualified by its configuration project (and instance) only when another
 * listed agent has the same name.
 */
function clusterNames(clusters: GitlabAgentCluster[]): string[] {
  const count = new Map<string, number>();
  for (const c of clusters)
    count.set(c.agent.name, (count.get(c.agent.name) ?? 0) + 1);
  const qualified = clusters.map(c =>
    count.get(c.agent.name)! > 1
      ? `${c.agent.configProject ?? c.agent.id}/${c.agent.name}`
      : c.agent.name,
  );
  const again = new Map<string, number>();
  for (const n of qualified) again.set(n, (again.get(n) ?? 0) + 1);
  return qualified.map((n, i) =>
    again.get(n)! > 1 ? `${clusters[i].host}/${n}` : n,
  );
}

function toClusterDetails(
  cluster: GitlabAgentCluster,
  name: string,
  skipMetricsLookup: boolean,
): ClusterDetails {
  const { agent } = cluster;
  const where = agent.configProject ? `${agent.configProject}: ` : '';
  return {
    name,
    title: agent.configProject
      ? `${agent.name} (${agent.configProject})`
      : agent.name,
    // KAS forwards the path after its prefix verbatim to the API server;
    // the Kubernetes plugin appends resource paths to this URL's path.
    url: cluster.kasProxyUrl,
    authMetadata: {
      [ANNOTATION_KUBERNETES_AUTH_PROVIDER]: GITLAB_AGENT_AUTH_PROVIDER,
      [GITLAB_INSTANCE_METADATA]: cluster.host,
      [GITLAB_AGENT_ID_METADATA]: agent.id,
      [GITLAB_AGENT_METADATA]: `${where}${agent.name}`,
    },
    skipMetricsLookup,
  };
}

/**
 * The Kubernetes plugin's clusters behind GitLab agents: every agent the
 * configured token may use (GitlabAgentClustersService), cached. A call
 * after `refreshIntervalMs` answers the cached list and refreshes it in the
 * background; only the first call waits. Each failure is logged once, with
 * the gitlab-env plugin's message and hint.
 */
export class GitlabAgentClusterSupplier implements KubernetesClustersSupplier {
  private current?: { clusters: GitlabAgentCluster[]; at: number };
  private loading?: Promise<GitlabAgentCluster[]>;
  private logged = new Set<string>();
  private loggedNames?: string;
  private readonly now: () => number;

  constructor(
    private readonly agentClusters: GitlabAgentClustersService,
    private readonly options: GitlabAgentClusterSupplierOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** The same clusters for every caller: the token decides, not the user. */
  async getClusters(_options?: {
    credentials: BackstageCredentials;
  }): Promise<ClusterDetails[]> {
    const clusters = this.current
      ? this.current.clusters
      : await this.refresh();
    if (
      this.current &&
      this.now() - this.current.at >= this.options.refreshIntervalMs
    ) {
      this.refresh().catch(error =>
        this.options.logger.warn(
          `Refreshing the GitLab agent clusters failed; keeping the ${this.current?.clusters.length} listed before`,
          error,
        ),
      );
    }
    const names = clusterNames(clusters);
    return clusters.map((c, i) =>
      toClusterDetails(c, names[i], this.options.skipMetricsLookup),
    );
  }

  /** Lists the agents again (concurrent callers share one listing). */
  refresh(): Promise<GitlabAgentCluster[]> {
    this.loading ??= this.load().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  private async load(): Promise<GitlabAgentCluster[]> {
    const list = await this.agentClusters.listAgentClusters();
    this.log(list);
    const before = this.current?.clusters ?? [];
    const listedBefore = new Set(before.map(c => `${c.host}|${c.agent.id}`));
    const keepInstance = new Set(
      list.errors
        .filter(e => !e.agent && TRANSIENT.has(e.code))
        .map(e => e.host),
    );
    const clusters = [
      // A disconnected agent is left out: every Kubernetes tab would wait
      // on it for KAS's 20 s tunnel search. It comes back at the first
      // refresh after agentk connects.
      ...list.clusters.filter(
        c =>
          c.connection === 'connected' ||
          (c.connection === 'unknown' &&
            listedBefore.has(`${c.host}|${c.agent.id}`)),
      ),
      ...before.filter(c => keepInstance.has(c.host)),
    ];
    this.current = { clusters, at: this.now() };
    return clusters;
  }

  private log(list: GitlabAgentClusterList) {
    const seen = new Set<string>();
    for (const error of list.errors) {
      const line = `GitLab agent clusters of ${error.host}${
        error.agent ? ` (agent ${error.agent})` : ''
      }: ${error.message}${error.hint ? ` ${error.hint}` : ''}`;
      seen.add(line);
      if (!this.logged.has(line)) this.options.logger.warn(line);
    }
    this.logged = seen;
    const names = list.clusters.map(c => c.agent.name).join(', ') || 'none';
    if (names !== this.loggedNames)
      this.options.logger.info(`GitLab agent clusters: ${names}`);
    this.loggedNames = names;
  }
}
