import fc from 'fast-check';
import {
  applyResourceGraphPatch,
  buildGitOpsView,
  environmentDrift,
  EnvironmentResourcesResponse,
  gitlabMarkers,
  KubernetesObject,
  PatchableResources,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { testPlanner } from '../__testUtils__/testPlanner';
import type { GitlabEnvClusterSource } from '../reading/clusterSources';
import type { ListableKind } from '../reading/discovery';
import type { LiveEnvironmentEvent } from './LiveEnvironment';
import type { LiveTarget } from './liveTarget';

// The read and the live stream are one pipeline (LivePlanner, informers,
// LiveEnvironment): after any changes, the page a viewer keeps from live
// patches is the answer a fresh read of the same cluster gives — objects,
// graph, health, errors, narrowing, the drift count and the GitOps view.

function kind(
  group: string,
  version: string,
  plural: string,
  name: string,
): ListableKind {
  return {
    group,
    version,
    plural,
    kind: name,
    label: group ? `${group}/${name}` : name,
    basePath: group ? `/apis/${group}/${version}` : `/api/${version}`,
  };
}

const KINDS = [
  kind('', 'v1', 'pods', 'Pod'),
  kind('', 'v1', 'configmaps', 'ConfigMap'),
  kind('', 'v1', 'events', 'Event'),
  kind('apps', 'v1', 'deployments', 'Deployment'),
  kind('apps', 'v1', 'replicasets', 'ReplicaSet'),
  kind('kustomize.toolkit.fluxcd.io', 'v1', 'kustomizations', 'Kustomization'),
];

const fluxLabels = {
  'kustomize.toolkit.fluxcd.io/name': 'shop',
  'kustomize.toolkit.fluxcd.io/namespace': 'flux-system',
};
const theirs = {
  'app.gitlab.com/app': 'acme-other',
  'app.gitlab.com/env': 'x',
};

function object(
  apiVersion: string,
  kindName: string,
  namespace: string,
  name: string,
  rest: Record<string, unknown> = {},
  meta: Record<string, unknown> = {},
): KubernetesObject {
  return {
    apiVersion,
    kind: kindName,
    metadata: { name, namespace, uid: `${kindName}-${name}`, ...meta },
    ...rest,
  } as KubernetesObject;
}

const event = (name: string, namespace: string, involved: object) =>
  object(
    'v1',
    'Event',
    namespace,
    name,
    {
      involvedObject: involved,
      type: 'Warning',
      reason: 'BackOff',
      message: `about ${JSON.stringify(involved)}`,
      lastTimestamp: '2026-11-21T09:00:00Z',
    },
    {},
  );

/** Every shape the answer reads, each in variants a change moves between. */
const POOL: KubernetesObject[][] = [
  [true, false].map(ready =>
    object(
      'kustomize.toolkit.fluxcd.io/v1',
      'Kustomization',
      'flux-system',
      'shop',
      {
        status: {
          conditions: [
            { type: 'Ready', status: ready ? 'True' : 'False', reason: 'R' },
          ],
          inventory: {
            entries: [
              { id: 'shop_web_apps_Deployment', v: 'v1' },
              { id: 'shop_cfg__ConfigMap', v: 'v1' },
            ],
          },
        },
      },
    ),
  ),
  [
    [],
    [
      {
        manager: 'kubectl-edit',
        operation: 'Update',
        fieldsV1: { 'f:spec': { 'f:replicas': {} } },
      },
    ],
  ].map(managedFields =>
    object(
      'apps/v1',
      'Deployment',
      'shop',
      'web',
      { spec: { replicas: 2, selector: { matchLabels: { app: 'web' } } } },
      { labels: fluxLabels, managedFields },
    ),
  ),
  [
    object(
      'apps/v1',
      'ReplicaSet',
      'shop',
      'web-1',
      { spec: { selector: { matchLabels: { app: 'web' } } } },
      {
        labels: { app: 'web' },
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            name: 'web',
            uid: 'Deployment-web',
            controller: true,
          },
        ],
      },
    ),
  ],
  ['Running', 'Failed'].map(phase =>
    object(
      'v1',
      'Pod',
      'shop',
      'web-1-a',
      { status: { phase } },
      {
        labels: { app: 'web' },
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'ReplicaSet',
            name: 'web-1',
            uid: 'ReplicaSet-web-1',
            controller: true,
          },
        ],
      },
    ),
  ),
  [
    object(
      'v1',
      'ConfigMap',
      'shop',
      'cfg',
      { data: { a: '1' } },
      { labels: fluxLabels },
    ),
  ],
  [object('v1', 'ConfigMap', 'shop', 'stray', { data: {} })],
  // Another environment's, in the namespace they share: narrowed away.
  [
    object(
      'v1',
      'ConfigMap',
      'shop',
      'theirs',
      { data: {} },
      { annotations: theirs },
    ),
  ],
  [
    event('pod.1', 'shop', {
      kind: 'Pod',
      namespace: 'shop',
      name: 'web-1-a',
      uid: 'Pod-web-1-a',
    }),
  ],
  [
    event('theirs.1', 'shop', {
      kind: 'ConfigMap',
      namespace: 'shop',
      name: 'theirs',
      uid: 'ConfigMap-theirs',
    }),
  ],
  // The Flux object's Events live in flux-system; others there are not its.
  [
    event('shop.1', 'flux-system', {
      kind: 'Kustomization',
      namespace: 'flux-system',
      name: 'shop',
    }),
  ],
  [
    event('infra.1', 'flux-system', {
      kind: 'Kustomization',
      namespace: 'flux-system',
      name: 'infra',
    }),
  ],
];

