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
      /** KAS Kubernetes proxy URL; defaults to what GitLab's metadata says. */
      kasProxyUrl?: string;
      /**
       * Token with read_api and k8s_proxy scopes.
       * @visibility secret
       */
      token?: string;
    }>;
    /** Timeout of each upstream request, in milliseconds (default 10000). */
    requestTimeoutMs?: number;
    /** How long reads are cached, in seconds (default 30). */
    cacheTtlSeconds?: number;
    /** Concurrent upstream requests per instance and per agent. */
    concurrency?: { perInstance?: number; perAgent?: number };
  };
}
