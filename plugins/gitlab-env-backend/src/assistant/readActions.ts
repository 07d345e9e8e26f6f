import type { ActionsRegistryService } from '@backstage/backend-plugin-api/alpha';
import {
  DEPLOYMENT_TIERS,
  environmentsAnswer,
  recentChangesAnswer,
  TIMELINE_ENTRY_KINDS,
  resourceSummary,
  unhealthyResources,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { GitlabEnvironmentsService } from '../facade';
import {
  environmentResourcesRoute,
  environmentsListRoute,
} from '../http/environmentReads';
import { RequestPipeline, RouteCore } from '../http/pipeline';
import { podLogsSpec, PodLogsDeps, withPodLog } from '../actions/podLogsRoute';
import { HistoryRouterOptions, timelineRoute } from '../history';
import { timelineCursorAfter } from '../history/timeline/TimelineStore';
import { failure } from '../errors';
import { withActionErrors } from './actionErrors';
import { actionCall } from './calls';
import { readLogTail } from './logTail';
import { namedResource } from './namedResource';
import {
  countsOutput,
  environmentInput,
  healthOutput,
  pageInput,
  resourceInput,
} from './schemas';

export interface ReadActionsDeps
  extends PodLogsDeps,
    Pick<HistoryRouterOptions, 'timeline' | 'timelineSettings'> {
  pipeline: RequestPipeline;
  service: GitlabEnvironmentsService;
}

/** The most changes one recent-changes answer lists (fewer when their lines are long). */
const MAX_CHANGES = 60;

/** The most bytes of a log an answer carries (its newest whole lines). */
export const LOG_TAIL_BYTES = 6 * 1024;
/** The most lines asked of the cluster for an answer's tail. */
const LOG_TAIL_LINES = 200;
/** The most bytes read of the cluster's log for a tail (its limitBytes). */
const LOG_READ_BYTES = 256 * 1024;
const LOG_TIMEOUT_MS = 30_000;

const readOnly = { readOnly: true, destructive: false, idempotent: true };

/**
 * The read actions: an entity's environments with health; an environment's
 * unhealthy resources with Argo CD's messages and the likely cause; one
 * resource's summary and events; a pod's log tail. Each runs the HTTP
 * route's core as the caller through the request pipeline (permissions,
 * locator, audit) and answers compactly (the engine's assistant answers):
 * a few KB whatever the environment's size, the rest on request.
 */
export function registerReadActions(
  registry: ActionsRegistryService,
  deps: ReadActionsDeps,
) {
  const { pipeline, service } = deps;
  const environments = environmentsListRoute(service);
  const resources = environmentResourcesRoute(service);
  const timeline = timelineRoute(deps);

  registry.register({
    name: 'list-environments',
    title: 'List the GitLab environments of an entity, with health',
    description:
      "Lists the GitLab environments a catalog entity deploys to through the GitLab agent for Kubernetes, production first: each one's slug (what the other gitlab-env actions take), tier, namespace, agent, Argo CD health with resource counts per status, its last deployment (ref, commit, status, time), how many objects drifted from Flux, and why the portal cannot act on it when it cannot. Start here to answer what runs where and what is unhealthy.",
    attributes: readOnly,
    schema: {
      input: z =>
        z.object({
          entityRef: environmentInput(z).entityRef,
          ...pageInput(z, 50, 25),
        }),
      output: z =>
        z.object({
          entityRef: z.string(),
          project: z.string().describe('The GitLab project, `host/full/path`.'),
          environments: z.array(
            z.object({
              name: z.string(),
              slug: z.string(),
              tier: z.enum(DEPLOYMENT_TIERS),
              state: z.enum(['available', 'stopping', 'stopped']),
              namespace: z.string().optional(),
              agent: z.string().optional(),
              health: healthOutput(z).optional(),
              counts: countsOutput(z).optional(),
              partial: z
                .boolean()
                .optional()
                .describe('The health comes from an incomplete read.'),
              drifted: z.number().optional(),
              lastDeployment: z
                .object({
                  ref: z.string().optional(),
                  sha: z.string().optional(),
                  status: z.string(),
                  finishedAt: z.string().optional(),
                })
                .optional(),
              readOnly: z
                .string()
                .optional()
                .describe('Why nothing of it can be acted on from the portal.'),
              errors: z.array(z.string()).optional(),
            }),
          ),
          total: z.number(),
          more: z
            .number()
            .describe(
              'Environments after the listed ones: ask again with a later offset.',
            ),
          errors: z.array(z.string()).optional(),
        }),
    },
    action: ({ input, credentials }) =>
      withActionErrors(async () => {
        const body = await pipeline.answer(
          environments,
          actionCall('list-environments', credentials, input, {
            query: { withHealth: 'true' },
          }),
        );
        return { output: environmentsAnswer(body, input.limit, input.offset) };
      }),
  });

  registry.register({
    name: 'get-unhealthy-resources',
    title: 'Unhealthy resources of an environment, with likely causes',
    description:
      "What is wrong in one environment: its Argo CD health and counts, then each unhealthy resource named once at the top of its chain (a Deployment, not also its ReplicaSet and Pods), worst first, with Argo CD's health message and the likely cause below it (the worst unhealthy resource under it, its message and latest Warning event, e.g. a Pod in CrashLoopBackOff). Use describe-resource and get-pod-logs on a likely cause to dig further.",
    attributes: readOnly,
    schema: {
      input: z => z.object({ ...environmentInput(z), ...pageInput(z, 30, 15) }),
      output: z => {
        const event = z.object({
          reason: z.string(),
          message: z.string(),
          count: z.number(),
        });
        return z.object({
          environment: z.string(),
          namespace: z.string().optional(),
          health: healthOutput(z),
          counts: countsOutput(z),
          unhealthy: z.array(
            z.object({
              resource: z
                .string()
                .describe('`Kind/name`, as the other actions take it.'),
              status: healthOutput(z),
              message: z.string().optional(),
              likelyCause: z
                .object({
                  resource: z.string(),
                  status: healthOutput(z),
                  message: z.string().optional(),
                  event: event.optional(),
                })
                .optional(),
            }),
          ),
          more: z
            .number()
            .describe(
              'Unhealthy resources after the listed ones: ask again with a later offset.',
            ),
          partial: z
            .array(z.string())
            .optional()
            .describe('Parts of the environment that could not be read.'),
        });
      },
    },
    action: ({ input, credentials }) =>
      withActionErrors(async () => {
        const read = await pipeline.answer(
          resources,
          actionCall('get-unhealthy-resources', credentials, input),
        );
        return {
          output: unhealthyResources(read, input.limit, input.offset),
        };
      }),
  });

  registry.register({
    name: 'describe-resource',
    title: 'Describe one resource of an environment',
    description:
      'One Kubernetes resource of an environment as `kubectl describe` would summarize it: its apiVersion, Argo CD health and message, a line of facts (replicas, ready replicas, phase, restarts, suspended), its conditions, its latest events newest first, what owns it and what it owns, what the portal may do with it (capabilities such as workload.restart, pod.logs) and why it is read-only when it is.',
    attributes: readOnly,
    schema: {
      input: z =>
        z.object({
          ...environmentInput(z),
          resource: resourceInput(z),
          events: z
            .number()
            .int()
            .min(0)
            .max(30)
            .optional()
            .describe(
              'How many of the latest events to include at most (fewer when their messages are long). Default 10.',
            ),
        }),
      output: z =>
        z.object({
          resource: z.string(),
          apiVersion: z.string(),
          status: healthOutput(z).optional(),
          message: z.string().optional(),
          capabilities: z
            .array(z.string())
            .describe('What the portal can do with it, as its kind allows.'),
          readOnly: z
            .string()
            .optional()
            .describe('Why the portal never acts on it, when it does not.'),
          facts: z.record(z.union([z.string(), z.number(), z.boolean()])),
          conditions: z.array(
            z.object({
              type: z.string(),
              status: z.string(),
              reason: z.string().optional(),
              message: z.string().optional(),
            }),
          ),
          events: z.array(
            z.object({
              type: z.string(),
              reason: z.string(),
              message: z.string(),
              count: z.number(),
              lastSeen: z.string().optional(),
            }),
          ),
          owner: z.string().optional(),
          owns: z.array(z.string()),
          moreOwned: z.number(),
          moreEvents: z
            .number()
            .describe('Events about it after the listed ones.'),
        }),
    },
    action: ({ input, credentials }) =>
      withActionErrors(async () => {
        const described: RouteCore<any, any> = {
          ...resources,
          run: async context => {
            const read = await resources.run(context);
            const node = namedResource(
              read.environment,
              read.graph.nodes,
              input.resource,
            );
            context.note({ resource: node.id });
            return resourceSummary(
              node,
              read.graph,
              read.resources,
              read.environment.namespace,
              input.events,
            );
          },
          outcome: () => ({}),
        };
        return {
          output: await pipeline.answer(
            described,
            actionCall('describe-resource', credentials, input),
          ),
        };
      }),
  });

  registry.register({
    name: 'get-pod-logs',
    title: "The end of a pod's log",
    description: `The newest lines of one container's log of a pod in an environment (at most ${
      LOG_TAIL_BYTES / 1024
    } KB of whole lines; \`truncated\` says older lines were left out). Use \`previous\` for the instance that crashed before the current one (a CrashLoopBackOff's cause is usually there). Needs the gitlab-env.logs.read permission.`,
    attributes: readOnly,
    schema: {
      input: z =>
        z.object({
          ...environmentInput(z),
          pod: z
            .string()
            .min(1)
            .max(253)
            .describe(
              "The pod's name (e.g. from a likely cause `Pod/web-6f7d-abcde`, without `Pod/`).",
            ),
          container: z
            .string()
            .max(63)
            .optional()
            .describe('The container; default the one kubectl picks.'),
          namespace: z
            .string()
            .max(63)
            .optional()
            .describe("The pod's namespace when it is not the environment's."),
          previous: z
            .boolean()
            .optional()
            .describe(
              'Read the previous, terminated instance of the container.',
            ),
          tailLines: z
            .number()
            .int()
            .min(1)
            .max(LOG_TAIL_LINES)
            .optional()
            .describe(`How many lines to ask for. Default ${LOG_TAIL_LINES}.`),
        }),
      output: z =>
        z.object({
          pod: z.string(),
          container: z.string().optional(),
          text: z.string().describe('Whole lines, oldest first.'),
          lines: z.number(),
          truncated: z
            .boolean()
            .describe('Older lines were left out to stay small.'),
        }),
    },
    action: ({ input, credentials }) =>
      withActionErrors(async () => {
        const signal = AbortSignal.timeout(LOG_TIMEOUT_MS);
        const core: RouteCore<any, any> = {
          spec: podLogsSpec,
          run: async context => {
            let answer: object = {};
            await withPodLog(
              deps,
              context,
              {
                signal,
                limits: {
                  maxTailLines: LOG_TAIL_LINES,
                  maxBytes: LOG_READ_BYTES,
                },
              },
              async ({ stream, planned }) => {
                const tail = await readLogTail(stream, {
                  keepBytes: LOG_TAIL_BYTES,
                  readBytes: LOG_READ_BYTES,
                });
                answer = {
                  pod: input.pod,
                  container: planned.container,
                  ...tail,
                };
              },
            );
            return answer;
          },
          outcome: () => ({}),
        };
        const call = actionCall('get-pod-logs', credentials, input, {
          query: {
            pod: input.pod,
            ...(input.container && { container: input.container }),
            ...(input.namespace && { namespace: input.namespace }),
            ...(input.previous && { previous: 'true' }),
            tailLines: String(input.tailLines ?? LOG_TAIL_LINES),
          },
        });
        return {
          output: await pipeline.answer(core, { ...call, signal }),
        };
      }),
  });

  registry.register({
    name: 'get-recent-changes',
    title: 'Recent changes of an environment',
    description:
      "What changed in one environment and when, newest first, one line each: `<time> <kind>: <what>` with kinds deployment (GitLab deployment: ref, commit, who, status), rollout (a workload's new revision and its images), flux (a Flux object applied a new revision or reconciled), health (a transition such as `Healthy → Degraded` with its cause), event (a Warning Event) and action (taken through the portal or an assistant: who, what). Read from the plugin's own database (kept for retentionDays), so it also answers for last night, long after Kubernetes forgot its Events. Start here for `what changed before it broke?`; pass `nextCursor` back as `cursor` to read older changes; to go back, rollback-workload takes a rollout's revision (`rolled out revision 4`) and rollback-deployment a deployment's number (`#212`).",
    attributes: readOnly,
    schema: {
      input: z =>
        z.object({
          ...environmentInput(z),
          sinceHours: z
            .number()
            .int()
            .min(1)
            .max(24 * 400)
            .optional()
            .describe(
              'Only changes of the last this many hours. Default: all kept.',
            ),
          kinds: z
            .array(z.enum(TIMELINE_ENTRY_KINDS))
            .optional()
            .describe('Only these kinds of change. Default: every kind.'),
          cursor: z
            .string()
            .max(200)
            .optional()
            .describe(
              "A previous answer's `nextCursor`: the changes older than that answer's.",
            ),
          limit: z
            .number()
            .int()
            .min(1)
            .max(MAX_CHANGES)
            .optional()
            .describe(`How many changes to list at most. Default 30.`),
        }),
      output: z =>
        z.object({
          environment: z.string(),
          changes: z
            .array(z.string())
            .describe(
              'One line each, newest first: `<ISO time> <kind>[ [warning|error]]: <what> — <detail> (<objects>)`.',
            ),
          nextCursor: z
            .string()
            .optional()
            .describe(
              'Older changes are recorded: pass it as `cursor` to read them.',
            ),
          retentionDays: z
            .number()
            .describe('How many days of changes are kept.'),
        }),
    },
    action: ({ input, credentials }) =>
      withActionErrors(async () => {
        const { environment, entityRef } = input;
        const page = await pipeline.answer(
          timeline,
          actionCall(
            'get-recent-changes',
            credentials,
            { entityRef },
            {
              query: {
                environment,
                limit: String(input.limit ?? 30),
                ...(input.kinds?.length && { kinds: input.kinds.join(',') }),
                ...(input.cursor && { cursor: input.cursor }),
                ...(input.sinceHours && {
                  from: String(Date.now() - input.sinceHours * 3_600_000),
                }),
              },
            },
          ),
        );
        // An empty answer would read as "nothing changed".
        if (!deps.timeline)
          throw failure(
            'TIMELINE_UNAVAILABLE',
            'The timeline is off (gitlabEnv.timeline.enabled: false): the portal records no changes, so it cannot say what changed.',
            {
              hint: "Ask the portal's administrators to set gitlabEnv.timeline.enabled: true; GitLab's deployments (list-environments) and Kubernetes' Events of the last hour (describe-resource) still say some of it.",
            },
          );
        return {
          output: recentChangesAnswer(environment, page, timelineCursorAfter),
        };
      }),
  });
}
