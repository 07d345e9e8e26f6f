import { conditionsOf } from '../health/conditions';
import { isRecord, statusOf, str } from '../k8s/objects';
import { groupOfApiVersion } from '../k8s/resourceId';
import { appliedRevisionOf } from '../gitops/fluxSource';
import {
  ActionTarget,
  DeploymentRecord,
  EnvironmentAction,
  GitlabDeploymentRef,
  HealthStatus,
  KubernetesObject,
  TimelineEntry,
  TimelineLink,
} from '../types';
import { HealthCause } from './healthCause';
import { templateImages } from './workloadRevisions';

/**
 * One entry of an environment's timeline as the backend records it. `key`
 * is the same for the same fact whichever backend replica (or read, or
 * watch) saw it, so recording it twice stores it once.
 *
 * @public
 */
export interface TimelineRecord
  extends Omit<TimelineEntry, 'id' | 'environment'> {
  key: string;
}

const HEALTH_SEVERITY: Partial<
  Record<HealthStatus, TimelineRecord['severity']>
> = { Degraded: 'error', Missing: 'error', Progressing: 'info' };
const MAX_DETAIL = 1024;
const HOUR_MS = 3_600_000;
const FLUX_APPLIERS = new Set(['Kustomization', 'HelmRelease']);
/** The kinds whose objects may add to a timeline (rollouts, Flux appliers, Events). */
const RECORDED_KINDS = new Set([
  'ReplicaSet',
  'ControllerRevision',
  ...FLUX_APPLIERS,
  'Event',
]);
const FLUX_APPLIER_GROUPS = new Set([
  'kustomize.toolkit.fluxcd.io',
  'helm.toolkit.fluxcd.io',
]);

