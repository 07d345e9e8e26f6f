import { Config } from '@backstage/config';

/** One GitLab instance, with URLs resolved. @public */
export interface GitlabInstanceConfig {
  host: string;
  baseUrl: string;
  apiBaseUrl: string;
  graphqlUrl: string;
  kasProxyUrl?: string;
  token?: string;
  /** A token that may run jobs (api scope), for GitLab rollbacks; none: they are offered disabled. */
  rollbackToken?: string;
}

/** `gitlabEnv.live`: shared watches and the live stream. @public */
export interface LiveSettings {
  /** Watches held open per agent (each holds one of agentk's tunnels); further kinds are polled. */
  maxWatchesPerAgent: number;
  /** How long an environment's watches outlive its last viewer. */
  graceMs: number;
  /** How often polled kinds (and the Flux object) are listed again. */
  pollIntervalMs: number;
  /** How long one watch request lasts before it is opened again from its last version. */
  watchTimeoutSeconds: number;
  /** Changes are sent at most this often per environment. */
  batchMs: number;
  /** Reconnect back-off after a dropped watch: jittered, doubling from initialMs to maxMs. */
  backoff: { initialMs: number; maxMs: number };
  /** A heartbeat goes out after this long without a message. */
  heartbeatMs: number;
  /** Environments one stream may follow. */
  maxEnvironmentsPerStream: number;
}

/** The plugin's `gitlabEnv` configuration, validated, with defaults applied. @public */
export interface GitlabEnvConfig {
  instances: GitlabInstanceConfig[];
  requestTimeoutMs: number;
  /**
   * Timeout of a request to an agent that has not answered yet: KAS holds it
   * up to 20 s looking for an agentk tunnel before it answers 502.
   */
  kasFirstRequestTimeoutMs: number;
  /** Kinds whose RBAC refusal is by design: shown as information, not a warning. */
  expectedForbiddenKinds: string[];
  cacheTtlSeconds: number;
  /** How long a read that failed transiently, or answered only in part, is kept. */
  transientCacheSeconds: number;
  /** Bound on one request's whole work (all pages, retries and back-off). */
  requestDeadlineMs: number;
  limits: {
    /** Pages followed per list (each page is 500 objects). */
    maxPagesPerList: number;
    /** Objects kept per environment read. */
    maxObjectsPerEnvironment: number;
    /** Bytes accepted in one upstream answer. */
    maxResponseBytes: number;
  };
  concurrency: { perInstance: number; perAgent: number };
  ciAccess: {
    /** Expanded namespace names over 63 characters: refuse (default) or truncate with a digest. */
    namespaceOverflow: 'refuse' | 'truncate';
  };
  live: LiveSettings;
  /** `gitlabEnv.ownership`: what vouches for an entity's claim on a project, and what no environment owns. */
  ownership: OwnershipSettings;
  namespaceMapping: {
    /**
     * Where to look for the workloads carrying an environment's GitLab
     * annotations when nothing else gives its namespace: across each agent's
     * cluster, only in the namespaces the agent is known to deploy to, or
     * nowhere.
     */
    workloadAnnotations: 'acrossCluster' | 'knownNamespaces' | 'off';
  };
  overview: {
    /** Read this many namespaces of one agent or more with lists across the cluster. */
    clusterWideMinNamespaces: number;
    /** False reads every environment namespace by namespace. */
    clusterWideReads: boolean;
    /** The whole overview stream ends by then. */
    deadlineMs: number;
  };
}

/** `gitlabEnv.ownership` (see the README's "Ownership"). @public */
export interface OwnershipSettings {
  /**
   * Pairings of catalog entities with GitLab projects app-config vouches
   * for, when an entity's catalog file does not lie in its project's
   * repository: `entity` a full entity ref, `project` a path or numeric id,
   * `host` the instance (default the first).
   */
  claims: Array<{ entity: string; project: string; host: string }>;
  /** Namespaces no environment owns (the agent's, the cluster's platform); a trailing `*` is a prefix. */
  platformNamespaces: string[];
  /** How long the portal-wide index of which projects claim which namespaces is kept. */
  claimsRefreshMs: number;
}

