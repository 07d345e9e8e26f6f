import {
  jsonPatch,
  mergePatch,
  PatchError,
  strategicMergePatch,
} from './patch';

describe('patches', () => {
  const doc = {
    metadata: { name: 'x', annotations: { a: '1' } },
    spec: {
      list: [1, 2],
      containers: [
        { name: 'a', image: 'a:1' },
        { name: 'b', image: 'b:1' },
      ],
    },
  };

  it('merge patch: merges maps, deletes nulls, replaces lists', () => {
    expect(
      mergePatch(doc, {
        metadata: { annotations: { a: null, b: '2' } },
        spec: { list: [3] },
      }),
    ).toEqual({
      metadata: { name: 'x', annotations: { b: '2' } },
      spec: { list: [3], containers: doc.spec.containers },
    });
  });

  it('strategic merge patch: merges named list items by name', () => {
    const patched = strategicMergePatch(doc, {
      spec: {
        containers: [
          { name: 'b', image: 'b:2' },
          { name: 'c', image: 'c:1' },
        ],
      },
    });
    expect(patched.spec.containers).toEqual([
      { name: 'a', image: 'a:1' },
      { name: 'b', image: 'b:2' },
      { name: 'c', image: 'c:1' },
    ]);
  });

  it('strategic merge patch: $patch replace and delete on maps and lists (strategicpatch/patch.go)', () => {
    // What `kubectl rollout undo statefulset` sends: a ControllerRevision's data.
    const sts = {
      spec: {
        replicas: 3,
        template: {
          metadata: { labels: { app: 'db', extra: 'yes' } },
          spec: { containers: [{ name: 'db', image: 'db:2', args: ['-v'] }] },
        },
      },
    };
    const patched = strategicMergePatch(sts, {
      spec: {
        template: {
          $patch: 'replace',
          metadata: { labels: { app: 'db' } },
          spec: { containers: [{ name: 'db', image: 'db:1' }] },
        },
      },
    });
    expect(patched).toEqual({
      spec: {
        replicas: 3,
        template: {
          metadata: { labels: { app: 'db' } },
          spec: { containers: [{ name: 'db', image: 'db:1' }] },
        },
      },
    });
    expect(
      strategicMergePatch(doc, {
        metadata: { annotations: { $patch: 'delete' } },
      }).metadata,
    ).toEqual({ name: 'x' });
    expect(
      strategicMergePatch(doc, {
        spec: {
          containers: [{ $patch: 'replace' }, { name: 'z', image: 'z:1' }],
        },
      }).spec.containers,
    ).toEqual([{ name: 'z', image: 'z:1' }]);
    expect(
      strategicMergePatch(doc, {
        spec: { containers: [{ name: 'a', $patch: 'delete' }] },
      }).spec.containers,
    ).toEqual([{ name: 'b', image: 'b:1' }]);
  });

  it('JSON patch: add, replace, remove, move, copy, test, with ~1 escapes', () => {
    const patched = jsonPatch(doc, [
      {
        op: 'add',
        path: '/metadata/annotations/reconcile.fluxcd.io~1requestedAt',
        value: 'now',
      },
      { op: 'replace', path: '/spec/list/0', value: 9 },
      { op: 'add', path: '/spec/list/-', value: 3 },
      { op: 'remove', path: '/metadata/annotations/a' },
      { op: 'copy', from: '/metadata/name', path: '/metadata/alias' },
      { op: 'move', from: '/metadata/alias', path: '/metadata/other' },
      { op: 'test', path: '/metadata/other', value: 'x' },
    ]);
    expect(patched.metadata).toEqual({
      name: 'x',
      annotations: { 'reconcile.fluxcd.io/requestedAt': 'now' },
      other: 'x',
    });
    expect(patched.spec.list).toEqual([9, 2, 3]);
    expect(doc.metadata.annotations).toEqual({ a: '1' });
  });

  it('JSON patch: fails on missing paths and failed tests', () => {
    expect(() =>
      jsonPatch(doc, [{ op: 'replace', path: '/spec/suspend', value: true }]),
    ).toThrow(PatchError);
    expect(() =>
      jsonPatch(doc, [{ op: 'add', path: '/status/x', value: 1 }]),
    ).toThrow(PatchError);
    expect(() =>
      jsonPatch(doc, [{ op: 'test', path: '/metadata/name', value: 'y' }]),
    ).toThrow('testing value /metadata/name failed');
    expect(() => jsonPatch(doc, { op: 'add' })).toThrow(
      'json patch must be an array of operations',
    );
  });
});
