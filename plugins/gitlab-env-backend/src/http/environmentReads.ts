import {
  EntityEnvironmentsResponse,
  EnvironmentResourcesResponse,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { GitlabEnvironmentsService } from '../facade';
import {
  auditedEntity,
  entityPathParams,
  EntityTarget,
  RouteCore,
  RouteSpec,
} from './pipeline';

function flag(value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  return value === 'true' || value === '1' || value === '';
}

/** A read of one environment of the entity: gitlab-env.resources.read, located. */
export function environmentRead(eventId: string): RouteSpec<EntityTarget> {
  return {
    audit: { eventId, meta: auditedEntity },
    params: entityPathParams,
    entities: 'one',
    entity: params => params,
    permission: {},
    locate: 'environment',
  };
}

export interface EnvironmentsListParams extends EntityTarget {
  includeStopped: boolean;
  withHealth: boolean;
}

/**
 * `GET /entity/:namespace/:kind/:name/environments`: the entity's
 * environments from GitLab alone; with `withHealth=true`, each one's rolled-up
 * health too, which waits for the agents.
 */
export function environmentsListRoute(
  service: GitlabEnvironmentsService,
): RouteCore<EnvironmentsListParams, EntityEnvironmentsResponse> {
  return {
    spec: {
      audit: { eventId: 'environments-list', meta: auditedEntity },
      params: raw => {
        const target = entityPathParams(raw);
        const states =
          typeof raw.query.states === 'string'
            ? raw.query.states.split(',')
            : [];
        return {
          ...target,
          includeStopped:
            flag(raw.query.includeStopped, false) || states.includes('stopped'),
          withHealth: flag(raw.query.withHealth, false),
        };
      },
      entities: 'one',
      entity: params => params,
      permission: {},
      locate: 'entity',
      // Without health the list is GitLab's alone: no agent holds it.
      clusterLookups: params => (params.withHealth ? 'wait' : 'known'),
    },
    run: ({ entity, located, params, requestSignal }) =>
      service.listEnvironments(entity, {
        includeStopped: params.includeStopped,
        withHealth: params.withHealth,
        signal: requestSignal,
        located,
      }),
    outcome: body => ({ environments: body.environments.length }),
  };
}

/** `GET /entity/:namespace/:kind/:name/environments/:slug/resources`: objects, graph, health. */
export function environmentResourcesRoute(
  service: GitlabEnvironmentsService,
): RouteCore<EntityTarget, EnvironmentResourcesResponse> {
  return {
    spec: environmentRead('environment-resources-read'),
    run: ({ entity, located, environment, requestSignal }) =>
      service.getEnvironmentResources(entity, environment.slug, {
        signal: requestSignal,
        located,
      }),
    // The audit records what was served: partial reads name their gaps.
    outcome: body => ({
      resources: body.resources.length,
      partial: body.health.partial !== undefined,
      errors: body.errors.map(e => e.code),
    }),
  };
}