/**
 * Where the agent and the cluster's own tooling run: agentk's namespace as
 * its Helm chart and GitLab's install instructions name it, Kubernetes'
 * own, and Flux's (which also holds every team's Flux objects: an
 * environment acts on its own root there, never on the rest).
 */
export const DEFAULT_PLATFORM_NAMESPACES = [
  'kube-system',
  'kube-public',
  'kube-node-lease',
  'gitlab-agent',
  'gitlab-agent-*',
  'flux-system',
];

const NAMESPACE_PATTERN =
  /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$|^[a-z0-9][-a-z0-9]{0,61}\*$/;

function readOwnership(
  config: Config | undefined,
  hosts: string[],
): OwnershipSettings {
  const where = 'gitlabEnv.ownership';
  const claims = (config?.getOptionalConfigArray('claims') ?? []).map(
    (claim, index) => {
      const at = `${where}.claims[${index}]`;
      const entity = claim.getOptionalString('entity') ?? '';
      if (!/^[^:/\s]+:[^:/\s]+\/[^:/\s]+$/.test(entity))
        throw new Error(
          `${at}.entity must be a full entity ref such as component:default/checkout-api, got '${entity}'`,
        );
      const project = claim.getOptionalString('project')?.trim() ?? '';
      if (!project || /\s/.test(project))
        throw new Error(
          `${at}.project must be a project path such as acme/shop/checkout-api or a numeric id, got '${project}'`,
        );
      const host = claim.getOptionalString('host') ?? hosts[0];
      if (!hosts.includes(host))
        throw new Error(
          `${at}.host '${host}' is not one of gitlabEnv.instances (${hosts.join(
            ', ',
          )})`,
        );
      return { entity: entity.toLowerCase(), project, host };
    },
  );
  const platformNamespaces =
    config?.getOptionalStringArray('platformNamespaces') ??
    DEFAULT_PLATFORM_NAMESPACES;
  const bad = platformNamespaces.find(n => !NAMESPACE_PATTERN.test(n));
  if (bad !== undefined)
    throw new Error(
      `${where}.platformNamespaces must list namespace names (a trailing * for a prefix), got '${bad}'`,
    );
  return {
    claims,
    platformNamespaces,
    claimsRefreshMs:
      readPositive(config, 'claimsRefreshSeconds', where, 300) * 1000,
  };
}

type WorkloadAnnotationsLookup =
  GitlabEnvConfig['namespaceMapping']['workloadAnnotations'];

const WORKLOAD_ANNOTATIONS_LOOKUPS: readonly WorkloadAnnotationsLookup[] = [
  'acrossCluster',
  'knownNamespaces',
  'off',
];

/**
 * Per agent, about what agentk's tunnel pool serves after a couple of growth
 * steps: it keeps 2 idle tunnels and opens 10 more at a time, one request per
 * tunnel (gitlab-agent internal/module/reverse_tunnel/agent/factory.go).
 * Requests beyond the free tunnels wait inside KAS, where the wait counts
 * against its 20 s tunnel search; beyond this limit they wait in the
 * backend's own queue instead (bench/kas-tunnels.bench.ts weighs the two).
 * An instance's KAS multiplexes several agents, hence a larger per-instance
 * limit.
 */
const DEFAULTS = {
  requestTimeoutMs: 10_000,
  // KAS's tunnel search is 20 s (gitlab-agent cmd/kas/kasapp/router_kas.go
  // routingTunnelFindTimeout); its 502 must arrive before the plugin gives up.
  kasFirstRequestTimeoutMs: 25_000,
  expectedForbiddenKinds: ['Secret'],
  cacheTtlSeconds: 30,
  transientCacheSeconds: 5,
  requestDeadlineMs: 30_000,
  maxPagesPerList: 100,
  maxObjectsPerEnvironment: 20_000,
  maxResponseBytes: 32 * 1024 * 1024,
  perInstance: 256,
  perAgent: 32,
  clusterWideMinNamespaces: 3,
  overviewDeadlineMs: 30_000,
  live: {
    // agentk opens tunnels 10 at a time and keeps few idle; every watch
    // holds one for its whole life, and reads need the rest.
    maxWatchesPerAgent: 20,
    graceSeconds: 30,
    pollIntervalSeconds: 15,
    // Below KAS's and proxies' idle limits; the API server ends it then.
    watchTimeoutSeconds: 290,
    batchMs: 100,
    reconnectInitialMs: 500,
    reconnectMaxMs: 30_000,
    heartbeatSeconds: 15,
    maxEnvironmentsPerStream: 50,
  },
};

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

