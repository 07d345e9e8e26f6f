import { ConfigReader } from '@backstage/config';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import { PolicyQueryUser } from '@backstage/plugin-permission-node';
import { DemoPermissionPolicy, readDenials } from './demoPermissionPolicy';

const config = new ConfigReader({
  demoPermissions: {
    deny: [
      {
        user: 'user:development/guest',
        permissions: ['gitlab-env.pods.delete'],
      },
    ],
  },
});

function decide(permission: string, userEntityRef?: string) {
  return new DemoPermissionPolicy(readDenials(config)).handle(
    {
      permission: {
        type: 'basic',
        name: permission,
        attributes: {},
      },
    },
    userEntityRef
      ? ({
          info: { userEntityRef, ownershipEntityRefs: [] },
        } as unknown as PolicyQueryUser)
      : undefined,
  );
}

describe('DemoPermissionPolicy', () => {
  it('denies a listed permission to the listed user only', async () => {
    await expect(
      decide('gitlab-env.pods.delete', 'user:development/guest'),
    ).resolves.toEqual({ result: AuthorizeResult.DENY });
    await expect(
      decide('gitlab-env.pods.delete', 'user:default/alice'),
    ).resolves.toEqual({ result: AuthorizeResult.ALLOW });
    await expect(
      decide('gitlab-env.workloads.restart', 'user:development/guest'),
    ).resolves.toEqual({ result: AuthorizeResult.ALLOW });
  });

  it('allows everything when nothing is denied', async () => {
    await expect(
      new DemoPermissionPolicy(readDenials(new ConfigReader({}))).handle({
        permission: { type: 'basic', name: 'anything', attributes: {} },
      }),
    ).resolves.toEqual({ result: AuthorizeResult.ALLOW });
  });
});
