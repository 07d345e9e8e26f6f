import { createPermission } from '@backstage/plugin-permission-common';

/**
 * Read an entity's GitLab environments and the Kubernetes resources deployed
 * to them. A resource permission on the catalog entity, so policies can
 * decide per entity (owner, system, ...).
 *
 * @public
 */
export const gitlabEnvResourcesReadPermission = createPermission({
  name: 'gitlab-env.resources.read',
  attributes: { action: 'read' },
  resourceType: 'catalog-entity',
});

/**
 * Delete a stale namespace an entity's environments left behind in a
 * cluster (through KAS, with the backend's token). A resource permission on
 * the catalog entity the namespace is attributed to; audited.
 *
 * @public
 */
export const gitlabEnvNamespaceDeletePermission = createPermission({
  name: 'gitlab-env.namespaces.delete',
  attributes: { action: 'delete' },
  resourceType: 'catalog-entity',
});

/**
 * See the portal-wide list of stale namespaces across all agents (the
 * overview's clean-up list), for platform teams.
 *
 * @public
 */
export const gitlabEnvStaleNamespacesReadPermission = createPermission({
  name: 'gitlab-env.namespaces.stale.read',
  attributes: { action: 'read' },
});

/**
 * See the diagnostics of every configured GitLab instance: version, KAS URL,
 * the token's scopes and expiry, agents seen and recent failures. Meant for
 * the portal's administrators; a basic permission, not tied to an entity.
 *
 * @public
 */
export const gitlabEnvDiagnosticsReadPermission = createPermission({
  name: 'gitlab-env.diagnostics.read',
  attributes: { action: 'read' },
});

/**
 * Read the logs of the pods of an entity's environments (streamed through
 * the backend). A resource permission on the catalog entity; audited.
 *
 * @public
 */
export const gitlabEnvLogsReadPermission = createPermission({
  name: 'gitlab-env.logs.read',
  attributes: { action: 'read' },
  resourceType: 'catalog-entity',
});

/**
 * Delete a Pod of an entity's environments. A resource permission on the
 * catalog entity; audited.
 *
 * @public
 */
export const gitlabEnvPodDeletePermission = createPermission({
  name: 'gitlab-env.pods.delete',
  attributes: { action: 'delete' },
  resourceType: 'catalog-entity',
});

/**
 * Rollout-restart a Deployment, StatefulSet or DaemonSet of an entity's
 * environments. A resource permission on the catalog entity; audited.
 *
 * @public
 */
export const gitlabEnvWorkloadRestartPermission = createPermission({
  name: 'gitlab-env.workloads.restart',
  attributes: { action: 'update' },
  resourceType: 'catalog-entity',
});

/**
 * Scale a Deployment, StatefulSet or ReplicaSet of an entity's
 * environments. A resource permission on the catalog entity; audited.
 *
 * @public
 */
export const gitlabEnvWorkloadScalePermission = createPermission({
  name: 'gitlab-env.workloads.scale',
  attributes: { action: 'update' },
  resourceType: 'catalog-entity',
});

/**
 * Request a Flux reconcile of a Kustomization, HelmRelease or source of an
 * entity's environments. A resource permission on the catalog entity;
 * audited.
 *
 * @public
 */
export const gitlabEnvFluxReconcilePermission = createPermission({
  name: 'gitlab-env.flux.reconcile',
  attributes: { action: 'update' },
  resourceType: 'catalog-entity',
});

/**
 * Suspend or resume a Flux Kustomization, HelmRelease or source of an
 * entity's environments. A resource permission on the catalog entity;
 * audited.
 *
 * @public
 */
export const gitlabEnvFluxSuspendPermission = createPermission({
  name: 'gitlab-env.flux.suspend',
  attributes: { action: 'update' },
  resourceType: 'catalog-entity',
});

/**
 * Roll a GitLab environment back by re-running the deploy job of an earlier
 * successful deployment (GitLab's "Rollback environment"), with the
 * instance's rollback token. A resource permission on the catalog entity;
 * audited.
 *
 * @public
 */
export const gitlabEnvDeploymentRollbackPermission = createPermission({
  name: 'gitlab-env.deployments.rollback',
  attributes: { action: 'update' },
  resourceType: 'catalog-entity',
});

/**
 * Undo a Deployment, StatefulSet or DaemonSet of an entity's environments
 * to an earlier revision (`kubectl rollout undo --to-revision`). A
 * resource permission on the catalog entity; audited.
 *
 * @public
 */
export const gitlabEnvWorkloadRollbackPermission = createPermission({
  name: 'gitlab-env.workloads.rollback',
  attributes: { action: 'update' },
  resourceType: 'catalog-entity',
});

/** @public */
export const gitlabEnvPermissions = [
  gitlabEnvResourcesReadPermission,
  gitlabEnvDiagnosticsReadPermission,
  gitlabEnvNamespaceDeletePermission,
  gitlabEnvStaleNamespacesReadPermission,
  gitlabEnvLogsReadPermission,
  gitlabEnvPodDeletePermission,
  gitlabEnvWorkloadRestartPermission,
  gitlabEnvWorkloadScalePermission,
  gitlabEnvFluxReconcilePermission,
  gitlabEnvFluxSuspendPermission,
  gitlabEnvDeploymentRollbackPermission,
  gitlabEnvWorkloadRollbackPermission,
];
