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

/** @public */
export const gitlabEnvPermissions = [
  gitlabEnvResourcesReadPermission,
  gitlabEnvDiagnosticsReadPermission,
];
