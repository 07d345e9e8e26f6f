import {
  EnvironmentResourcesResponse,
  LiveMessage,
  NarrowedScope,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import {
  LiveEnvironmentMessage,
  applyLiveMessage,
  initialLiveState,
} from './liveEnvironmentState';

const key = {
  entityRef: 'component:default/search-indexer',
  slug: 'load-test',
};
const narrowed = (hidden: number): NarrowedScope => ({
  by: 'label',
  sharedWith: ['staging'],
  hidden,
  hiddenOwners: ['staging'],
});

describe('applyLiveMessage', () => {
  it("takes what narrowing left out from a status, keeping the data's identity when it did not change", () => {
    const resources = {
      scope: { namespace: 'search-staging', narrowed: narrowed(3) },
    } as unknown as EnvironmentResourcesResponse;
    const state = { ...initialLiveState({ mode: 'live' }), resources };
    const status = (hidden: number): LiveMessage => ({
      type: 'status',
      key,
      upstream: 'live',
      kinds: [],
      narrowed: narrowed(hidden),
    });

    const same = applyLiveMessage(state, status(3) as LiveEnvironmentMessage);
    expect(same.resources).toBe(resources);

    const more = applyLiveMessage(state, status(4) as LiveEnvironmentMessage);
    expect(more.resources!.scope).toEqual({
      namespace: 'search-staging',
      narrowed: narrowed(4),
    });
  });

  it("takes the backend's drift count from a patch that carries one, and keeps it otherwise", () => {
    const resources = {
      environment: { name: 'production', slug: 'production', driftedCount: 2 },
      resources: [],
      graph: { nodes: [], edges: [] },
    } as unknown as EnvironmentResourcesResponse;
    const state = { ...initialLiveState({ mode: 'live' }), resources };
    const empty = {
      nodesAdded: [],
      nodesChanged: [],
      nodesRemoved: [],
      edgesAdded: [],
      edgesRemoved: [],
      objectsUpserted: [],
      objectsRemoved: [],
    };
    const patch = (driftedCount?: number): LiveEnvironmentMessage => ({
      type: 'patch',
      key,
      patch: empty,
      dataAt: new Date().toISOString(),
      ...(driftedCount !== undefined && { driftedCount }),
    });
    const kept = applyLiveMessage(state, patch());
    expect(kept.resources!.environment.driftedCount).toBe(2);
    const more = applyLiveMessage(kept, patch(3));
    expect(more.resources!.environment.driftedCount).toBe(3);
    const none = applyLiveMessage(more, patch(0));
    expect(none.resources!.environment).not.toHaveProperty('driftedCount');
  });
});
