import {
  EnvironmentTree,
  LiveTreeMessage,
  NarrowedScope,
  TREE_FORMAT_VERSION,
  TreeReader,
  summarizeHealth,
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
    const tree = {
      scope: { namespace: 'search-staging', narrowed: narrowed(3) },
    } as unknown as EnvironmentTree;
    const state = { ...initialLiveState({ mode: 'live' }), tree };
    const reader = new TreeReader();
    const status = (hidden: number): LiveTreeMessage => ({
      type: 'status',
      key,
      upstream: 'live',
      kinds: [],
      narrowed: narrowed(hidden),
    });

    const same = applyLiveMessage(
      state,
      status(3) as LiveEnvironmentMessage,
      reader,
    );
    expect(same.tree).toBe(tree);

    const more = applyLiveMessage(
      state,
      status(4) as LiveEnvironmentMessage,
      reader,
    );
    expect(more.tree!.scope).toEqual({
      namespace: 'search-staging',
      narrowed: narrowed(4),
    });
  });

  it("takes the backend's drift count from a patch that carries one, and keeps it otherwise", () => {
    const reader = new TreeReader();
    const snapshot: LiveTreeMessage = {
      type: 'snapshot',
      key,
      tree: {
        v: TREE_FORMAT_VERSION,
        entityRef: key.entityRef,
        environment: {
          id: '1',
          name: 'production',
          slug: 'production',
          tier: 'production',
          state: 'available',
          driftedCount: 2,
        },
        scope: { namespace: 'shop' },
        health: summarizeHealth([]),
        errors: [],
        fetchedAt: new Date().toISOString(),
        kinds: [],
        namespaces: [],
        nodes: [],
        edges: [],
      },
    };
    const state = applyLiveMessage(
      initialLiveState({ mode: 'live' }),
      snapshot as LiveEnvironmentMessage,
      reader,
    );
    const patch = (driftedCount?: number): LiveEnvironmentMessage => ({
      type: 'patch',
      key,
      patch: {
        v: TREE_FORMAT_VERSION,
        ...(driftedCount !== undefined && { driftedCount }),
      },
      dataAt: new Date().toISOString(),
    });
    const kept = applyLiveMessage(state, patch(), reader);
    expect(kept.tree!.environment.driftedCount).toBe(2);
    const more = applyLiveMessage(kept, patch(3), reader);
    expect(more.tree!.environment.driftedCount).toBe(3);
    const none = applyLiveMessage(more, patch(0), reader);
    expect(none.tree!.environment).not.toHaveProperty('driftedCount');
  });
});
