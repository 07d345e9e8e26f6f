import { GitlabEnvError } from './errors';
import { KubernetesObject, ResourceKey } from './kubernetes';

/**
 * The object an action or a log read acts on. It must be one of the objects
 * the environment's resources route returned: the backend refuses any other
 * (another namespace, another environment, an object it did not list)
 * before anything reaches KAS.
 *
 * @public
 */
export interface ActionTarget {
  /** As the object carries it, e.g. `apps/v1`, `v1`, `kustomize.toolkit.fluxcd.io/v1`. */
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
}

/** Every action the plugin can take on an object. @public */
export const ENVIRONMENT_ACTIONS = [
  'pod.delete',
  'workload.restart',
  'workload.scale',
  'flux.reconcile',
  'flux.suspend',
  'flux.resume',
  'workload.rollback',
] as const;

/**
 * - `pod.delete`: delete a Pod (its controller, if any, replaces it).
 * - `workload.restart`: the pod-template annotation patch
 *   `kubectl rollout restart` sends (`kubectl.kubernetes.io/restartedAt`).
 * - `workload.scale`: set `spec.replicas` through the scale subresource.
 * - `flux.reconcile`: set `reconcile.fluxcd.io/requestedAt`; with
 *   `withSource`, on the Kustomization's or HelmRelease's source first.
 * - `flux.suspend` / `flux.resume`: set `spec.suspend` to true / false.
 * - `workload.rollback`: what `kubectl rollout undo --to-revision` sends:
 *   a Deployment's template and annotations from the ReplicaSet of that
 *   revision (JSON patch), a StatefulSet's or DaemonSet's from its
 *   ControllerRevision (strategic merge patch).
 *
 * @public
 */
export type EnvironmentAction = (typeof ENVIRONMENT_ACTIONS)[number];

/**
 * What the allowed route also answers for a Pod: reading its logs. Not an
 * action (it changes nothing), but permission-checked the same way.
 *
 * @public
 */
export type EnvironmentCapability = EnvironmentAction | 'pod.logs';

/**
 * `POST /entity/:namespace/:kind/:name/environments/:slug/actions`
 * (JSON body) runs one action. Never retried by the backend; audited.
 *
 * @public
 */
export interface EnvironmentActionRequest {
  action: EnvironmentAction;
  target: ActionTarget;
  /** Required for `workload.scale`: a whole number from 0 to 10000. */
  replicas?: number;
  /**
   * For `flux.reconcile` of a Kustomization or HelmRelease: request a
   * reconcile of its source first, as `flux reconcile --with-source` does.
   */
  withSource?: boolean;
  /**
   * For `workload.rollback`: the revision to go back to
   * (`deployment.kubernetes.io/revision` or `ControllerRevision.revision`);
   * 0 or absent is the previous one, as kubectl's default.
   */
  toRevision?: number;
}

/**
 * `changed`: the cluster accepted the change. `unchanged`: the cluster
 * accepted it, but the object already was in the asked-for state as the
 * environment's read saw it (scaled to its current replicas, suspended
 * while suspended).
 *
 * @public
 */
export type EnvironmentActionOutcome = 'changed' | 'unchanged';

/**
 * The HorizontalPodAutoscaler that owns a workload's replica count: a
 * scale sets the count only until the autoscaler's next decision.
 *
 * @public
 */
export interface ActionAutoscaler {
  name: string;
  minReplicas?: number;
  maxReplicas?: number;
}

/**
 * The answer of the actions route.
 *
 * @public
 */
export interface EnvironmentActionResponse {
  outcome: EnvironmentActionOutcome;
  /** What the action did, in a sentence for the page. */
  message: string;
  /** The kubectl command(s) doing the same thing (kubectlCommandFor's text). */
  kubectl: string;
  /**
   * The object as the API server returned it after the write (trimmed of
   * managedFields), when it returned one; a deleted Pod as the API server
   * last described it.
   */
  object?: KubernetesObject;
  /** For `workload.scale`: the replicas before the change. */
  previousReplicas?: number;
  /** For `workload.scale`: set when an HPA targets the workload. */
  autoscaler?: ActionAutoscaler;
  /** Things the person should know, e.g. that an autoscaler will override a scale. */
  warnings?: string[];
}

