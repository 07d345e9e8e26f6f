export interface Config {
  /** Configuration of the GitLab environments plugin. */
  gitlabEnv?: {
    /** GitLab instances; the first one is the default for entities without gitlab.com/instance. */
    instances: Array<{
      /** The host that gitlab.com/instance annotations name, e.g. gitlab.com. */
      host: string;
      /** GitLab's web URL, e.g. https://gitlab.com. */
      baseUrl: string;
      /** API base URL; defaults to `${baseUrl}/api/v4`. */
      apiBaseUrl?: string;
      /**
       * KAS Kubernetes proxy URL. Default: GitLab's metadata
       * `kas.externalK8sProxyUrl` (17.6+), before 17.6 derived from
       * `kas.externalUrl` as GitLab itself does.
       */
      kasProxyUrl?: string;
      /**
       * Token with read_api and k8s_proxy scopes.
       * @visibility secret
       */
      token?: string;
      /**
       * Optional token that may run jobs, for GitLab rollbacks (re-running
       * the deploy job of an earlier deployment): the `api` scope, its user
       * a Developer of the projects and allowed to deploy to their
       * protected environments. Without it the rollback is shown disabled.
       * @visibility secret
       */
      rollbackToken?: string;
    }>;
    /** Timeout of each upstream request, in milliseconds (default 10000). */
    requestTimeoutMs?: number;
    /**
     * Timeout of a request to an agent that has not answered yet, in
     * milliseconds (default 25000): KAS looks up to 20 s for the agent's
     * tunnel before it answers that the agent is not connected.
     */
    kasFirstRequestTimeoutMs?: number;
    /**
     * Kinds the agents' RBAC refuses on purpose (default ['Secret']), as
     * `Kind` or `group/Kind`: their refusal is shown as information in the
     * environment's details, not as a warning. Refusals of Pods, Deployments
     * and the environment's Flux object always stay warnings.
     */
    expectedForbiddenKinds?: string[];
    /** How long reads are cached, in seconds (default 30). */
    cacheTtlSeconds?: number;
    /**
     * How long a read that failed transiently (timeout, 5xx, reset) or came
     * back only in part is cached, in seconds (default 5), so a recovered
     * upstream shows up quickly. Definitive failures keep cacheTtlSeconds.
     */
    transientCacheSeconds?: number;
    /**
     * Bound on one request's whole work, in milliseconds (default 30000):
     * every page, retry and back-off. Longer than kasFirstRequestTimeoutMs,
     * so KAS's tunnel search for an unseen agent can answer first. Past it the request answers
     * UPSTREAM_TIMEOUT, or what was read with a LIMIT_REACHED warning.
     */
    requestDeadlineMs?: number;
    /** Bounds on what one read may hold; past one the answer says what it left out. */
    limits?: {
      /** Pages followed per list, 500 objects each (default 100). */
      maxPagesPerList?: number;
      /** Objects kept per environment (default 20000). */
      maxObjectsPerEnvironment?: number;
      /** Bytes accepted in one upstream answer (default 33554432, 32 MiB). */
      maxResponseBytes?: number;
    };
    /**
     * Upstream requests in flight at once, per instance (GitLab API and KAS
     * together; default 256) and per agent (default 32: agentk keeps 2 idle
     * tunnels to KAS and opens 10 more at a time, one request each; what
     * exceeds the free tunnels waits inside KAS, against its 20 s search).
     */
    concurrency?: { perInstance?: number; perAgent?: number };
    /** CI access rules of agent configuration files (`ci_access.*.rules`). */
    ciAccess?: {
      /**
       * A rule's namespace that expands to more than 63 characters: 'refuse'
       * (default) reports it; 'truncate' keeps the first 54 characters and
       * appends '-' and an 8-hex-digit digest of the full name.
       */
      namespaceOverflow?: 'refuse' | 'truncate';
    };
    /** Health assessment beyond the built-in ArgoCD-compatible rules. */
    health?: {
      /**
       * Declarative rules for custom resources: per group and kind, which
       * conditions (type, status, reasons) or field values mean Suspended,
       * Degraded, Progressing or Healthy (read in that order, first match
       * wins) and which fields carry the message. Tried before the built-in
       * rules. Validated at start: a wrong rule stops the backend, naming
       * its key.
       */
      rules?: Array<{
        /** API group, e.g. postgresql.cnpg.io ('' for the core group). */
        group: string;
        kind: string;
        suspended?: HealthRuleMatch[];
        degraded?: HealthRuleMatch[];
        progressing?: HealthRuleMatch[];
        healthy?: HealthRuleMatch[];
        /** Dotted paths (e.g. status.message) whose first non-empty value is the message; default the matched condition's message or reason. */
        message?: string[];
        /** Status when nothing matches (default Unknown, with a message saying so). */
        otherwise?:
          | 'Healthy'
          | 'Suspended'
          | 'Progressing'
          | 'Degraded'
          | 'Unknown';
      }>;
      /**
       * Argo CD's own health customizations, as Lua scripts, taken as they
       * are from argocd-cm: `resource.customizations.health.<group>_<kind>`
       * (`<kind>` for the core group), `resource.customizations.useOpenLibs.<group>_<kind>`
       * and the YAML form `resource.customizations` (wildcard keys such as
       * `"*.example.com/*"` allowed). They run on the server in a Lua
       * sandbox (no I/O; bounded instructions and memory), are tried before
       * the built-in rules, and a script error shows as Unknown with the
       * error. Other argocd-cm keys are ignored.
       */
      argocd?: {
        /**
         * An argocd-cm ConfigMap manifest (YAML, one or more documents) to
         * read, e.g. the one in your GitOps repository; relative to the
         * backend's working directory.
         */
        configMapFile?: string;
        /**
         * argocd-cm data keys written here (a script can be a `$file`
         * include); they win over the same keys of configMapFile.
         */
        data?: { [key: string]: string | boolean };
        /** Lua instructions one script may run on one object (default 1000000). */
        maxInstructions?: number;
        /** Bytes of memory one script may take on one object (default 8388608). */
        maxMemoryBytes?: number;
      };
    };
    /** Actions on an environment's objects, and pod logs. */
    actions?: {
      /**
       * How long the cluster's answers on what the agent may do
       * (SelfSubjectAccessReview) are kept, per agent, in seconds (default 30).
       */
      accessReviewCacheSeconds?: number;
      logs?: {
        /**
         * The tail asked of the cluster when the browser asks none or more
         * (default 5000); the response then says it was capped.
         */
        maxTailLines?: number;
        /** At most this many bytes per log read that does not follow (the API server's limitBytes; default 10485760). */
        maxBytes?: number;
        /** A followed log ends after this many seconds (default 3600). */
        maxFollowSeconds?: number;
        /**
         * Logs one user may follow at once (default 10): each holds one of
         * the agent's tunnels while open. Followed logs also take at most
         * half of an agent's request slots (concurrency.perAgent).
         */
        maxFollowedPerUser?: number;
      };
    };
    /**
     * CPU and memory usage (`GET …/environments/:slug/usage`): metrics.k8s.io
     * sampled once per agent, label selector and namespace for every viewer.
     */
    usage?: {
      /** Between two samples (default 15: metrics-server's resolution). */
      sampleIntervalSeconds?: number;
      /** Samples kept per scope: the trend while viewed (default 40). */
      keepSamples?: number;
      /** Sampling stops this long after the last viewer asked (default 60). */
      graceSeconds?: number;
      /** Trends over hours from a Prometheus found in the cluster. */
      prometheus?: {
        /** Look for one (default true). */
        enabled?: boolean;
        /** How far back a trend goes (default 3). */
        rangeHours?: number;
        /** Its resolution (default 60). */
        stepSeconds?: number;
      };
    };
    /**
     * Live environments (`GET /api/gitlab-env/live`): shared Kubernetes
     * watches through KAS, streamed to every open page.
     */
    live?: {
      /**
       * Watches held open per agent (default 20). Each holds one of agentk's
       * tunnels for its whole life; kinds beyond the cap are listed again
       * every pollIntervalSeconds and the page says so, until a watch of the
       * agent ends and frees a slot for them. A kind whose scope has stayed
       * empty for a poll interval gives its slot to a polled kind with
       * objects and is polled until objects appear. A kind the cluster refuses
       * (RBAC) holds no watch and does not count; one whose API server
       * offers no watch is always polled. Every namespaced kind the cluster
       * serves is one watch (a Kubernetes 1.31 cluster serves about 28
       * before its custom resources).
       */
      maxWatchesPerAgent?: number;
      /** How long an environment's watches outlive its last viewer, in seconds (default 30). */
      graceSeconds?: number;
      /** How often polled kinds and the Flux object are listed again, in seconds (default 15). */
      pollIntervalSeconds?: number;
      /** One watch request's timeoutSeconds; it is opened again from its last resourceVersion (default 290). */
      watchTimeoutSeconds?: number;
      /** Changes are sent at most this often per environment, in milliseconds (default 100). */
      batchMs?: number;
      /** First reconnect delay after a dropped watch, doubling with jitter (default 500 ms). */
      reconnectInitialMs?: number;
      /** Longest reconnect delay (default 30000 ms). */
      reconnectMaxMs?: number;
      /** A heartbeat goes out after this long without a message, in seconds (default 15). */
      heartbeatSeconds?: number;
      /** Environments one stream (one browser tab) may follow (default 50). */
      maxEnvironmentsPerStream?: number;
    };
    /**
     * What an entity owns, and so may act on (see the README's
     * "Ownership"). An entity's claim on its GitLab project
     * (gitlab.com/project-slug or -id) counts for actions, logs and
     * repository reads only when its catalog file lies in that project's
     * repository on that instance, or when `claims` pairs them.
     */
    ownership?: {
      /**
       * Pairings the portal's administrators vouch for, for entities whose
       * catalog file does not lie in their project's repository (a central
       * catalog repository, local files). Without one, such an entity's
       * environments show, but nothing is changed, no log and no repository
       * is read for it.
       */
      claims?: Array<{
        /** A full entity ref, e.g. component:default/checkout-api. */
        entity: string;
        /** The project's path (group/project) or numeric id. */
        project: string;
        /** The instance (gitlabEnv.instances[].host); default the first. */
        host?: string;
      }>;
      /**
       * Namespaces no environment owns: the agent's and the cluster's own
       * (default kube-system, kube-public, kube-node-lease, gitlab-agent,
       * gitlab-agent-*, flux-system; a trailing * is a prefix). An
       * environment still acts on its own Flux object in flux-system.
       */
      platformNamespaces?: string[];
      /**
       * How long the portal-wide index of which projects' environments
       * claim which namespaces is kept before it is rebuilt in the
       * background, in seconds (default 300).
       */
      claimsRefreshSeconds?: number;
    };
    /** Where an environment's namespace comes from when GitLab has none. */
    namespaceMapping?: {
      /**
       * Where to look for workloads (Deployments, StatefulSets, DaemonSets)
       * carrying an environment's GitLab annotations (`app.gitlab.com/env`,
       * `app.gitlab.com/app`) when neither GitLab nor a GitLabDeployment
       * names its namespace: `acrossCluster` (one list per kind across each
       * agent's cluster, namespace by namespace where RBAC refuses it),
       * `knownNamespaces` (only the namespaces the agent's other
       * environments deploy to) or `off`. Default `acrossCluster`, or
       * `knownNamespaces` when `overview.clusterWideReads` is false.
       */
      workloadAnnotations?: 'acrossCluster' | 'knownNamespaces' | 'off';
    };
    /** The timeline each environment keeps in the plugin's database. */
    timeline?: {
      /** Record the timeline (default true); false records nothing and the timeline reads empty. */
      enabled?: boolean;
      /** Entries older than this are deleted, in days (default 400). */
      retentionDays?: number;
      /** At most this many entries are kept per environment, the oldest deleted first (default 100000). */
      maxEntriesPerEnvironment?: number;
      /** How often old entries are deleted, in minutes (default 60). */
      pruneIntervalMinutes?: number;
    };
    /** The portal-wide deployment overview. */
    overview?: {
      /**
       * Read the environments of one agent with one list per kind across all
       * namespaces, keeping only the objects of the environments' namespaces
       * (default true). Where RBAC refuses a list across namespaces, that
       * kind is read namespace by namespace. Set false to never read beyond
       * the environments' namespaces (the namespace lookup by GitLab
       * annotations then keeps to them too, see namespaceMapping).
       */
      clusterWideReads?: boolean;
      /** From how many namespaces of one agent the overview reads across the cluster (default 3). */
      clusterWideMinNamespaces?: number;
      /**
       * The whole overview stream ends by then, in milliseconds (default
       * 30000): rows whose health is not read yet say UPSTREAM_TIMEOUT.
       */
      deadlineMs?: number;
    };
  };
}

/**
 * One match of a declarative health rule: a condition, or a field value.
 * `field` is a dotted path; `\.` keeps a dot in a key (annotation names).
 */
type HealthRuleMatch =
  | {
      condition: string;
      /** Default "True". */
      status?: 'True' | 'False' | 'Unknown';
      reasons?: string[];
    }
  | { field: string; values: Array<string | number | boolean> };
