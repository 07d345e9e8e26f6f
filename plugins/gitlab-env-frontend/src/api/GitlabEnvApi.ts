import { createApiRef } from '@backstage/core-plugin-api';
import { CompoundEntityRef } from '@backstage/catalog-model';
import {
  ActionsAllowedRequest,
  ActionsAllowedResponse,
  EnvironmentActionRequest,
  EnvironmentActionResponse,
  PodLogsQuery,
  DiagnosticsResponse,
  CiAccessMatrixResponse,
  DeleteNamespaceResponse,
  EntityEnvironmentsResponse,
  StaleNamespacesResponse,
  StaleNamespacesSoFar,
  EnvironmentDesiredStateResponse,
  EnvironmentObjectResponse,
  EnvironmentResourcesResponse,
  EnvironmentUsageResponse,
  OverviewStreamLine,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';

/**
 * Reads an entity's GitLab environments and the Kubernetes resources
 * deployed to them, from the gitlab-env backend.
 *
 * @public
 */
export interface GitlabEnvApi {
  getEnvironments(
    entity: CompoundEntityRef,
    options?: { signal?: AbortSignal },
  ): Promise<EntityEnvironmentsResponse>;
  getEnvironmentResources(
    entity: CompoundEntityRef,
    environmentSlug: string,
    options?: { signal?: AbortSignal },
  ): Promise<EnvironmentResourcesResponse>;
  /**
   * Desired (the repository's manifests) vs live for an environment: the
   * backend's one route for the comparison.
   */
  getDesiredState(
    entity: CompoundEntityRef,
    environmentSlug: string,
    options?: { signal?: AbortSignal },
  ): Promise<EnvironmentDesiredStateResponse>;
  /**
   * One object of an environment as the backend's live store holds it
   * (Secrets redacted), with its Events and what GitOps says of it: what a
   * drawer shows beyond the tree's node. `id` is the node's id.
   */
  getEnvironmentObject(
    entity: CompoundEntityRef,
    environmentSlug: string,
    id: string,
    options?: { signal?: AbortSignal },
  ): Promise<EnvironmentObjectResponse>;
  /**
   * CPU and memory per pod and workload against requests and limits, and,
   * for one pod or workload (`Kind/name`), its trend. The backend samples
   * once for every viewer: ask again every `intervalSeconds`.
   */
  getEnvironmentUsage(
    entity: CompoundEntityRef,
    environmentSlug: string,
    target?: { pod?: string; workload?: string },
    options?: { signal?: AbortSignal },
  ): Promise<EnvironmentUsageResponse>;
  /**
   * Reads the portal-wide deployment overview, calling `onLine` for each
   * line as it arrives so the page can fill while the backend works.
   */
  streamOverview(
    onLine: (line: OverviewStreamLine) => void,
    options?: { signal?: AbortSignal },
  ): Promise<void>;
  /**
   * Checks every configured GitLab instance and returns what an admin needs
   * to see why it does not work (needs gitlab-env.diagnostics.read).
   */
  getDiagnostics(options?: {
    signal?: AbortSignal;
  }): Promise<DiagnosticsResponse>;
  /** Per environment and agent: the ci_access entry and rule that decide, and the namespace. */
  getCiAccess(
    entity: CompoundEntityRef,
    options?: { branch?: string; signal?: AbortSignal },
  ): Promise<CiAccessMatrixResponse>;
  /** Namespaces the entity's stopped or deleted environments left in the clusters. */
  getStaleNamespaces(
    entity: CompoundEntityRef,
    options?: { signal?: AbortSignal },
  ): Promise<StaleNamespacesResponse>;
  /**
   * Stale namespaces across all agents, biggest first. The backend streams
   * them agent by agent; `onProgress` is called with the list so far (and
   * the agents still being read) as each agent answers.
   */
  getAllStaleNamespaces(options?: {
    signal?: AbortSignal;
    onProgress?: (sofar: StaleNamespacesSoFar) => void;
  }): Promise<StaleNamespacesResponse>;
  /** Deletes a namespace the backend listed as stale for the entity and agent. */
  deleteStaleNamespace(
    entity: CompoundEntityRef,
    agentId: string,
    namespace: string,
  ): Promise<DeleteNamespaceResponse>;
  /**
   * Runs one action (delete a pod, restart, scale, Flux reconcile, suspend,
   * resume) on an object of the environment. Never retried.
   */
  runAction(
    entity: CompoundEntityRef,
    environmentSlug: string,
    request: EnvironmentActionRequest,
  ): Promise<EnvironmentActionResponse>;
  /** What the signed-in user may do with each object, and why not. */
  getAllowedActions(
    entity: CompoundEntityRef,
    environmentSlug: string,
    request: ActionsAllowedRequest,
    options?: { signal?: AbortSignal },
  ): Promise<ActionsAllowedResponse>;
  /**
   * Streams a container's log: `onText` gets each chunk as it arrives (never
   * the whole log at once), until the log ends or the signal aborts.
   */
  streamPodLogs(
    entity: CompoundEntityRef,
    environmentSlug: string,
    query: PodLogsQuery,
    handlers: PodLogsHandlers,
    options?: { signal?: AbortSignal },
  ): Promise<void>;
}

/**
 * What `streamPodLogs` reports while the log streams.
 *
 * @public
 */
export interface PodLogsHandlers {
  /** Once the backend answered; `tailCap` is set when it capped the lines. */
  onOpen?: (info: { tailCap?: number }) => void;
  /** Each chunk of text as it arrives; chunks split lines anywhere. */
  onText: (text: string) => void;
}

/** @public */
export const gitlabEnvApiRef = createApiRef<GitlabEnvApi>({
  id: 'plugin.gitlab-env.api',
});