/**
 * `POST /entity/:namespace/:kind/:name/environments/:slug/actions/allowed`
 * (JSON body): what the signed-in user may do with each object, so the
 * page hides or disables the rest. At most 200 targets.
 *
 * @public
 */
export interface ActionsAllowedRequest {
  targets: ActionTarget[];
}

/**
 * One decision. `reason` says why not, written for the page (the
 * permission that denied it, or the cluster RBAC that would refuse it).
 *
 * @public
 */
export interface ActionDecision {
  allowed: boolean;
  reason?: string;
}

/**
 * The answer of the allowed route: for each target, in request order, a
 * decision for each capability that applies to its kind (see
 * actionsForKind); capabilities that do not apply are absent. A target
 * outside the environment gets every decision `allowed: false`.
 * Decisions combine the permission framework (the user) and a
 * SelfSubjectAccessReview through KAS (what the agent may do), the latter
 * cached briefly.
 *
 * @public
 */
export interface ActionsAllowedResponse {
  targets: Array<{
    target: ActionTarget;
    decisions: Partial<Record<EnvironmentCapability, ActionDecision>>;
  }>;
}

/**
 * `GET /entity/:namespace/:kind/:name/environments/:slug/logs` query
 * parameters. The answer is `text/plain; charset=utf-8`, streamed through
 * as the API server sends it (never buffered whole); with `follow`, it stays
 * open until the browser closes it or gitlabEnv.actions.logs.maxFollowSeconds
 * passes. When the backend capped the lines asked for (none asked for, or
 * more than gitlabEnv.actions.logs.maxTailLines), the response carries the
 * header LOG_TAIL_CAPPED_HEADER with the number of lines asked of the
 * cluster.
 *
 * @public
 */
export interface PodLogsQuery {
  pod: string;
  /**
   * The pod's namespace, when it is not the environment's (a pod the Flux
   * inventory names elsewhere); default the environment's namespace.
   */
  namespace?: string;
  /** Any container of the pod: regular, init or ephemeral. Omit for a single-container pod. */
  container?: string;
  tailLines?: number;
  sinceSeconds?: number;
  /** The previous (terminated) instance of the container. */
  previous?: boolean;
  /** Prefix each line with its RFC 3339 time, as the kubelet records it. */
  timestamps?: boolean;
  follow?: boolean;
}

/**
 * The logs route's response header naming the tail the backend applied when
 * it capped the request (`showing the last N lines`).
 *
 * @public
 */
export const LOG_TAIL_CAPPED_HEADER = 'x-gitlab-env-log-tail-capped';

/**
 * What an environment may act on, decided by the backend from what the
 * entity owns (the backend README's "Ownership"), never from what cluster
 * data or GitLab values say about themselves. The engine marks each graph
 * node the environment may not act on with `readOnly` (see readOnlyReason);
 * the backend checks every action and log read against the same rule.
 *
 * @public
 */
export interface EnvironmentActionScope {
  /** The namespace whose objects the environment acts on; absent when it owns none. */
  namespace?: string;
  /** Why the environment's namespace is not its own to act in (contested, the agent's, inferred from cluster data). */
  namespaceRefusal?: GitlabEnvError;
  /** The Flux object the environment's settings name: acted on when it deploys into `namespace`. */
  root?: ResourceKey;
  /** Namespaces of the agent and the cluster's platform (`kube-*` style prefixes allowed): never acted on. */
  platformNamespaces: string[];
  /** `$CI_PROJECT_PATH_SLUG`: an object carrying another project's deploy-board marker is not the environment's. */
  projectPathSlug?: string;
  /** The project's id: an object labelled as another project's GitLab-managed resource is not the environment's. */
  projectId?: string;
  /**
   * Why this entity may act on nothing of the environment (its claim on the
   * project is not verified); its objects still show.
   */
  entityRefusal?: GitlabEnvError;
  /**
   * Projects whose repositories the repository comparison may read: the
   * entity's own (verified) project and those its GitLabDeployment names.
   */
  repositories: string[];
}
