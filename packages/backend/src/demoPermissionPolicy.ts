import {
  coreServices,
  createBackendModule,
} from '@backstage/backend-plugin-api';
import { Config } from '@backstage/config';
import {
  AuthorizeResult,
  PolicyDecision,
} from '@backstage/plugin-permission-common';
import {
  PermissionPolicy,
  PolicyQuery,
  PolicyQueryUser,
} from '@backstage/plugin-permission-node';
import { policyExtensionPoint } from '@backstage/plugin-permission-node/alpha';

/** Permissions denied to one user, by permission name. */
interface Denial {
  user: string;
  permissions: ReadonlySet<string>;
}

/**
 * The demo portal's policy: everything is allowed, except the permissions
 * `demoPermissions.deny` lists for a user. Lets the demo (and the browser
 * tests) show what a portal that denies, say, pod deletes looks like,
 * without a second sign-in provider. Adopters write their own policy.
 */
export class DemoPermissionPolicy implements PermissionPolicy {
  constructor(private readonly denials: readonly Denial[]) {}

  async handle(
    request: PolicyQuery,
    user?: PolicyQueryUser,
  ): Promise<PolicyDecision> {
    const userRef = user?.info.userEntityRef;
    const denied = this.denials.some(
      denial =>
        denial.user === userRef &&
        denial.permissions.has(request.permission.name),
    );
    return { result: denied ? AuthorizeResult.DENY : AuthorizeResult.ALLOW };
  }
}

export function readDenials(config: Config): Denial[] {
  return (config.getOptionalConfigArray('demoPermissions.deny') ?? []).map(
    entry => ({
      user: entry.getString('user'),
      permissions: new Set(entry.getStringArray('permissions')),
    }),
  );
}

export const demoPermissionPolicyModule = createBackendModule({
  pluginId: 'permission',
  moduleId: 'demo-policy',
  register(env) {
    env.registerInit({
      deps: { policy: policyExtensionPoint, config: coreServices.rootConfig },
      async init({ policy, config }) {
        policy.setPolicy(new DemoPermissionPolicy(readDenials(config)));
      },
    });
  },
});
