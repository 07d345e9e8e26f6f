import {
  actionAppliesTo,
  ActionAutoscaler,
  ActionTarget,
  EnvironmentAction,
  EnvironmentActionOutcome,
  EnvironmentActionRequest,
  EnvironmentActionResponse,
  fluxSourceOf,
  GitlabAgentRef,
  groupOfApiVersion,
  kubectlCommandFor,
  kubectlGetCommand,
  KubernetesObject,
  reconcilesWithSource,
  rolloutUndoPlan,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { collectionPath } from '../validation';
import { isRecord } from '../validation/json';
import { failure, GitlabEnvFailure } from '../errors';
import { KasClient, KasWrite } from '../transport/kasClient';
import { normalizeObject } from '../reading/objects';
import { acceptedBody } from './clusterAnswer';
import { describeTarget, pathOf, readTarget } from './targets';

/** What an action needs besides its request. */
export interface ActionContext {
  kas: KasClient;
  agent: GitlabAgentRef;
  /** The target as the environment's read holds it (checked by objectInEnvironment). */
  object: KubernetesObject;
  /** Every object of the environment: where a scale looks for an HPA. */
  resources: KubernetesObject[];
  /** Throws unless the environment may write this object (see ownedObject): asked before every write. */
  mayWrite: (target: ActionTarget) => Promise<unknown>;
  now: () => Date;
}

/** The response, the API server's status for the audit record, and what the write changed. */
export interface ActionResult {
  response: EnvironmentActionResponse;
  upstreamStatus: number;
  /** The objects written (a reconcile with its source writes two). */
  written: ActionTarget[];
}

export const MAX_REPLICAS = 10_000;

const MERGE_PATCH = 'application/merge-patch+json';
/** What `kubectl rollout restart` sends (kubectl polymorphichelpers/objectrestarter.go). */
const STRATEGIC_MERGE_PATCH = 'application/strategic-merge-patch+json';
const RESTARTED_AT = 'kubectl.kubernetes.io/restartedAt';
const REQUESTED_AT = 'reconcile.fluxcd.io/requestedAt';

/** kubectl formats restartedAt with Go's time.RFC3339: seconds, no fraction. */
function rfc3339(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

async function write(
  context: ActionContext,
  target: ActionTarget,
  what: string,
  request: Omit<KasWrite, 'path' | 'checkWith'> & { subresource?: string },
) {
  const { subresource, ...rest } = request;
  await context.mayWrite(target);
  const response = await context.kas.send({
    ...rest,
    path: pathOf(target, subresource),
    checkWith: kubectlGetCommand(target),
  });
  return {
    body: acceptedBody(response, what, context.agent),
    status: response.status,
  };
}

/**
 * Whether a write changed the object. The API server stores nothing for a
 * write that changes nothing and answers the object with its resourceVersion
 * unchanged, so the answer's version tells it even when the object the
 * action started from is older than a write just made (a resume right after
 * a suspend). Without versions, the state asked for against the one held.
 */
function outcomeOf(
  held: KubernetesObject,
  answer: Record<string, unknown>,
  alreadySo: boolean,
): EnvironmentActionOutcome {
  const heldVersion = held.metadata?.resourceVersion;
  const answerVersion = (answer.metadata as { resourceVersion?: unknown })
    ?.resourceVersion;
  if (heldVersion && typeof answerVersion === 'string')
    return heldVersion === answerVersion ? 'unchanged' : 'changed';
  return alreadySo ? 'unchanged' : 'changed';
}

function asObject(body: Record<string, unknown>, target: ActionTarget) {
  return normalizeObject(body, {
    apiVersion: target.apiVersion,
    kind: target.kind,
  });
}

/** The HorizontalPodAutoscaler of the environment whose scaleTargetRef is the target. */
export function autoscalerOf(
  target: ActionTarget,
  resources: KubernetesObject[],
): ActionAutoscaler | undefined {
  const hpa = resources.find(o => {
    const ref = o.spec?.scaleTargetRef;
    return (
      o.kind === 'HorizontalPodAutoscaler' &&
      groupOfApiVersion(o.apiVersion) === 'autoscaling' &&
      o.metadata?.namespace === target.namespace &&
      ref?.kind === target.kind &&
      ref?.name === target.name &&
      groupOfApiVersion(ref?.apiVersion) ===
        groupOfApiVersion(target.apiVersion)
    );
  });
  if (!hpa?.metadata?.name) return undefined;
  const number = (v: unknown) => (typeof v === 'number' ? v : undefined);
  return {
    name: hpa.metadata.name,
    minReplicas: number(hpa.spec.minReplicas) ?? 1,
    maxReplicas: number(hpa.spec.maxReplicas),
  };
}

function readReplicas(value: unknown): number {
  if (
    typeof value !== 'number' ||
    !Number.isInteger(value) ||
    value < 0 ||
    value > MAX_REPLICAS
  )
    throw failure(
      'INVALID_REQUEST',
      `Scaling needs replicas, a whole number from 0 to ${MAX_REPLICAS}.`,
      { hint: 'Enter the number of replicas wanted.' },
    );
  return value;
}

async function deletePod(
  context: ActionContext,
  target: ActionTarget,
): Promise<ActionResult> {
  const { body, status } = await write(
    context,
    target,
    `delete ${describeTarget(target)}`,
    { method: 'DELETE' },
  );
  return {
    upstreamStatus: status,
    written: [target],
    response: {
      outcome: 'changed',
      message: `Pod ${target.namespace}/${target.name} is being deleted; a controller that owns it creates a replacement.`,
      kubectl: kubectlCommandFor('pod.delete', target),
      object: body.kind === 'Pod' ? asObject(body, target) : undefined,
    },
  };
}

async function restartWorkload(
  context: ActionContext,
  target: ActionTarget,
): Promise<ActionResult> {
  // kubectl refuses too: a paused Deployment would not roll out the change.
  if (target.kind === 'Deployment' && context.object.spec?.paused === true)
    throw failure(
      'OBJECT_CONFLICT',
      `Deployment ${target.namespace}/${target.name} is paused: a restart would not roll out.`,
      {
        hint: `Resume it first: kubectl rollout resume deployment/${target.name} -n ${target.namespace}`,
      },
    );
  const { body, status } = await write(
    context,
    target,
    `restart ${describeTarget(target)}`,
    {
      method: 'PATCH',
      contentType: STRATEGIC_MERGE_PATCH,
      body: {
        spec: {
          template: {
            metadata: {
              annotations: { [RESTARTED_AT]: rfc3339(context.now()) },
            },
          },
        },
      },
    },
  );
  return {
    upstreamStatus: status,
    written: [target],
    response: {
      outcome: 'changed',
      message: `${target.kind} ${target.namespace}/${target.name} is rolling out new pods.`,
      kubectl: kubectlCommandFor('workload.restart', target),
      object: asObject(body, target),
    },
  };
}

async function scaleWorkload(
  context: ActionContext,
  target: ActionTarget,
  replicasAsked: unknown,
): Promise<ActionResult> {
  const replicas = readReplicas(replicasAsked);
  const previous = context.object.spec?.replicas;
  const previousReplicas = typeof previous === 'number' ? previous : undefined;
  const { body, status } = await write(
    context,
    target,
    `scale ${describeTarget(target)}`,
    {
      method: 'PATCH',
      subresource: 'scale',
      contentType: MERGE_PATCH,
      body: { spec: { replicas } },
    },
  );
  const autoscaler = autoscalerOf(target, context.resources);
  const warnings = autoscaler
    ? [
        `The HorizontalPodAutoscaler ${
          autoscaler.name
        } owns the replica count (${autoscaler.minReplicas} to ${
          autoscaler.maxReplicas ?? '?'
        }): it sets its own value back at its next sync.`,
      ]
    : undefined;
  return {
    upstreamStatus: status,
    written: [target],
    response: {
      outcome: outcomeOf(context.object, body, previousReplicas === replicas),
      message: `${target.kind} ${target.namespace}/${
        target.name
      } is scaled to ${replicas} replicas${
        previousReplicas !== undefined ? ` (from ${previousReplicas})` : ''
      }.`,
      kubectl: kubectlCommandFor('workload.scale', target, { replicas }),
      previousReplicas,
      ...(autoscaler ? { autoscaler, warnings } : {}),
    },
  };
}

/** The Flux source to reconcile first, checked: its names come from the cluster. */
function sourceToReconcile(target: ActionTarget, object: KubernetesObject) {
  if (!reconcilesWithSource(target.apiVersion, target.kind))
    throw failure(
      'ACTION_NOT_APPLICABLE',
      `${target.kind} has no source to reconcile with it.`,
      { hint: 'Reconcile without its source.' },
    );
  const source = fluxSourceOf(object);
  if (!source)
    throw failure(
      'ACTION_NOT_APPLICABLE',
      `${describeTarget(target)} names no source Flux can reconcile.`,
      { hint: 'Reconcile without its source.' },
    );
  try {
    return readTarget(source);
  } catch (error) {
    if (!(error instanceof GitlabEnvFailure)) throw error;
    throw failure(
      'INVALID_ENVIRONMENT_SETTING',
      `The source reference of ${describeTarget(target)} is not valid: ${
        error.message
      }`,
    );
  }
}

async function reconcileFlux(
  context: ActionContext,
  target: ActionTarget,
  withSource: boolean,
): Promise<ActionResult> {
  const source = withSource
    ? sourceToReconcile(target, context.object)
    : undefined;
  const requestedAt = context.now().toISOString();
  const annotate = (what: ActionTarget) =>
    write(context, what, `request a reconcile of ${describeTarget(what)}`, {
      method: 'PATCH',
      contentType: MERGE_PATCH,
      body: { metadata: { annotations: { [REQUESTED_AT]: requestedAt } } },
    });
  // The source first, as `flux reconcile --with-source` does: the object
  // then reconciles against the newest artifact.
  if (source) await annotate(source);
  const { body, status } = await annotate(target);
  return {
    upstreamStatus: status,
    written: source ? [source, target] : [target],
    response: {
      outcome: 'changed',
      message: `Flux was asked to reconcile ${target.kind} ${
        target.namespace
      }/${target.name}${
        source ? ` after its ${source.kind} ${source.name}` : ''
      }.`,
      kubectl: kubectlCommandFor('flux.reconcile', target, { source }),
      object: asObject(body, target),
    },
  };
}

async function setFluxSuspend(
  context: ActionContext,
  target: ActionTarget,
  action: 'flux.suspend' | 'flux.resume',
): Promise<ActionResult> {
  const suspend = action === 'flux.suspend';
  const wasSuspended = context.object.spec?.suspend === true;
  const { body, status } = await write(
    context,
    target,
    `${suspend ? 'suspend' : 'resume'} ${describeTarget(target)}`,
    {
      method: 'PATCH',
      contentType: MERGE_PATCH,
      body: { spec: { suspend } },
    },
  );
  return {
    upstreamStatus: status,
    written: [target],
    response: {
      outcome: outcomeOf(context.object, body, wasSuspended === suspend),
      message: suspend
        ? `Flux stops reconciling ${target.kind} ${target.namespace}/${target.name} until it is resumed.`
        : `Flux reconciles ${target.kind} ${target.namespace}/${target.name} again.`,
      kubectl: kubectlCommandFor(action, target),
      object: asObject(body, target),
    },
  };
}

function readRevision(value: unknown): number {
  if (value === undefined) return 0;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw failure(
      'INVALID_REQUEST',
      'A rollback needs toRevision, a whole revision number (0 for the previous one).',
      { hint: 'Pick a revision from the workload’s history.' },
    );
  return value;
}

/** A LabelSelector as the query string kubectl sends (metav1.LabelSelectorAsSelector). */
function selectorText(selector: unknown): string | undefined {
  if (!isRecord(selector)) return undefined;
  const parts: string[] = [];
  if (isRecord(selector.matchLabels))
    for (const [key, value] of Object.entries(selector.matchLabels))
      parts.push(`${key}=${String(value)}`);
  if (Array.isArray(selector.matchExpressions))
    for (const e of selector.matchExpressions) {
      if (!isRecord(e) || typeof e.key !== 'string') return undefined;
      const values = Array.isArray(e.values) ? e.values.join(',') : '';
      if (e.operator === 'In') parts.push(`${e.key} in (${values})`);
      else if (e.operator === 'NotIn') parts.push(`${e.key} notin (${values})`);
      else if (e.operator === 'Exists') parts.push(e.key);
      else if (e.operator === 'DoesNotExist') parts.push(`!${e.key}`);
      else return undefined;
    }
  return parts.length > 0 ? parts.join(',') : undefined;
}

/**
 * The workload and its revisions as the cluster has them now, read as
 * `kubectl rollout undo` reads them: the object, then the ReplicaSets (or
 * ControllerRevisions) its selector matches.
 */
async function currentHistory(context: ActionContext, target: ActionTarget) {
  const workload = await context.kas.get(
    pathOf(target),
    describeTarget(target),
  );
  if (!isRecord(workload))
    throw failure(
      'OBJECT_NOT_FOUND',
      `${describeTarget(target)} no longer exists in the cluster.`,
      { hint: 'Refresh the page.' },
    );
  const object = asObject(workload, target);
  if (!object)
    throw failure(
      'UPSTREAM_MALFORMED',
      `The cluster answered ${describeTarget(
        target,
      )} with an object the backend cannot read.`,
    );
  const selector = selectorText(object.spec?.selector);
  if (!selector)
    throw failure(
      'ACTION_INVALID',
      `${describeTarget(
        target,
      )} has no label selector to find its revisions by.`,
    );
  const kind =
    target.kind === 'Deployment' ? 'ReplicaSet' : 'ControllerRevision';
  const list = await context.kas.get(
    `${collectionPath(
      {
        group: 'apps',
        version: 'v1',
        plural: kind === 'ReplicaSet' ? 'replicasets' : 'controllerrevisions',
      },
      target.namespace,
      `the revisions of ${describeTarget(target)}`,
    )}?labelSelector=${encodeURIComponent(selector)}`,
    `apps/${kind}`,
  );
  const items: unknown[] =
    isRecord(list) && Array.isArray(list.items) ? list.items : [];
  // Items of a built-in list carry no kind: the list's.
  const revisions = items
    .filter(isRecord)
    .map(item => normalizeObject(item, { apiVersion: 'apps/v1', kind }))
    .filter((o): o is KubernetesObject => !!o);
  return { object, revisions };
}

async function rollBackWorkload(
  context: ActionContext,
  target: ActionTarget,
  revisionAsked: unknown,
): Promise<ActionResult> {
  const toRevision = readRevision(revisionAsked);
  const { object, revisions } = await currentHistory(context, target);
  const plan = rolloutUndoPlan(object, revisions, toRevision);
  const kubectl = kubectlCommandFor('workload.rollback', target, {
    toRevision,
  });
  if (plan.outcome === 'refused')
    throw plan.reason === 'paused'
      ? failure(
          'OBJECT_CONFLICT',
          `Cannot roll back ${describeTarget(target)}: ${plan.message}.`,
          {
            hint: `kubectl rollout resume deployment/${target.name} -n ${target.namespace}`,
          },
        )
      : failure(
          'REVISION_NOT_FOUND',
          `Cannot roll back ${describeTarget(target)}: ${plan.message}.`,
          {
            hint: 'Pick a revision the workload’s history lists; it keeps revisionHistoryLimit of them.',
          },
        );
  if (plan.outcome === 'unchanged')
    return {
      upstreamStatus: 200,
      written: [],
      response: {
        outcome: 'unchanged',
        message: `${target.kind} ${target.namespace}/${target.name} already runs revision ${plan.revision}'s template: nothing was changed (kubectl: ${plan.message}).`,
        kubectl,
        object,
      },
    };
  const { body, status } = await write(
    context,
    target,
    `roll back ${describeTarget(target)} to revision ${plan.revision}`,
    { method: 'PATCH', contentType: plan.contentType, body: plan.body },
  );
  return {
    upstreamStatus: status,
    written: [target],
    response: {
      outcome: 'changed',
      message: `${target.kind} ${target.namespace}/${target.name} is rolling back to revision ${plan.revision}: the controller rolls out its pod template as a new revision.`,
      kubectl,
      object: asObject(body, target),
    },
  };
}

/**
 * Runs one action against the cluster through KAS, never retried. The
 * target was checked to be one of the environment's objects.
 */
export function performAction(
  request: Pick<
    EnvironmentActionRequest,
    'replicas' | 'withSource' | 'toRevision'
  > & {
    action: EnvironmentAction;
    target: ActionTarget;
  },
  context: ActionContext,
): Promise<ActionResult> {
  const { action, target } = request;
  if (!actionAppliesTo(action, target))
    throw failure(
      'ACTION_NOT_APPLICABLE',
      `${action} does not apply to ${describeTarget(target)}.`,
      { hint: 'Choose an action the object’s menu offers.' },
    );
  switch (action) {
    case 'pod.delete':
      return deletePod(context, target);
    case 'workload.restart':
      return restartWorkload(context, target);
    case 'workload.scale':
      return scaleWorkload(context, target, request.replicas);
    case 'flux.reconcile':
      return reconcileFlux(context, target, request.withSource === true);
    case 'flux.suspend':
    case 'flux.resume':
      return setFluxSuspend(context, target, action);
    case 'workload.rollback':
      return rollBackWorkload(context, target, request.toRevision);
    default:
      throw failure('INVALID_REQUEST', `Unknown action ${String(action)}.`);
  }
}