function clip(text: string | undefined): string | undefined {
  if (!text) return undefined;
  return text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL - 1)}…` : text;
}

function validTime(value: unknown): string | undefined {
  const text = str(value);
  if (!text) return undefined;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

/** The link that opens an object of the environment. @public */
export function objectLink(
  object: Pick<KubernetesObject, 'apiVersion' | 'kind' | 'metadata'>,
): TimelineLink {
  return {
    label: `${object.kind} ${object.metadata?.name}`,
    object: {
      apiVersion: String(object.apiVersion),
      kind: String(object.kind),
      namespace: String(object.metadata?.namespace ?? ''),
      name: String(object.metadata?.name),
    },
  };
}

function ownerOf(object: KubernetesObject) {
  const refs = object.metadata?.ownerReferences;
  return Array.isArray(refs)
    ? refs.find(r => isRecord(r) && r.controller === true)
    : undefined;
}

function imageList(template: unknown): string {
  return Object.entries(templateImages(template))
    .map(([container, image]) => `${container}: ${image}`)
    .join(', ');
}

/**
 * A new ReplicaSet of a Deployment, or a new ControllerRevision of a
 * StatefulSet or DaemonSet: a rollout. An old revision reused by a
 * rollback gets a new number, and so a new entry, timed when it was seen
 * (its object keeps its first creation time).
 */
function rolloutRecord(
  object: KubernetesObject,
  observedAt: string,
  modified: boolean,
): TimelineRecord | undefined {
  const owner = ownerOf(object);
  if (!owner || groupOfApiVersion(object.apiVersion) !== 'apps')
    return undefined;
  const uid = object.metadata?.uid ?? object.metadata?.name;
  const annotations = object.metadata?.annotations ?? {};
  let revision: string | undefined;
  let template: unknown;
  let reused = false;
  if (object.kind === 'ReplicaSet' && owner.kind === 'Deployment') {
    revision = str(annotations['deployment.kubernetes.io/revision']);
    template = object.spec?.template;
    reused = Boolean(
      str(annotations['deployment.kubernetes.io/revision-history']),
    );
  } else if (object.kind === 'ControllerRevision') {
    const value = (object as { revision?: unknown }).revision;
    revision = typeof value === 'number' ? String(value) : undefined;
    const data = (object as { data?: unknown }).data;
    template =
      isRecord(data) && isRecord(data.spec) ? data.spec.template : undefined;
    // kube-controller-manager renumbers an equal older revision on a
    // rollback and marks nothing else: a change to a ControllerRevision
    // (its data is immutable) is that.
    reused = modified;
  }
  if (!revision) return undefined;
  const created = validTime(object.metadata?.creationTimestamp);
  const images = imageList(template);
  const cause = str(annotations['kubernetes.io/change-cause']);
  return {
    key: `rollout:${uid}:${revision}`,
    kind: 'rollout',
    at: reused || !created ? observedAt : created,
    summary: `${owner.kind} ${owner.name} rolled out revision ${revision}${
      reused ? ' (an earlier template again)' : ''
    }`,
    detail: clip(
      [images, cause && `change cause: ${cause}`].filter(Boolean).join('; '),
    ),
    links: [
      {
        label: `${owner.kind} ${owner.name}`,
        object: {
          apiVersion: String(owner.apiVersion ?? 'apps/v1'),
          kind: String(owner.kind),
          namespace: String(object.metadata?.namespace ?? ''),
          name: String(owner.name),
        },
      },
      objectLink(object),
    ],
  };
}

/** A Flux applier's revisions (its status.history, else lastAppliedRevision) and Ready transitions. */
function fluxRecords(
  object: KubernetesObject,
  observedAt: string,
): TimelineRecord[] {
  if (
    !FLUX_APPLIERS.has(String(object.kind)) ||
    !FLUX_APPLIER_GROUPS.has(groupOfApiVersion(object.apiVersion))
  )
    return [];
  const uid = object.metadata?.uid ?? object.metadata?.name;
  const name = `${object.kind} ${object.metadata?.name}`;
  const link = objectLink(object);
  const records: TimelineRecord[] = [];
  const status = statusOf(object);
  const ready = conditionsOf(object).find(c => c.type === 'Ready');
  const history = Array.isArray(status.history) ? status.history : [];
  const seen = new Set<string>();
  for (const snapshot of history.slice(0, 20)) {
    if (!isRecord(snapshot)) continue;
    const revision =
      (isRecord(snapshot.metadata) && str(snapshot.metadata.revision)) ||
      str(snapshot.chartVersion);
    const at =
      validTime(snapshot.firstReconciled) ?? validTime(snapshot.firstDeployed);
    if (!revision || !at || seen.has(revision)) continue;
    seen.add(revision);
    const outcome =
      str(snapshot.lastReconciledStatus) ?? str(snapshot.status) ?? '';
    records.push({
      key: `flux:${uid}:revision:${revision}`,
      kind: 'flux',
      at,
      summary: `${name} applied ${revision}`,
      detail: outcome ? `last outcome: ${outcome}` : undefined,
      severity: /fail/i.test(outcome) ? 'error' : undefined,
      links: [link],
    });
  }
  const applied = appliedRevisionOf(object);
  if (applied && !seen.has(applied))
    records.push({
      key: `flux:${uid}:revision:${applied}`,
      kind: 'flux',
      at:
        (ready?.status === 'True' && validTime(ready.lastTransitionTime)) ||
        observedAt,
      summary: `${name} applied ${applied}`,
      links: [link],
    });
  if (ready?.lastTransitionTime) {
    const at = validTime(ready.lastTransitionTime);
    if (at)
      records.push({
        key: `flux:${uid}:ready:${at}:${ready.status}:${ready.reason ?? ''}`,
        kind: 'flux',
        at,
        summary: `${name} reconciled: Ready=${ready.status}${
          ready.reason ? ` (${ready.reason})` : ''
        }`,
        detail: clip(ready.message),
        severity: ready.status === 'False' ? 'error' : undefined,
        links: [link],
      });
  }
  const handled = validTime(status.lastHandledReconcileAt);
  if (handled)
    records.push({
      key: `flux:${uid}:requested:${status.lastHandledReconcileAt}`,
      kind: 'flux',
      at: handled,
      summary: `${name}: a requested reconcile was handled`,
      links: [link],
    });
  return records;
}

/** A Warning Event, once per object and hour however often it repeats. */
function warningRecord(object: KubernetesObject): TimelineRecord | undefined {
  if (object.kind !== 'Event' || groupOfApiVersion(object.apiVersion) !== '')
    return undefined;
  const event = object as Record<string, any>;
  if (event.type !== 'Warning') return undefined;
  const at =
    validTime(event.lastTimestamp) ??
    validTime(event.series?.lastObservedTime) ??
    validTime(event.eventTime) ??
    validTime(event.firstTimestamp) ??
    validTime(object.metadata?.creationTimestamp);
  if (!at) return undefined;
  const involved = isRecord(event.involvedObject) ? event.involvedObject : {};
  const uid = object.metadata?.uid ?? object.metadata?.name;
  const count =
    typeof event.count === 'number' && event.count > 1
      ? event.count
      : undefined;
  return {
    key: `event:${uid}:${Math.floor(Date.parse(at) / HOUR_MS)}`,
    kind: 'event',
    at,
    summary: `${str(event.reason) ?? 'Warning'} on ${
      str(involved.kind) ?? 'object'
    } ${str(involved.name) ?? ''}${count ? ` (×${count})` : ''}`.trim(),
    detail: clip(str(event.message)),
    severity: 'warning',
    links:
      str(involved.kind) && str(involved.name)
        ? [
            {
              label: `${involved.kind} ${involved.name}`,
              object: {
                apiVersion: str(involved.apiVersion) ?? 'v1',
                kind: String(involved.kind),
                namespace:
                  str(involved.namespace) ??
                  String(object.metadata?.namespace ?? ''),
                name: String(involved.name),
              },
            },
          ]
        : [],
  };
}

/**
 * What one object of an environment adds to its timeline, whether it came
 * in a read or a watch event: a rollout (a new ReplicaSet or
 * ControllerRevision), a Flux applier's revisions and Ready transitions, a
 * Warning Event. `observedAt` times what the object itself does not (a
 * revision a rollback reused keeps its first creation time).
 *
 * @public
 */
export function timelineRecordsOf(
  object: KubernetesObject,
  observedAt: string,
  options: {
    /** It came as a watch's MODIFIED event: an existing object changed. */
    modified?: boolean;
  } = {},
): TimelineRecord[] {
  // Most objects are of none of these kinds: nothing to look at.
  if (!RECORDED_KINDS.has(object.kind as string)) return [];
  const records: TimelineRecord[] = [];
  const rollout =
    object.kind === 'ReplicaSet' || object.kind === 'ControllerRevision'
      ? rolloutRecord(object, observedAt, options.modified === true)
      : undefined;
  if (rollout) records.push(rollout);
  records.push(...fluxRecords(object, observedAt));
  const warning = warningRecord(object);
  if (warning) records.push(warning);
  return records;
}

/**
 * An environment's health changed. The key names the change and the
 * object (at its resourceVersion) it is blamed on, so replicas watching
 * the same change record it once.
 *
 * @public
 */
export function healthTransitionRecord(options: {
  from?: HealthStatus;
  to: HealthStatus;
  cause?: HealthCause;
  at: string;
  /** The read was incomplete: the status may be better than the whole's. */
  partial?: boolean;
}): TimelineRecord {
  const { from, to, cause, at } = options;
  const by = cause
    ? `${cause.node.id}@${cause.node.resourceVersion ?? ''}`
    : `${Math.floor(Date.parse(at) / 60_000)}`;
  const severity = HEALTH_SEVERITY[to];
  return {
    key: `health:${from ?? ''}>${to}:${by}`,
    kind: 'health',
    at,
    summary: `${from ?? 'first seen'} → ${to}`,
    detail: clip(
      [
        cause && `${to === 'Healthy' ? 'as' : 'caused by'} ${cause.text}`,
        options.partial && 'from an incomplete read',
      ]
        .filter(Boolean)
        .join('; '),
    ),
    health: { from, to },
    ...(severity && { severity }),
    links: cause
      ? [
          {
            label: `${cause.node.kind} ${cause.node.name}`,
            object: {
              apiVersion: cause.node.group
                ? `${cause.node.group}/${cause.node.version}`
                : cause.node.version,
              kind: cause.node.kind,
              namespace: cause.node.namespace,
              name: cause.node.name,
            },
          },
        ]
      : [],
  };
}

const FINISHED = new Set(['success', 'failed', 'canceled', 'skipped']);
const DEPLOYMENT_VERBS: Record<string, string> = {
  success: 'deployed',
  running: 'started deploying',
  canceled: 'was canceled deploying',
  skipped: 'skipped deploying',
};

/**
 * A GitLab deployment that finished (success, failed, canceled) or started
 * (running): one entry each.
 *
 * @public
 */
export function deploymentTimelineRecord(
  deployment: DeploymentRecord | GitlabDeploymentRef,
): TimelineRecord | undefined {
  const status = deployment.status.toLowerCase();
  const full = 'id' in deployment ? deployment : undefined;
  let at: string | undefined;
  if (FINISHED.has(status))
    at = validTime(deployment.finishedAt) ?? validTime(full?.createdAt);
  else if (status === 'running') at = validTime(full?.createdAt);
  if (!at) return undefined;
  const what = deployment.ref
    ? `${deployment.ref}${
        deployment.sha ? ` (${deployment.sha.slice(0, 8)})` : ''
      }`
    : deployment.sha?.slice(0, 8) ?? '';
  const verb = DEPLOYMENT_VERBS[status] ?? 'failed to deploy';
  const links: TimelineLink[] = [];
  if (deployment.webUrl)
    links.push({
      label: `Deployment #${deployment.iid}`,
      url: deployment.webUrl,
    });
  if (full?.job?.webUrl)
    links.push({
      label: `Job ${full.job.name ?? full.job.id}`,
      url: full.job.webUrl,
    });
  if (full?.job?.pipeline?.webUrl)
    links.push({
      label: `Pipeline #${full.job.pipeline.iid ?? full.job.pipeline.id}`,
      url: full.job.pipeline.webUrl,
    });
  return {
    key: `deployment:${deployment.iid}:${status}`,
    kind: 'deployment',
    at,
    summary: `Deployment #${deployment.iid} ${verb} ${what}`.trim(),
    detail: full?.triggerer ? `by ${full.triggerer.name}` : undefined,
    severity: status === 'failed' ? 'error' : undefined,
    links,
  };
}

/**
 * An action taken through the portal. `id` is unique per action (one
 * backend replica takes it).
 *
 * @public
 */
export function actionTimelineRecord(options: {
  id: string;
  action: EnvironmentAction | 'gitlab.rollback';
  target?: ActionTarget;
  /** Who, as Backstage names the user. */
  actor?: string;
  summary: string;
  at: string;
  links?: TimelineLink[];
}): TimelineRecord {
  return {
    key: `action:${options.id}`,
    kind: 'action',
    at: options.at,
    summary: options.summary,
    detail: options.actor ? `by ${options.actor}` : undefined,
    links: [
      ...(options.target
        ? [
            {
              label: `${options.target.kind} ${options.target.name}`,
              object: options.target,
            },
          ]
        : []),
      ...(options.links ?? []),
    ],
  };
}
