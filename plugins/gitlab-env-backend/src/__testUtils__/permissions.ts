import { mockServices } from '@backstage/backend-test-utils';
import { AuthorizeResult } from '@backstage/plugin-permission-common';

/**
 * The permissions mock answering DENY for what `denied` holds and ALLOW for
 * the rest; `keyOf` names a request (default its permission's name; with
 * the resource, `<permission>|<entityRef>`).
 */
export function permissionsDenying(
  denied: Set<string>,
  keyOf: (request: {
    permission: { name: string };
    resourceRef?: string;
  }) => string = r => r.permission.name,
) {
  const permissions = mockServices.permissions.mock();
  permissions.authorize.mockImplementation(
    async requests =>
      requests.map(r => ({
        result: denied.has(keyOf(r as any))
          ? AuthorizeResult.DENY
          : AuthorizeResult.ALLOW,
      })) as any,
  );
  return permissions;
}
