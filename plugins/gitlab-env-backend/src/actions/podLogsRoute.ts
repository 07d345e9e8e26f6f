import {
  permissionForCapability,
  PodLogsQuery,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { failure } from '../errors';
import { GitlabEnvironmentsService } from '../facade';
import {
  auditedEntity,
  auditText,
  entityPathParams,
  EntityTarget,
  RouteContext,
  RouteSpec,
} from '../http/pipeline';
import { GitlabEnvTransport } from '../transport';
import { FollowedLogs } from './followedLogs';
import { LogLimits, logRequest, openLogStream, readLogsQuery } from './podLogs';
import { ownedObject } from './targets';

export interface PodLogsParams extends EntityTarget {
  slug: string;
  query: PodLogsQuery;
}

/** `GET …/environments/:slug/logs` (and the actions registry's log tail): gitlab-env.logs.read, located, audited. */
export const podLogsSpec: RouteSpec<PodLogsParams> = {
  audit: {
    eventId: 'environment-logs-read',
    meta: raw => ({
      ...auditedEntity(raw),
      pod: auditText(raw.query.pod) ?? null,
    }),
  },
  params: raw => {
    const target = entityPathParams(raw);
    return {
      ...target,
      slug: target.slug!,
      query: readLogsQuery(raw.query),
    };
  },
  entities: 'one',
  entity: params => params,
  permission: { required: () => [permissionForCapability('pod.logs')] },
  locate: 'environment',
};

export interface PodLogsDeps {
  service: GitlabEnvironmentsService;
  /** The plugin's transport: log streams hold slots of the agents' budgets. */
  transport: GitlabEnvTransport;
  /** Who follows which logs; a caller without it reads a tail only. */
  followed?: FollowedLogs;
}

/** A log the cluster started to send. */
export interface OpenedPodLog {
  stream: ReadableStream<Uint8Array>;
  planned: ReturnType<typeof logRequest>;
  /** `pod ns/name (container c)`, for messages. */
  what: string;
}

/**
 * The logs route's own work: the pod must be one the environment owns, the
 * log is opened within the user's and the agent's stream budgets, the
 * audit record ends as opened, then `consume` reads it while those are
 * held; they are released when it returns or `signal` stops the stream.
 */
export async function withPodLog(
  deps: PodLogsDeps,
  context: RouteContext<PodLogsParams>,
  options: { signal: AbortSignal; limits: LogLimits },
  consume: (log: OpenedPodLog) => Promise<void>,
): Promise<void> {
  const { entity, located, params, credentials } = context;
  const { query, slug } = params;
  const releases: Array<() => void> = [];
  try {
    await deps.service.withEnvironmentAgent(
      entity,
      slug,
      async agent => {
        const { environment, kas } = agent;
        const pod = await ownedObject(
          {
            apiVersion: 'v1',
            kind: 'Pod',
            namespace: query.namespace ?? environment.namespace ?? '',
            name: query.pod,
          },
          agent,
        );
        const planned = logRequest(pod, query, options.limits);
        const what = `pod ${pod.metadata!.namespace}/${query.pod}${
          planned.container ? ` (container ${planned.container})` : ''
        }`;
        // A followed log holds an agentk tunnel as long as it is
        // open: within the user's cap and the agent's budget.
        if (query.follow) {
          if (!deps.followed)
            throw failure('INVALID_REQUEST', 'Logs are not followed here.', {
              hint: 'Read a tail of the log instead.',
            });
          releases.push(deps.followed.hold(credentials));
        }
        releases.push(
          await deps.transport.holdStream(
            agent.instanceHost,
            environment.agent!,
            { followed: query.follow === true },
          ),
        );
        const stream = await openLogStream(
          kas,
          environment.agent!,
          planned.path,
          what,
        );
        await context.opened({
          container: planned.container ?? null,
          tailLines: planned.tailLines,
          follow: query.follow === true,
        });
        await consume({ stream, planned, what });
      },
      { signal: options.signal, streaming: true, located },
    );
  } finally {
    releases.forEach(release => release());
  }
}