function readUrl(config: Config, key: string, where: string): string {
  const value = config.getString(key);
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new Error();
  } catch {
    throw new Error(
      `${where}.${key} must be an http(s) URL such as https://gitlab.com, got '${value}'`,
    );
  }
  return trimSlash(value);
}

function readPositive(
  config: Config | undefined,
  key: string,
  where: string,
  fallback: number,
): number {
  const value = config?.getOptionalNumber(key);
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) {
    throw new Error(`${where}.${key} must be a positive number, got ${value}`);
  }
  return value;
}

/**
 * Reads and validates `gitlabEnv` at start-up, so a wrong setting stops the
 * backend with a message that names the key, not at the first page view.
 *
 * @public
 */
export function readGitlabEnvConfig(root: Config): GitlabEnvConfig {
  const config = root.getOptionalConfig('gitlabEnv');
  const list = config?.getOptionalConfigArray('instances') ?? [];
  if (list.length === 0) {
    throw new Error(
      'gitlabEnv.instances must list at least one GitLab instance, e.g. ' +
        '`gitlabEnv: { instances: [{ host: gitlab.com, baseUrl: https://gitlab.com, token: ${GITLAB_ENV_TOKEN} }] }`',
    );
  }
  const seen = new Set<string>();
  const instances = list.map((instance, index) => {
    const where = `gitlabEnv.instances[${index}]`;
    const host = instance.getOptionalString('host');
    if (!host || /[\s/]/.test(host)) {
      throw new Error(
        `${where}.host must be the bare host name annotations use, e.g. gitlab.com, got '${
          host ?? ''
        }'`,
      );
    }
    if (seen.has(host)) {
      throw new Error(`${where}.host '${host}' is configured twice`);
    }
    seen.add(host);
    if (!instance.has('baseUrl')) {
      throw new Error(
        `${where}.baseUrl is missing; set GitLab's web URL, e.g. https://${host}`,
      );
    }
    const baseUrl = readUrl(instance, 'baseUrl', where);
    const apiBaseUrl = instance.has('apiBaseUrl')
      ? readUrl(instance, 'apiBaseUrl', where)
      : `${baseUrl}/api/v4`;
    const kasProxyUrl = instance.has('kasProxyUrl')
      ? readUrl(instance, 'kasProxyUrl', where)
      : undefined;
    const token = instance.getOptionalString('token')?.trim() || undefined;
    const rollbackToken =
      instance.getOptionalString('rollbackToken')?.trim() || undefined;
    return {
      host,
      baseUrl,
      apiBaseUrl,
      graphqlUrl: `${apiBaseUrl.replace(/\/api\/v4$/, '')}/api/graphql`,
      kasProxyUrl,
      token,
      ...(rollbackToken && { rollbackToken }),
    };
  });
  const concurrency = config?.getOptionalConfig('concurrency');
  const overview = config?.getOptionalConfig('overview');
  const limits = config?.getOptionalConfig('limits');
  const live = config?.getOptionalConfig('live');
  const liveNumber = (key: string, fallback: number) =>
    readPositive(live, key, 'gitlabEnv.live', fallback);
  const namespaceOverflow =
    config?.getOptionalString('ciAccess.namespaceOverflow') ?? 'refuse';
  if (namespaceOverflow !== 'refuse' && namespaceOverflow !== 'truncate') {
    throw new Error(
      `gitlabEnv.ciAccess.namespaceOverflow must be 'refuse' or 'truncate', got '${namespaceOverflow}'`,
    );
  }
  const clusterWideReads =
    overview?.getOptionalBoolean('clusterWideReads') ?? true;
  // An adopter who keeps the overview within the environments' namespaces
  // keeps the namespace lookup there too, unless told otherwise.
  const workloadAnnotations =
    config?.getOptionalString('namespaceMapping.workloadAnnotations') ??
    (clusterWideReads ? 'acrossCluster' : 'knownNamespaces');
  if (
    !WORKLOAD_ANNOTATIONS_LOOKUPS.includes(
      workloadAnnotations as WorkloadAnnotationsLookup,
    )
  ) {
    throw new Error(
      `gitlabEnv.namespaceMapping.workloadAnnotations must be one of ${WORKLOAD_ANNOTATIONS_LOOKUPS.join(
        ', ',
      )}, got '${workloadAnnotations}'`,
    );
  }
  return {
    ciAccess: { namespaceOverflow },
    ownership: readOwnership(
      config?.getOptionalConfig('ownership'),
      instances.map(i => i.host),
    ),
    namespaceMapping: {
      workloadAnnotations: workloadAnnotations as WorkloadAnnotationsLookup,
    },
    instances,
    requestTimeoutMs: readPositive(
      config,
      'requestTimeoutMs',
      'gitlabEnv',
      DEFAULTS.requestTimeoutMs,
    ),
    kasFirstRequestTimeoutMs: readPositive(
      config,
      'kasFirstRequestTimeoutMs',
      'gitlabEnv',
      DEFAULTS.kasFirstRequestTimeoutMs,
    ),
    expectedForbiddenKinds:
      config?.getOptionalStringArray('expectedForbiddenKinds') ??
      DEFAULTS.expectedForbiddenKinds,
    cacheTtlSeconds: readPositive(
      config,
      'cacheTtlSeconds',
      'gitlabEnv',
      DEFAULTS.cacheTtlSeconds,
    ),
    transientCacheSeconds: readPositive(
      config,
      'transientCacheSeconds',
      'gitlabEnv',
      DEFAULTS.transientCacheSeconds,
    ),
    requestDeadlineMs: readPositive(
      config,
      'requestDeadlineMs',
      'gitlabEnv',
      DEFAULTS.requestDeadlineMs,
    ),
    limits: {
      maxPagesPerList: readPositive(
        limits,
        'maxPagesPerList',
        'gitlabEnv.limits',
        DEFAULTS.maxPagesPerList,
      ),
      maxObjectsPerEnvironment: readPositive(
        limits,
        'maxObjectsPerEnvironment',
        'gitlabEnv.limits',
        DEFAULTS.maxObjectsPerEnvironment,
      ),
      maxResponseBytes: readPositive(
        limits,
        'maxResponseBytes',
        'gitlabEnv.limits',
        DEFAULTS.maxResponseBytes,
      ),
    },
    concurrency: {
      perInstance: readPositive(
        concurrency,
        'perInstance',
        'gitlabEnv.concurrency',
        DEFAULTS.perInstance,
      ),
      perAgent: readPositive(
        concurrency,
        'perAgent',
        'gitlabEnv.concurrency',
        DEFAULTS.perAgent,
      ),
    },
    live: {
      maxWatchesPerAgent: liveNumber(
        'maxWatchesPerAgent',
        DEFAULTS.live.maxWatchesPerAgent,
      ),
      graceMs: liveNumber('graceSeconds', DEFAULTS.live.graceSeconds) * 1000,
      pollIntervalMs:
        liveNumber('pollIntervalSeconds', DEFAULTS.live.pollIntervalSeconds) *
        1000,
      watchTimeoutSeconds: Math.round(
        liveNumber('watchTimeoutSeconds', DEFAULTS.live.watchTimeoutSeconds),
      ),
      batchMs: liveNumber('batchMs', DEFAULTS.live.batchMs),
      backoff: {
        initialMs: liveNumber(
          'reconnectInitialMs',
          DEFAULTS.live.reconnectInitialMs,
        ),
        maxMs: liveNumber('reconnectMaxMs', DEFAULTS.live.reconnectMaxMs),
      },
      heartbeatMs:
        liveNumber('heartbeatSeconds', DEFAULTS.live.heartbeatSeconds) * 1000,
      maxEnvironmentsPerStream: liveNumber(
        'maxEnvironmentsPerStream',
        DEFAULTS.live.maxEnvironmentsPerStream,
      ),
    },
    overview: {
      clusterWideReads,
      clusterWideMinNamespaces: readPositive(
        overview,
        'clusterWideMinNamespaces',
        'gitlabEnv.overview',
        DEFAULTS.clusterWideMinNamespaces,
      ),
      deadlineMs: readPositive(
        overview,
        'deadlineMs',
        'gitlabEnv.overview',
        DEFAULTS.overviewDeadlineMs,
      ),
    },
  };
}
