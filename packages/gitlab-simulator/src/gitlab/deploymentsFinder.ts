import {
  ScenarioDeployment,
  ScenarioEnvironment,
  ScenarioProject,
} from '../scenario/types';

/**
 * `DeploymentsFinder` (app/finders/deployments_finder.rb), behind both REST
 * `GET /projects/:id/deployments` and GraphQL `Environment.deployments`:
 * sorts id, iid, created_at, updated_at, finished_at (default id asc;
 * created_at and iid sort by id, updated_at breaks ties by id), filters by
 * environment, statuses and exclusive updated/finished bounds, and refuses
 * the inefficient combinations with its own messages.
 */

export class InefficientQueryError extends Error {}

export const SORT_VALUES = [
  'id',
  'iid',
  'created_at',
  'updated_at',
  'finished_at',
] as const;
export type DeploymentSort = (typeof SORT_VALUES)[number];

/** `Deployment.statuses`, lower case as REST takes them. */
export const DEPLOYMENT_STATUSES = [
  'created',
  'running',
  'success',
  'failed',
  'canceled',
  'skipped',
  'blocked',
] as const;

const FINISHED = ['success', 'failed', 'canceled'];
const UPCOMING = ['created', 'blocked', 'running'];

export interface DeploymentQuery {
  /** An environment's name (REST) or the environment itself (GraphQL). */
  environment?: string | ScenarioEnvironment;
  statuses?: string[];
  orderBy?: DeploymentSort;
  sort?: 'asc' | 'desc';
  updatedAfter?: number;
  updatedBefore?: number;
  finishedAfter?: number;
  finishedBefore?: number;
}

export interface FoundDeployment {
  env: ScenarioEnvironment;
  deployment: ScenarioDeployment;
}

function validate(q: DeploymentQuery) {
  const updated = q.updatedAfter !== undefined || q.updatedBefore !== undefined;
  const finished =
    q.finishedAfter !== undefined || q.finishedBefore !== undefined;
  const statuses = q.statuses ?? [];
  if (updated && finished)
    throw new InefficientQueryError(
      'Both `updated_at` filter and `finished_at` filter can not be specified',
    );
  if (updated && q.orderBy !== 'updated_at')
    throw new InefficientQueryError(
      '`updated_at` filter requires `updated_at` sort',
    );
  if (finished && q.orderBy !== 'finished_at')
    throw new InefficientQueryError(
      '`finished_at` filter requires `finished_at` sort.',
    );
  if (
    q.orderBy === 'finished_at' &&
    !finished &&
    !statuses.some(s => FINISHED.includes(s))
  )
    throw new InefficientQueryError(
      '`finished_at` sort requires `finished_at` filter or a filter with at least one of the finished statuses.',
    );
  if (finished && !(statuses.length === 1 && statuses[0] === 'success'))
    throw new InefficientQueryError(
      '`finished_at` filter must be combined with `success` status filter.',
    );
  if (
    statuses.some(s => FINISHED.includes(s)) &&
    statuses.some(s => UPCOMING.includes(s))
  )
    throw new InefficientQueryError(
      'finished statuses and upcoming statuses must be separately queried.',
    );
}

export function findDeployments(
  project: ScenarioProject,
  query: DeploymentQuery,
): FoundDeployment[] {
  validate(query);
  const statuses = query.statuses;
  const inRange = (value: number, after?: number, before?: number) =>
    (after === undefined || value > after) &&
    (before === undefined || value < before);
  const found = project.environments
    .filter(env =>
      typeof query.environment === 'string'
        ? env.name === query.environment
        : !query.environment || env === query.environment,
    )
    .flatMap(env => env.deployments.map(deployment => ({ env, deployment })))
    .filter(
      ({ deployment }) =>
        !statuses?.length ||
        statuses.includes(
          deployment.status.toLowerCase() as (typeof DEPLOYMENT_STATUSES)[number],
        ),
    )
    .filter(({ deployment }) =>
      inRange(
        Date.parse(deployment.updatedAt),
        query.updatedAfter,
        query.updatedBefore,
      ),
    )
    .filter(({ deployment }) =>
      query.finishedAfter === undefined && query.finishedBefore === undefined
        ? true
        : deployment.finishedAt !== undefined &&
          inRange(
            Date.parse(deployment.finishedAt),
            query.finishedAfter,
            query.finishedBefore,
          ),
    );
  const direction = query.sort === 'desc' ? -1 : 1;
  const value = (d: ScenarioDeployment): number => {
    switch (query.orderBy) {
      case 'updated_at':
        return Date.parse(d.updatedAt);
      case 'finished_at':
        // PostgreSQL sorts NULLs last ascending, first descending.
        return d.finishedAt ? Date.parse(d.finishedAt) : Infinity;
      default:
        return d.id;
    }
  };
  return found.sort(
    (a, b) =>
      direction * (value(a.deployment) - value(b.deployment)) ||
      direction * (a.deployment.id - b.deployment.id),
  );
}
