export interface Config {
  gitlabEnv?: {
    /** The Kubernetes plugin's clusters behind GitLab agents (this module). */
    kubernetes?: {
      /**
       * How old the list of agents may get before it is listed again, in
       * the background (default 300).
       */
      refreshIntervalSeconds?: number;
      /** Skip `metrics.k8s.io` in the Kubernetes tab for these clusters (default false). */
      skipMetricsLookup?: boolean;
    };
  };
}
