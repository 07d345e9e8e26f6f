import type { ActionsRegistryService } from '@backstage/backend-plugin-api/alpha';
import {
  ActionTarget,
  EnvironmentAction,
  permissionForCapability,
  WorkloadManager,
  workloadManager,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import type { EnvironmentAgent } from '../facade/GitlabEnvironmentsService';
import {
  actOnEnvironment,
  EnvironmentActionDeps,
  EnvironmentActionOutcome,
  EnvironmentActionParams,
  environmentActionRoute,
  record,
} from '../actions/environmentActionRoute';
import { failure } from '../errors';
import { gitlabDeploys } from '../history/workloadHistory';
import {
  auditText,
  entityPathParams,
  RequestPipeline,
  RouteCore,
} from '../http/pipeline';
import { withActionErrors } from './actionErrors';
import { actionCall } from './calls';
import { namedResource, objectNodes, targetOf } from './namedResource';
import { environmentInput, resourceInput, writeOutput, Zod } from './schemas';

export interface WriteActionsDeps extends EnvironmentActionDeps {
  pipeline: RequestPipeline;
}

type WriteParams = Omit<EnvironmentActionParams, 'target'> & {
  resource: string;
};

/**
 * The environment action's core (environmentActionRoute) for a resource
 * named as the answers name it: the same spec (the read permission and the
 * action's own, located, audited as `environment-action`), the name found
 * in the environment's read, then the same write on that object, which
 * must be one the environment shows and owns.
 */
function namedWrite(
  deps: WriteActionsDeps,
  action: EnvironmentAction,
): RouteCore<WriteParams, EnvironmentActionOutcome> {
  const core = environmentActionRoute(deps);
  return {
    spec: {
      body: true,
      entities: 'one',
      locate: 'environment',
      audit: {
        ...core.spec.audit,
        body: body => {
          const fields = record(body);
          return {
            action,
            resource: auditText(fields.resource) ?? null,
            ...(typeof fields.replicas === 'number' && {
              replicas: fields.replicas,
            }),
            ...(fields.withSource === true && { withSource: true }),
            ...(typeof fields.toRevision === 'number' && {
              toRevision: fields.toRevision,
            }),
          };
        },
      },
      params: (raw, body) => {
        const target = entityPathParams(raw);
        const fields = record(body);
        if (typeof fields.resource !== 'string')
          throw failure('INVALID_REQUEST', 'The call names no resource.');
        return {
          ...target,
          slug: target.slug!,
          action,
          resource: fields.resource,
          replicas: fields.replicas as number | undefined,
          withSource: fields.withSource === true,
          // Checked by the action that takes it (workload.rollback).
          ...(fields.toRevision !== undefined && {
            toRevision: fields.toRevision as number,
          }),
        };
      },
      entity: params => params,
      permission: { required: () => [permissionForCapability(action)] },
    },
    // The name is looked up among the objects the write acts on (not in a
    // read of its own, which could be older than the agent's).
    run: async context => {
      let manager: WorkloadManager | undefined;
      const done = await actOnEnvironment(deps, context, agent => {
        const target = targetOf(
          namedResource(
            agent.environment,
            objectNodes(agent.resources),
            context.params.resource,
          ),
        );
        context.note({ object: { ...target } });
        if (action === 'workload.rollback') manager = managerOf(agent, target);
        return target;
      });
      // Who reverts a manual rollback, as the revisions route says it.
      return manager && done.response.outcome === 'changed'
        ? {
            ...done,
            response: {
              ...done.response,
              warnings: [...(done.response.warnings ?? []), manager.warning],
            },
          }
        : done;
    },
    outcome: core.outcome,
  };
}

/** Who reverts a rollback of `target` (Flux, a GitLab pipeline), as workloadHistories decides it. */
function managerOf(
  agent: EnvironmentAgent,
  target: ActionTarget,
): WorkloadManager | undefined {
  const workload = agent.resources.find(
    o =>
      o.kind === target.kind &&
      o.metadata?.name === target.name &&
      o.metadata?.namespace === target.namespace,
  );
  return (
    workload &&
    workloadManager(workload, agent.resources, {
      gitlabDeploys: gitlabDeploys(agent.environment),
    })
  );
}

interface WriteAction {
  name: string;
  action: EnvironmentAction;
  title: string;
  description: string;
  idempotent: boolean;
  /** Inputs beside the entity, environment and resource. */
  extra?: (z: Zod) => Record<string, any>;
}

const WRITES: WriteAction[] = [
  {
    name: 'restart-workload',
    action: 'workload.restart',
    title: 'Restart a workload',
    description:
      'Restarts a Deployment, StatefulSet or DaemonSet of an environment as `kubectl rollout restart` does (its pods are replaced one by one).',
    idempotent: false,
  },
  {
    name: 'scale-workload',
    action: 'workload.scale',
    title: 'Scale a workload',
    description:
      "Sets a Deployment's or StatefulSet's replicas as `kubectl scale` does. Says the replicas before, and warns when an autoscaler will override the count.",
    idempotent: true,
    extra: z => ({
      replicas: z
        .number()
        .int()
        .min(0)
        .max(10_000)
        .describe('The replicas to set; 0 stops every pod.'),
    }),
  },
  {
    name: 'delete-pod',
    action: 'pod.delete',
    title: 'Delete a pod',
    description:
      'Deletes one pod of an environment (`Pod/name`); its controller, if any, makes a new one.',
    idempotent: false,
  },
  {
    name: 'reconcile-flux',
    action: 'flux.reconcile',
    title: 'Reconcile a Flux object',
    description:
      'Asks Flux to reconcile a Kustomization, HelmRelease or source now, as `flux reconcile` does; with `withSource`, its source first.',
    idempotent: false,
    extra: z => ({
      withSource: z
        .boolean()
        .optional()
        .describe(
          'For a Kustomization or HelmRelease: fetch its source first, as `flux reconcile --with-source`.',
        ),
    }),
  },
  {
    name: 'suspend-flux',
    action: 'flux.suspend',
    title: 'Suspend a Flux object',
    description:
      'Suspends a Flux Kustomization, HelmRelease or source (`spec.suspend: true`, as `flux suspend`): Flux stops applying it until it is resumed.',
    idempotent: true,
  },
  {
    name: 'resume-flux',
    action: 'flux.resume',
    title: 'Resume a Flux object',
    description:
      'Resumes a suspended Flux Kustomization, HelmRelease or source (`spec.suspend: false`, as `flux resume`).',
    idempotent: true,
  },
  {
    name: 'rollback-workload',
    action: 'workload.rollback',
    title: 'Roll back a workload to an earlier revision',
    description:
      "Rolls a Deployment, StatefulSet or DaemonSet back to one of its earlier revisions as `kubectl rollout undo --to-revision=N` does: the revision's pod template becomes the workload's (the controller rolls it out as a new revision). `unchanged` when it already runs that template. Take the revision from get-recent-changes' rollouts (`rolled out revision N`); 0 is the one before the current. When Flux or a GitLab pipeline manages the workload, `warnings` says that its next reconcile or deployment reverts the rollback (suspend the Flux object first with suspend-flux to keep it).",
    idempotent: false,
    extra: z => ({
      toRevision: z
        .number()
        .int()
        .min(0)
        .max(2 ** 31)
        .describe(
          'The revision to go back to (`kubectl rollout history` numbers); 0 is the previous one.',
        ),
    }),
  },
];

/**
 * The write actions: restart, scale, delete a pod, Flux reconcile, suspend
 * and resume, roll a workload back, each marked destructive, each the tab's environment action
 * run as the caller through the request pipeline (namedWrite).
 */
export function registerWriteActions(
  registry: ActionsRegistryService,
  deps: WriteActionsDeps,
) {
  for (const write of WRITES) {
    const core = namedWrite(deps, write.action);
    registry.register({
      name: write.name,
      title: write.title,
      description: `${
        write.description
      } Runs as the calling user: refused without the ${
        permissionForCapability(write.action).name
      } permission on the entity, or on an object the environment does not own.`,
      attributes: {
        destructive: true,
        readOnly: false,
        idempotent: write.idempotent,
      },
      schema: {
        input: z =>
          z.object({
            ...environmentInput(z),
            resource: resourceInput(z),
            ...write.extra?.(z),
          }),
        output: writeOutput,
      },
      action: ({ input, credentials }) =>
        withActionErrors(async () => {
          const { entityRef, environment, ...body } = input;
          const { response } = await deps.pipeline.answer(
            core,
            actionCall(
              write.name,
              credentials,
              { entityRef, environment },
              { body },
            ),
          );
          return {
            output: {
              outcome: response.outcome,
              message: response.message,
              kubectl: response.kubectl,
              previousReplicas: response.previousReplicas,
              warnings: response.warnings,
            },
          };
        }),
    });
  }
}
