import {
  KubernetesObject,
  LiveResourceGraph,
  ResourceEdgeType,
  ResourceGraph,
  TreeGraph,
  environmentTree,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { graphFrom } from '../__testUtils__/graphFrom';
import { shopResources } from '../__testUtils__/fixtures';
import {
  NO_FILTERS,
  ResourceViewNode,
  SiblingGroupViewNode,
  buildGraphView,
  siblingGroupId,
} from './buildGraphView';
import { GROUP_PAGE } from './kinds';

const options = { filters: NO_FILTERS, expanded: new Map<string, number>() };
const shop = { graph: environmentTree(shopResources()).graph };
const id = (kind: string, name: string) =>
  shop.graph.nodes.find(n => n.kind === kind && n.name === name)!.id;
/** A graph of bare nodes as the tree carries them (no status words). */
const treeOf = (graph: ResourceGraph): TreeGraph => ({
  ...graph,
  nodes: graph.nodes.map(node => ({ ...node, status: [] })),
});
const isGroup = (node: { type: string }): node is SiblingGroupViewNode =>
  node.type === 'siblings';

describe('buildGraphView', () => {
  it('groups more than five pods of one owner, keeping their place and their counts', () => {
    const view = buildGraphView(shop.graph, options);
    const rs = id('ReplicaSet', 'api-7c9b');
    const group = view.nodes.find(isGroup)!;
    expect(group).toMatchObject({
      id: siblingGroupId(rs, 'Pod'),
      parentId: rs,
      kind: 'Pod',
      status: 'Degraded',
      total: 7,
    });
    expect(group.counts).toMatchObject({
      Healthy: 6,
      Degraded: 1,
    });
    expect(view.nodes.find(n => n.id === rs)!.childIds).toEqual([group.id]);
    // Three web pods stay single.
    expect(view.nodes.filter(n => n.id.includes('web-5d8f-'))).toHaveLength(3);
  });

  it('shows every pod once their group is expanded', () => {
    const rs = id('ReplicaSet', 'api-7c9b');
    const view = buildGraphView(shop.graph, {
      ...options,
      expanded: new Map([[siblingGroupId(rs, 'Pod'), GROUP_PAGE]]),
    });
    expect(view.nodes.some(isGroup)).toBe(false);
    expect(view.nodes.find(n => n.id === rs)!.childIds).toHaveLength(7);
  });

  it('hides uninteresting kinds by default and counts them', () => {
    const hidden = buildGraphView(shop.graph, options);
    expect(hidden.nodes.some(n => n.id === id('ConfigMap', 'api-config'))).toBe(
      false,
    );
    expect(hidden.hiddenCount).toBe(2);
    const all = buildGraphView(shop.graph, {
      ...options,
      filters: { ...NO_FILTERS, showAllKinds: true },
    });
    expect(all.nodes.some(n => n.id === id('ConfigMap', 'api-config'))).toBe(
      true,
    );
  });

  it('redirects cross-links of grouped pods to their group, once', () => {
    const view = buildGraphView(shop.graph, {
      ...options,
      filters: { ...NO_FILTERS, showAllKinds: true },
    });
    const group = siblingGroupId(id('ReplicaSet', 'api-7c9b'), 'Pod');
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
    const view = buildGraphView(shop.graph, {
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
    const view = buildGraphView(treeOf(graph), options);
    expect(view.nodes.map(n => n.id)).toEqual([graph.nodes[1].id]);
    expect(view.roots).toEqual([graph.nodes[1].id]);
  });
});

describe('buildGraphView routes', () => {
  it('places a Service nothing owns right of the Ingress routing to it', () => {
    const view = buildGraphView(shop.graph, options);
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
    const view = buildGraphView(treeOf(graph), options);
    const [deploymentId, hpaId] = graph.nodes.map(n => n.id);
    expect(view.roots).toEqual([hpaId]);
    expect(view.nodes.find(n => n.id === hpaId)!.childIds).toEqual([
      deploymentId,
    ]);
  });
});

describe('buildGraphView on a large environment', () => {
  /** Roots of one kind and a Kustomization's children of one kind: hundreds each. */
  function large(apps: number) {
    const objects: KubernetesObject[] = [];
    const entries: Array<{ id: string; v: string }> = [];
    for (let i = 0; i < apps; i++) {
      const name = `app-${String(i).padStart(3, '0')}`;
      objects.push(
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name, namespace: 'shop', uid: `d-${i}` },
          spec: { replicas: 1 },
          status: { readyReplicas: i === 7 ? 0 : 1, replicas: 1 },
        },
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          metadata: {
            name: `${name}-rs`,
            namespace: 'shop',
            uid: `rs-${i}`,
            ownerReferences: [
              { kind: 'Deployment', name, uid: `d-${i}`, controller: true },
            ],
          },
        },
        {
          apiVersion: 'policy/v1',
          kind: 'PodDisruptionBudget',
          metadata: { name, namespace: 'shop', uid: `pdb-${i}` },
        },
      );
      entries.push({ id: `shop_${name}_apps_Deployment`, v: 'v1' });
    }
    objects.push({
      apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
      kind: 'Kustomization',
      metadata: { name: 'apps', namespace: 'flux-system', uid: 'ks' },
      status: { inventory: { entries } },
    });
    const live = new LiveResourceGraph(objects);
    return treeOf(live.graph());
  }

  it('draws siblings of one kind past the threshold as one group, subtrees and all', () => {
    const graph = large(300);
    const view = buildGraphView(graph, options);
    // A Kustomization, its 300 Deployments as a group, 300 PDBs (roots) as a group.
    expect(view.nodes.length).toBeLessThan(10);
    const ks = graph.nodes.find(n => n.kind === 'Kustomization')!;
    const deployments = view.nodes.find(
      n => isGroup(n) && n.kind === 'Deployment',
    ) as SiblingGroupViewNode;
    expect(deployments).toMatchObject({
      parentId: ks.id,
      via: 'manages',
      total: 300,
    });
    expect(deployments.memberIds).toHaveLength(300);
    expect(deployments.status).toBe('Progressing');
    const pdbs = view.nodes.find(
      n => isGroup(n) && n.kind === 'PodDisruptionBudget',
    )!;
    expect(view.roots).toContain(pdbs.id);
    expect(view.edges).toContainEqual(
      expect.objectContaining({
        source: ks.id,
        target: deployments.id,
        type: 'manages',
        tree: true,
      }),
    );
    // What a group hides is drawn as the group: no edge ends elsewhere.
    const ids = new Set(view.nodes.map(n => n.id));
    for (const edge of view.edges)
      expect(ids.has(edge.source) && ids.has(edge.target)).toBe(true);
  });

  it('shows a page of a group per click, the rest staying grouped', () => {
    const graph = large(120);
    const ks = graph.nodes.find(n => n.kind === 'Kustomization')!;
    const group = siblingGroupId(ks.id, 'Deployment');
    const once = buildGraphView(graph, {
      ...options,
      expanded: new Map([[group, GROUP_PAGE]]),
    });
    const rest = once.nodes.find(n => n.id === group) as SiblingGroupViewNode;
    expect(rest.memberIds).toHaveLength(120 - GROUP_PAGE);
    const ksNode = once.nodes.find(n => n.id === ks.id)!;
    // The page shown, in order, then the group of the rest.
    expect(ksNode.childIds).toHaveLength(GROUP_PAGE + 1);
    expect(ksNode.childIds[GROUP_PAGE]).toBe(group);
    // The shown Deployments bring their ReplicaSets.
    expect(
      once.nodes.filter(
        n => n.type === 'resource' && n.resource.kind === 'ReplicaSet',
      ),
    ).toHaveLength(GROUP_PAGE);
    const all = buildGraphView(graph, {
      ...options,
      expanded: new Map([[group, 3 * GROUP_PAGE]]),
    });
    expect(all.nodes.some(n => n.id === group)).toBe(false);
  });

  it('draws a filtered few without groups', () => {
    const view = buildGraphView(large(300), {
      ...options,
      filters: { ...NO_FILTERS, name: 'app-007' },
    });
    expect(view.nodes.some(isGroup)).toBe(false);
    expect(
      view.nodes.filter(n => n.type === 'resource').map(n => n.id),
    ).toContain('apps/Deployment/shop/app-007');
  });
});
