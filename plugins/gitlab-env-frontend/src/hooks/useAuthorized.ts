import { useApi } from '@backstage/core-plugin-api';
import {
  PermissionApi,
  permissionApiRef,
} from '@backstage/plugin-permission-react';
import useAsync from 'react-use/esm/useAsync';

type AuthorizeRequest = Parameters<PermissionApi['authorize']>[0];

/**
 * Whether the signed-in user may do what the request names, asked once per
 * mounted component. usePermission shares a cached answer between components
 * and pages for a while, so a page could offer what the policy now denies.
 */
export function useAuthorized(request: AuthorizeRequest): {
  allowed: boolean;
  loading: boolean;
  /** The permission check itself failed: not allowed, but not a denial either. */
  error?: Error;
} {
  const permissionApi = useApi(permissionApiRef);
  const resourceRef = 'resourceRef' in request ? request.resourceRef : '';
  const { value, loading, error } = useAsync(async () => {
    const decision = await permissionApi.authorize(request);
    // AuthorizeResult.ALLOW, without depending on permission-common here.
    return String(decision.result) === 'ALLOW';
    // The request is a new object on every render; its name and resource are what it asks.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [permissionApi, request.permission.name, resourceRef]);
  return { allowed: value ?? false, loading, error };
}
