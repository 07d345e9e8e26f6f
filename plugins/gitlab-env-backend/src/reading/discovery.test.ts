import { HttpResponse, http } from 'msw';
import { kasOnMsw, MSW_KAS } from '../__testUtils__/kasOnMsw';
import { discoverListableKinds } from './discovery';

const { server, kas } = kasOnMsw();

const resource = (name: string, kind: string, verbs: string[]) => ({
  name,
  kind,
  namespaced: true,
  verbs,
});

describe('discoverListableKinds', () => {
  it('marks a kind the API server lists but does not watch (an aggregated API), in both discovery forms', async () => {
    server.use(
      http.get(`${MSW_KAS}/api/v1`, () =>
        HttpResponse.json({
          kind: 'APIResourceList',
          resources: [
            resource('pods', 'Pod', ['get', 'list', 'watch']),
            // Subresources and kinds without list are never listed.
            resource('pods/log', 'Pod', ['get']),
            resource('bindings', 'Binding', ['create']),
          ],
        }),
      ),
      http.get(`${MSW_KAS}/apis`, () =>
        HttpResponse.json({
          kind: 'APIGroupList',
          groups: [
            {
              name: 'packages.example.com',
              preferredVersion: { version: 'v1' },
            },
          ],
        }),
      ),
      http.get(`${MSW_KAS}/apis/packages.example.com/v1`, () =>
        HttpResponse.json({
          kind: 'APIResourceList',
          resources: [resource('manifests', 'Manifest', ['get', 'list'])],
        }),
      ),
    );
    const kinds = await discoverListableKinds(kas);
    expect(kinds.map(k => [k.label, k.watchable])).toEqual([
      ['Pod', undefined],
      ['packages.example.com/Manifest', false],
    ]);

    server.use(
      http.get(`${MSW_KAS}/apis`, () =>
        HttpResponse.json({
          kind: 'APIGroupDiscoveryList',
          items: [
            {
              metadata: { name: 'packages.example.com' },
              versions: [
                {
                  version: 'v1',
                  resources: [
                    {
                      resource: 'manifests',
                      responseKind: { kind: 'Manifest' },
                      scope: 'Namespaced',
                      verbs: ['get', 'list'],
                    },
                  ],
                },
              ],
            },
          ],
        }),
      ),
    );
    const aggregated = await discoverListableKinds(kas);
    expect(aggregated.map(k => [k.label, k.watchable])).toEqual([
      ['Pod', undefined],
      ['packages.example.com/Manifest', false],
    ]);
  });
});
