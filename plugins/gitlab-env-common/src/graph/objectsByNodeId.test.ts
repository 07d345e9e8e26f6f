import { objectsByNodeId } from './objectsByNodeId';

describe('objectsByNodeId', () => {
  it('keys objects by node id and keeps the duplicate the graph keeps', () => {
    const at = (resourceVersion: string) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'shop', resourceVersion },
    });
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } };
    const byId = objectsByNodeId([at('10'), pod, at('9'), { kind: 'Pod' }]);
    expect([...byId.keys()]).toEqual(['apps/Deployment/shop/web', '/Pod//p']);
    expect(byId.get('apps/Deployment/shop/web')).toEqual(at('10'));
    expect(
      objectsByNodeId([at('9'), at('10')]).get('apps/Deployment/shop/web'),
    ).toEqual(at('10'));
  });
});
