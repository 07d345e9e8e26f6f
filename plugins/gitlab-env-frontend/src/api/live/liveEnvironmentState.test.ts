import {
  EnvironmentTree,
  LiveTreeMessage,
  NarrowedScope,
  TreeReader,
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
});
