import {
  DeploymentTier,
  GitlabEnvError,
  GitlabEnvironment,
  GitlabProjectRef,
  HealthStatus,
  HealthSummary,
} from '../types';

/** One environment of one catalog entity, as the deployment overview lists it. @public */
export interface OverviewRow {
  entityRef: string;
  entityTitle?: string;
  /** Entity ref of the owner, e.g. `group:default/team-web`. */
  owner?: string;
  /** Entity ref of the system, e.g. `system:default/shop`. */
  system?: string;
  project?: GitlabProjectRef;
  /** Absent when the entity's environments could not be listed at all. */
  environment?: GitlabEnvironment;
  /** Absent when the environment's resources could not be read. */
  health?: HealthSummary;
  /**
   * True while the backend is still reading the environment's resources;
   * a `health` line of the stream then settles the row.
   */
  pending?: boolean;
  errors: GitlabEnvError[];
}

/** The health of one environment of the overview, once its resources are read. @public */
export interface OverviewHealthLine {
  type: 'health';
  entityRef: string;
  environmentId: string;
  health?: HealthSummary;
  errors: GitlabEnvError[];
}

/**
 * `GET /overview` answers NDJSON, one of these per line: a `start` line
 * with the number of entities; an `entity` line per entity as soon as its
 * environments are listed (rows still `pending` health); a `health` line per
 * pending row once its resources are read, production first; and a `done`
 * line. The page renders rows as they arrive and settles them in place.
 *
 * @public
 */
export type OverviewStreamLine =
  | { type: 'start'; entities: number }
  | { type: 'entity'; entityRef: string; rows: OverviewRow[] }
  | OverviewHealthLine
  | { type: 'done'; entities: number; rows: number; elapsedMs: number };

/** What the overview page filters on; every field is optional. @public */
export interface OverviewFilters {
  tiers?: DeploymentTier[];
  /** Folder names, e.g. `production` matches `production/us-region`. */
  folders?: string[];
  owners?: string[];
  systems?: string[];
  health?: HealthStatus[];
  /** Free text, matched against entity, project, environment, agent and namespace. */
  text?: string;
}

/**
 * Rows of one tier, split by folder (environments without a folder under '').
 * A status is absent while every row under it is still pending.
 *
 * @public
 */
export interface OverviewTierGroup {
  tier: DeploymentTier;
  status?: HealthStatus;
  folders: Array<{
    folder: string;
    status?: HealthStatus;
    rows: OverviewRow[];
  }>;
}
