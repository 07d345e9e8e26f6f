export interface Config {
  /** The demo portal's embedded GitLab + KAS simulator. */
  gitlabSimulator?: {
    /** Start the simulator inside the backend. */
    enabled?: boolean;
    /** Port the simulator listens on; the gitlabEnv instance must point at it. */
    port?: number;
    /** Interface to bind; loopback by default. */
    host?: string;
    /**
     * Serve the simulator's knobs and drivers at `/-/simulator/…` (crash a
     * pod, drop watches), for the browser tests; off by default.
     */
    adminApi?: boolean;
  };
  /**
   * The demo portal's permission policy allows everything except these:
   * per user entity ref, the permission names denied (e.g.
   * gitlab-env.pods.delete).
   */
  demoPermissions?: {
    deny?: Array<{ user: string; permissions: string[] }>;
  };
}
