import { KubernetesObject } from '../../types';
import { buildResourceGraph } from '../buildResourceGraph';
import { LiveResourceGraph } from '../LiveResourceGraph';

const object = (
  apiVersion: string,
  kind: string,
  name: string,
  labels: Record<string, string> = {},
  namespace = 'shop',
  extra: object = {},
): KubernetesObject => ({
  apiVersion,
  kind,
  metadata: {
    name,
    namespace,
    uid: `uid-${namespace}-${kind}-${name}`,
    labels,
  },
  ...extra,
});

const application = object(
  'app.k8s.io/v1beta1',
  'Application',
  'shop',
  {},
  'shop',
  {
    spec: {
      selector: {
        matchLabels: { 'app.kubernetes.io/name': 'shop' },
        matchExpressions: [
          { key: 'tier', operator: 'In', values: ['web', 'api'] },
        ],
      },
      componentKinds: [
        { group: 'apps', kind: 'Deployment' },
        { group: 'core', kind: 'Service' },
      ],
    },
  },
);
const shopLabels = { 'app.kubernetes.io/name': 'shop', tier: 'web' };
const OBJECTS = [
  application,
  object('apps/v1', 'Deployment', 'web', shopLabels),
  object('v1', 'Service', 'web', shopLabels),
  // Not selected: another kind, another tier, another namespace.
  object('v1', 'ConfigMap', 'web-config', shopLabels),
  object('apps/v1', 'Deployment', 'worker', {
    'app.kubernetes.io/name': 'shop',
    tier: 'batch',
  }),
  object('apps/v1', 'Deployment', 'web', shopLabels, 'other'),
];

const edges = (objects: KubernetesObject[]) =>
  buildResourceGraph(objects)
    .edges.filter(e => e.source.includes('Application'))
    .map(e => `${e.source} -${e.type}-> ${e.target}`)
    .sort();

describe('app.k8s.io Application groups its components', () => {
  it('groups the objects of its namespace its selector and componentKinds select, as their root', () => {
    expect(edges(OBJECTS)).toEqual([
      'app.k8s.io/Application/shop/shop -manages-> /Service/shop/web',
      'app.k8s.io/Application/shop/shop -manages-> apps/Deployment/shop/web',
    ]);
    const graph = buildResourceGraph(OBJECTS);
    const web = graph.nodes.find(
      n =>
        n.kind === 'Deployment' && n.name === 'web' && n.namespace === 'shop',
    );
    const app = graph.nodes.find(n => n.kind === 'Application');
    expect(web?.parentId).toBe(app?.id);
  });

  it('groups what its controller lists in status.components, whatever the selector', () => {
    const listed = {
      ...application,
      spec: { selector: { matchLabels: { team: 'a' } }, componentKinds: [] },
      status: {
        components: [
          {
            group: 'apps',
            kind: 'Deployment',
            name: 'worker',
            status: 'Ready',
          },
          { kind: 'Service', name: 'absent' },
        ],
      },
    };
    expect(edges([listed, ...OBJECTS.slice(1)])).toEqual([
      'app.k8s.io/Application/shop/shop -manages-> apps/Deployment/shop/worker',
    ]);
  });

  it('is kept by the live graph as components come, change labels and go', () => {
    const live = new LiveResourceGraph([application]);
    live.apply(
      OBJECTS.slice(1).map(o => ({ type: 'ADDED' as const, object: o })),
    );
    const liveEdges = () =>
      live
        .graph()
        .edges.filter(e => e.source.includes('Application'))
        .map(e => `${e.source} -${e.type}-> ${e.target}`)
        .sort();
    expect(liveEdges()).toEqual(edges(OBJECTS));
    // The worker moves to the web tier: now selected.
    const worker = OBJECTS[4];
    const moved = {
      ...worker,
      metadata: { ...worker.metadata, labels: shopLabels },
    };
    live.apply({ type: 'MODIFIED', object: moved });
    expect(liveEdges()).toEqual(
      edges([...OBJECTS.slice(0, 4), moved, OBJECTS[5]]),
    );
    live.apply({ type: 'DELETED', object: OBJECTS[2] });
    expect(liveEdges()).toEqual(
      edges([OBJECTS[0], OBJECTS[1], OBJECTS[3], moved, OBJECTS[5]]),
    );
  });
});
