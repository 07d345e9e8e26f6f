import {
  KubernetesObject,
  ResourceEdgeType,
  objectsByNodeId,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { graphFrom } from '../__testUtils__/graphFrom';
import { shopResources } from '../__testUtils__/fixtures';
import {
  NO_FILTERS,
  ResourceViewNode,
  buildGraphView,
  podGroupId,
} from './buildGraphView';

const options = { filters: NO_FILTERS, expandedGroups: new Set<string>() };
const shop = shopResources();
const id = (kind: string, name: string) =>
  shop.graph.nodes.find(n => n.kind === kind && n.name === name)!.id;

describe('buildGraphView', () => {
  it('groups more than five pods of one owner, keeping their place and their counts', () => {
    const view = buildGraphView(
      shop.graph,
      objectsByNodeId(shop.resources),
      options,
    );
    const rs = id('ReplicaSet', 'api-7c9b');
    const group = view.nodes.find(n => n.type === 'podGroup')!;
    expect(group).toMatchObject({
      id: podGroupId(rs),
      parentId: rs,
      status: 'Degraded',
    });
    expect(group.type === 'podGroup' && group.counts).toMatchObject({
      Healthy: 6,
      Degraded: 1,
    });
    expect(view.nodes.find(n => n.id === rs)!.childIds).toEqual([group.id]);
    // Three web pods stay single.
    expect(view.nodes.filter(n => n.id.includes('web-5d8f-'))).toHaveLength(3);
  });

  it('shows every pod once their group is expanded', () => {
    const rs = id('ReplicaSet', 'api-7c9b');
    const view = buildGraphView(shop.graph, objectsByNodeId(shop.resources), {
      ...options,
      expandedGroups: new Set([rs]),
    });
    expect(view.nodes.some(n => n.type === 'podGroup')).toBe(false);
    expect(view.nodes.find(n => n.id === rs)!.childIds).toHaveLength(7);
  });

  it('hides uninteresting kinds by default and counts them', () => {
    const hidden = buildGraphView(
      shop.graph,
      objectsByNodeId(shop.resources),
      options,
    );
    expect(hidden.nodes.some(n => n.id === id('ConfigMap', 'api-config'))).toBe(
      false,
    );
    expect(hidden.hiddenCount).toBe(2);
    const all = buildGraphView(shop.graph, objectsByNodeId(shop.resources), {
      ...options,
      filters: { ...NO_FILTERS, showAllKinds: true },
    });
    expect(all.nodes.some(n => n.id === id('ConfigMap', 'api-config'))).toBe(
      true,
    );
  });

  it('redirects cross-links of grouped pods to their group, once', () => {
    const view = buildGraphView(shop.graph, objectsByNodeId(shop.resources), {
      ...options,
      filters: { ...NO_FILTERS, showAllKinds: true },
    });
    const group = podGroupId(id('ReplicaSet', 'api-7c9b'));
    const uses = view.edges.filter(
      e => e.type === 'uses' && e.source === group,
    );
    expect(uses).toEqual([
      expect.objectContaining({
        target: id('ConfigMap', 'api-config'),
        tree: false,
      }),
    ]);
    // Every edge ends on a node of the view.
    const ids = new Set(view.nodes.map(n => n.id));
    for (const edge of view.edges) {
      expect(ids.has(edge.source) && ids.has(edge.target)).toBe(true);
    }
  });

  it('keeps the owners of a match as context, and drops the rest', () => {
    const view = buildGraphView(shop.graph, objectsByNodeId(shop.resources), {
      ...options,
      filters: { ...NO_FILTERS, health: ['Degraded'] },
    });
    const byName = new Map(
      view.nodes
        .filter((n): n is ResourceViewNode => n.type === 'resource')
        .map(n => [n.resource.name, n]),
    );
    expect([...byName.keys()].sort()).toEqual([
      'api',
      'api-7c9b',
      'api-7c9b-3',
    ]);
    expect(byName.get('api-7c9b-3')!.context).toBe(false);
    expect(byName.get('api')!.context).toBe(true);
    expect(view.matchCount).toBe(1);
    expect(view.roots).toEqual([id('Deployment', 'api')]);
  });

  it('moves the children of a hidden kind up to the nearest shown ancestor', () => {
    const make = (kind: string, name: string): KubernetesObject => ({
      apiVersion: 'v1',
      kind,
      metadata: { name, namespace: 'ns' },
    });
    const secret = make('Secret', 'hidden-owner');
    const podA = make('Pod', 'a');
    const graph = graphFrom(
      [secret, podA],
      [[secret, 'owns' as ResourceEdgeType, podA]],
      () => undefined,
    );
    const view = buildGraphView(
      graph,
      objectsByNodeId([secret, podA]),
      options,
    );
    expect(view.nodes.map(n => n.id)).toEqual([graph.nodes[1].id]);
    expect(view.roots).toEqual([graph.nodes[1].id]);
  });
});

describe('buildGraphView routes', () => {
  it('places a Service nothing owns right of the Ingress routing to it', () => {
    const view = buildGraphView(
      shop.graph,
      objectsByNodeId(shop.resources),
      options,
    );
    const ingress = id('Ingress', 'web');
    const service = id('Service', 'web');
    expect(view.roots).not.toContain(service);
    expect(view.nodes.find(n => n.id === ingress)!.childIds).toEqual([service]);
    expect(view.edges).toContainEqual(
      expect.objectContaining({
        source: ingress,
        target: service,
        type: 'routes',
        tree: true,
      }),
    );
  });
});

describe('buildGraphView scales', () => {
  it('places an unowned Deployment right of the HPA scaling it, never in a cycle', () => {
    const make = (kind: string, name: string): KubernetesObject => ({
      apiVersion: 'apps/v1',
      kind,
      metadata: { name, namespace: 'ns' },
    });
    const hpa = make('HorizontalPodAutoscaler', 'web');
    const deployment = make('Deployment', 'web');
    const graph = graphFrom(
      [deployment, hpa],
      [
        [hpa, 'scales', deployment],
        // A nonsensical loop back must not make a cycle.
        [deployment, 'scales', hpa],
      ],
      () => undefined,
    );
    const view = buildGraphView(
      graph,
      objectsByNodeId([deployment, hpa]),
      options,
    );
    const [deploymentId, hpaId] = graph.nodes.map(n => n.id);
    expect(view.roots).toEqual([hpaId]);
    expect(view.nodes.find(n => n.id === hpaId)!.childIds).toEqual([
      deploymentId,
    ]);
  });
});
