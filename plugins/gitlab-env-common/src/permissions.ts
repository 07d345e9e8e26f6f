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

/** @public */
export const gitlabEnvPermissions = [gitlabEnvResourcesReadPermission];
