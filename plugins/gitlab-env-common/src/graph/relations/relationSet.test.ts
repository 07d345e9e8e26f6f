import { KubernetesObject } from '../../types';
import { buildResourceGraph } from '../buildResourceGraph';
import { LiveResourceGraph } from '../LiveResourceGraph';
import { RELATIONS, createRelationSet } from '.';
import { PARENT_RANK, RelationSource } from './types';

const ns = 'shop';
const object = (
  apiVersion: string,
  kind: string,
  name: string,
  annotations: Record<string, string> = {},
): KubernetesObject => ({
  apiVersion,
  kind,
  metadata: { name, namespace: ns, uid: `uid-${name}`, annotations },
});

/** An adopter's relation: a ConfigMap annotated with a Deployment's name belongs to it. */
const configOwner: RelationSource = {
  id: 'example.com/config-owner',
  kinds: [{ kind: 'ConfigMap', group: '' }],
  infer: context => {
    const owner = context.object.metadata?.annotations?.['example.com/owner'];
    context.add(
      context.byKindName('Deployment', owner),
      context.origin,
      'owns',
      PARENT_RANK.owns,
    );
  },
};

const deployment = object('apps/v1', 'Deployment', 'web');
const config = object('v1', 'ConfigMap', 'web-config', {
  'example.com/owner': 'web',
});
const edge = '/ConfigMap/shop/web-config';

describe('relation sources', () => {
  it('the built-in relations are registered as sources, each with an id of its own', () => {
    const ids = createRelationSet().ids();
    expect(ids).toEqual(RELATIONS.flatMap(r => r.sources.map(s => s.id)));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("an adopter's source adds edges, and tree parents through ranked owns edges", () => {
    const relations = createRelationSet([configOwner]);
    const graph = buildResourceGraph([deployment, config], { relations });
    expect(graph.edges).toContainEqual({
      source: 'apps/Deployment/shop/web',
      target: edge,
      type: 'owns',
    });
    expect(graph.nodes.find(n => n.id === edge)?.parentId).toBe(
      'apps/Deployment/shop/web',
    );
    // Without it, the built-in relations alone.
    expect(buildResourceGraph([deployment, config]).edges).toEqual([]);
  });

  it("follows what an adopter's source looked up as objects come and go", () => {
    const live = new LiveResourceGraph([config], {
      relations: createRelationSet([configOwner]),
    });
    expect(live.graph().edges).toEqual([]);
    const added = live.apply({ type: 'ADDED', object: deployment });
    expect(added.edgesAdded).toEqual([
      { source: 'apps/Deployment/shop/web', target: edge, type: 'owns' },
    ]);
    const removed = live.apply({ type: 'DELETED', object: deployment });
    expect(removed.edgesRemoved).toHaveLength(1);
    expect(live.node(edge)?.parentId).toBeUndefined();
  });

  it('a source that throws, or adds what is not an edge, leaves the graph sound', () => {
    const unruly: RelationSource = {
      id: 'example.com/unruly',
      infer: context => {
        context.add(context.origin, 123456, 'uses');
        context.add(context.origin, context.origin, 'uses');
        context.add(
          context.origin,
          context.byKindName('Deployment', 'web'),
          'befriends' as any,
        );
        context.add(
          context.byKindName('Deployment', 'web'),
          context.origin,
          'uses',
          Number.NaN,
        );
        throw new Error('adopter bug');
      },
    };
    const graph = buildResourceGraph([deployment, config], {
      relations: createRelationSet([unruly]),
    });
    // The one valid edge added before the throw stays; an unranked tree
    // parent is never claimed.
    expect(graph.edges).toEqual([
      { source: 'apps/Deployment/shop/web', target: edge, type: 'uses' },
    ]);
    expect(graph.roots).toHaveLength(2);
  });

  it('refuses malformed sources and ids another source has, naming them', () => {
    expect(() =>
      createRelationSet([{ ...configOwner }, { ...configOwner }]),
    ).toThrow(/Two relation sources have the id example.com\/config-owner/);
    expect(() =>
      createRelationSet([{ ...configOwner, id: 'owns/owner-references' }]),
    ).toThrow(/built-in relation/);
    expect(() =>
      createRelationSet([{ ...configOwner, kinds: [{ kind: '' }] }]),
    ).toThrow(/each of kinds needs a kind/);
    expect(() =>
      createRelationSet([
        { id: 'x', infer: 'no' } as unknown as RelationSource,
      ]),
    ).toThrow(/x: infer is not a function/);
  });
});
