import { compareEnvironments } from '../environments';
import {
  DeploymentTier,
  EntityEnvironmentsResponse,
  EnvironmentState,
  GitlabEnvironment,
  HealthStatus,
} from '../types';
import {
  errorLines,
  LIST_BUDGET_BYTES,
  shortMessage,
  takeWithin,
} from './compactAnswers';

/** @public */
export interface EnvironmentLine {
  name: string;
  /** What the other answers and actions take to name the environment. */
  slug: string;
  tier: DeploymentTier;
  state: EnvironmentState;
  namespace?: string;
  agent?: string;
  health?: HealthStatus;
  /** Resources per health status, those at zero left out. */
  counts?: Record<string, number>;
  /** The health was computed from an incomplete read. */
  partial?: boolean;
  /** Objects Flux manages that drifted from what it applied. */
  drifted?: number;
  lastDeployment?: {
    ref?: string;
    sha?: string;
    status: string;
    finishedAt?: string;
  };
  /** Why nothing of it can be acted on from the portal, when nothing can. */
  readOnly?: string;
  /** What could not be read or was refused, `CODE: message`. */
  errors?: string[];
}

/** @public */
export interface EnvironmentsAnswer {
  entityRef: string;
  /** The GitLab project, `host/full/path`. */
  project: string;
  /** Production first, then by tier and name. */
  environments: EnvironmentLine[];
  /** How many environments the entity shows in all. */
  total: number;
  /** Environments after the listed ones (ask again from a later offset). */
  more: number;
  /** Why the list itself may be incomplete. */
  errors?: string[];
}

function line(environment: GitlabEnvironment): EnvironmentLine {
  const { health, lastDeployment, actionScope } = environment;
  const counts: Record<string, number> = {};
  for (const [status, count] of Object.entries(health?.counts ?? {}))
    if (count && status !== 'none') counts[status] = count;
  const refusal = actionScope?.entityRefusal ?? actionScope?.namespaceRefusal;
  return {
    name: environment.name,
    slug: environment.slug,
    tier: environment.tier,
    state: environment.state,
    namespace: environment.namespace,
    agent: environment.agent?.name,
    health: health?.status,
    counts: health ? counts : undefined,
    partial: health?.partial ? true : undefined,
    drifted: environment.driftedCount || undefined,
    lastDeployment: lastDeployment && {
      ref: lastDeployment.ref,
      sha: lastDeployment.sha?.slice(0, 8),
      status: lastDeployment.status,
      finishedAt: lastDeployment.finishedAt,
    },
    readOnly: refusal && shortMessage(refusal.message),
    errors: errorLines(environment.errors),
  };
}

/**
 * An entity's environments as an assistant reads them: one line each with
 * its health and counts, the last deployment and why it cannot be acted
 * on, production first; `limit` of them from the `offset`th (as many as
 * fit LIST_BUDGET_BYTES), the rest counted.
 *
 * @public
 */
export function environmentsAnswer(
  response: EntityEnvironmentsResponse,
  limit = 25,
  offset = 0,
): EnvironmentsAnswer {
  const sorted = [...response.environments].sort(compareEnvironments);
  const environments = takeWithin(
    sorted.slice(offset),
    limit,
    LIST_BUDGET_BYTES,
    line,
  );
  return {
    entityRef: response.entityRef,
    project: `${response.project.instance}/${response.project.fullPath}`,
    environments,
    total: sorted.length,
    more: Math.max(0, sorted.length - offset - environments.length),
    errors: errorLines(response.errors),
  };
}