const keyOf = (o: KubernetesObject) =>
  `${o.kind}/${o.metadata?.namespace}/${o.metadata?.name}`;

/** The cluster as a backend module serves it: what the test changes. */
class Cluster {
  private readonly objects = new Map<string, KubernetesObject>();
  private version = 0;

  put(o: KubernetesObject) {
    this.version += 1;
    this.objects.set(keyOf(o), {
      ...o,
      metadata: { ...o.metadata, resourceVersion: String(this.version) },
    });
  }

  delete(o: KubernetesObject) {
    this.objects.delete(keyOf(o));
  }

  readonly source: GitlabEnvClusterSource = {
    serves: () => true,
    kinds: async () => KINDS,
    list: async (_target, k, namespace) =>
      [...this.objects.values()].filter(
        o =>
          o.kind === k.kind &&
          (namespace === undefined || o.metadata?.namespace === namespace),
      ),
    get: async (_target, ref) =>
      this.objects.get(`${ref.kind}/${ref.namespace}/${ref.name}`),
  };
}

function targetOn(cluster: Cluster): LiveTarget {
  const agent = { id: '7', name: 'agent' };
  return {
    entityRef: 'component:default/shop',
    environment: {
      id: '1',
      name: 'production',
      slug: 'production',
      tier: 'production',
      state: 'available',
      namespace: 'shop',
      fluxResourcePath:
        'kustomize.toolkit.fluxcd.io/v1/namespaces/flux-system/kustomizations/shop',
      agent,
      namespaceSource: {
        source: 'gitlabDeployment',
        narrowing: {
          by: 'inventory',
          sharedWith: ['environment x'],
          flux: {
            kind: 'Kustomization',
            namespace: 'flux-system',
            name: 'shop',
          },
          markers: gitlabMarkers({
            projectPath: 'acme/shop',
            environmentSlug: 'production',
          }),
        },
      },
    },
    readKey: 'read|shop',
    agentKey: 'gitlab.example.com|7',
    host: 'gitlab.example.com',
    kinds: KINDS,
    allKinds: KINDS,
    access: {
      via: 'module',
      source: cluster.source,
      target: { host: 'gitlab.example.com', agent },
    },
    judging: { healthRules: undefined, expectedForbiddenKinds: [] },
  };
}

/** Everything a page shows, without the orders that follow arrival. */
function canonical(
  answer: PatchableResources & Partial<EnvironmentResourcesResponse>,
  drifted: number | undefined,
) {
  const sorted = <T>(items: T[]) =>
    [...items].map(i => JSON.stringify(i)).sort();
  const drift = environmentDrift(answer.resources, answer.graph);
  const view = buildGitOpsView(answer.resources, answer.graph, ['shop'], drift);
  return {
    resources: sorted(
      answer.resources.map(o => `${keyOf(o)}@${o.metadata?.resourceVersion}`),
    ),
    nodes: sorted(
      answer.graph.nodes.map(n => ({ ...n, childIds: [...n.childIds].sort() })),
    ),
    edges: sorted(answer.graph.edges),
    health: answer.health,
    errors: answer.errors,
    narrowed: answer.scope?.narrowed,
    drifted: drifted ?? 0,
    drift: Object.keys(drift).sort(),
    unmanaged: [...view.unmanagedIds].sort(),
  };
}

const change = fc.record({
  slot: fc.nat({ max: POOL.length - 1 }),
  variant: fc.nat({ max: 1 }),
  remove: fc.boolean(),
});

const freshness = { ttlMs: 0, transientMs: 0 };

/**
 * Follows the environment live from `initial`, applies each batch of
 * changes to the cluster and, after each, compares the page kept from live
 * patches with a fresh read.
 */
async function agreeAfter(
  initial: number[],
  batches: Array<Array<{ slot: number; variant: number; remove: boolean }>>,
) {
  const cluster = new Cluster();
  for (const slot of initial) cluster.put(POOL[slot][0]);
  const target = targetOn(cluster);
  const live = testPlanner();
  const { environment, release } = await live.follow(target);
  let page: EnvironmentResourcesResponse = environment.snapshot();
  let drifted = page.environment.driftedCount;
  const unsubscribe = environment.subscribe((e: LiveEnvironmentEvent) => {
    if (e.type === 'reset') {
      page = environment.snapshot();
      drifted = page.environment.driftedCount;
    } else if (e.type === 'patch') {
      page = { ...page, ...applyResourceGraphPatch(page, e.patch) };
      if (e.driftedCount !== undefined) drifted = e.driftedCount;
    } else
      page = {
        ...page,
        scope: {
          ...page.scope,
          narrowed: environment.status().narrowed,
        },
      };
  });
  try {
    for (const batch of batches) {
      for (const { slot, variant, remove } of batch) {
        const o = POOL[slot][variant % POOL[slot].length];
        if (remove) cluster.delete(o);
        else cluster.put(o);
      }
      // A read with no TTL lists every kind again: the live
      // environment passes on what changed, as patches.
      await live.read(target, freshness);
      const fresh = testPlanner();
      try {
        const read = await fresh.read(target, freshness);
        expect(canonical(page, drifted)).toEqual(
          canonical(read, read.environment.driftedCount),
        );
      } finally {
        await fresh.close();
      }
    }
  } finally {
    unsubscribe();
    release();
    await live.close();
  }
}

describe('a read and the live stream give the same answer', () => {
  it('after any changes, the page kept from live patches is what a fresh read answers', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.nat({ max: POOL.length - 1 })),
        fc.array(fc.array(change, { minLength: 1, maxLength: 4 }), {
          maxLength: 6,
        }),
        agreeAfter,
      ),
      { numRuns: 25 },
    );
  });
});
