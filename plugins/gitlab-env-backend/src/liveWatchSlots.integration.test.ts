import {
  LiveKindState,
  LiveMessage,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { RunningSimulator } from '@gitlab-env/gitlab-simulator';
import {
  component,
  startTestSimulator,
} from './__testUtils__/backendOnSimulator';
import { plannerOnSimulator } from './__testUtils__/plannerOnSimulator';
import { waitFor } from './__testUtils__/waitFor';
import { LiveEnvironment } from './assembling/LiveEnvironment';

const storefront = component('storefront', {
  'gitlab.com/project-slug': 'acme/shop/storefront',
});
const NAMESPACE = 'storefront-staging';

/**
 * How many objects the simulator's nonprod cluster holds for a kind as
 * the status names it (`apps/Deployment`, `Pod`, `Event in flux-system`):
 * the whole scope its informer serves, not only what the environment shows.
 */
function objectsOf(simulator: RunningSimulator, kind: LiveKindState) {
  const [label, namespace = NAMESPACE] = kind.resource.split(' in ');
  const [group, name] = label.includes('/') ? label.split('/') : ['', label];
  const { store } = simulator.cluster('nonprod');
  return store.list(store.registry.forKind(group, name)!, namespace).length;
}

const modeOf = (environment: LiveEnvironment, resource: string) =>
  environment.status().kinds.find(k => k.resource === resource)?.mode;

/** Whether every kind with objects is watched and every polled kind says it is empty. */
function slotsOnKindsWithObjects(
  simulator: RunningSimulator,
  environment: LiveEnvironment,
) {
  return environment
    .status()
    .kinds.every(k =>
      objectsOf(simulator, k) > 0
        ? k.mode === 'watch'
        : k.mode === 'watch' || /^No objects yet/.test(k.reason ?? ''),
    );
}

function ingress(name: string) {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name, namespace: NAMESPACE, uid: `uid-${name}` },
    spec: { rules: [{ host: `${name}.example.com` }] },
  };
}

jest.setTimeout(20_000);

describe('the watch slots of an agent go to the kinds with objects', () => {
  let simulator: RunningSimulator;

  beforeEach(async () => {
    simulator = await startTestSimulator();
  });
  afterEach(async () => {
    await simulator.close();
  });

  async function follow(live: Record<string, number>) {
    const { service, planner } = plannerOnSimulator(simulator, live);
    const target = await service.locateLive(storefront, 'staging');
    const { environment } = await planner.follow(target);
    const statuses: LiveKindState[][] = [];
    const patches: Array<Extract<LiveMessage, { type: 'patch' }>['patch']> = [];
    environment.subscribe(e => {
      if (e.type === 'status') statuses.push(environment.status().kinds);
      if (e.type === 'patch') patches.push(e.patch);
    });
    return { planner, environment, statuses, patches };
  }

  it('moves the slots of empty kinds to polled kinds with objects, within the cap, and says why the rest are polled', async () => {
    const cap = 20;
    const { planner, environment } = await follow({
      maxWatchesPerAgent: cap,
      pollIntervalSeconds: 1,
    });
    try {
      const start = environment.status().kinds;
      // More kinds than slots; after the first lists, kinds with objects
      // (EndpointSlices, Certificates, the Flux Events) wait for a slot.
      expect(start.length).toBeGreaterThan(cap);
      const waiting = start.filter(
        k => k.mode === 'poll' && objectsOf(simulator, k) > 0,
      );
      expect(waiting.length).toBeGreaterThan(0);
      expect(waiting[0].reason).toMatch(/maxWatchesPerAgent/);

      await waitFor(
        () => slotsOnKindsWithObjects(simulator, environment),
        10_000,
      );
      expect(modeOf(environment, 'Event in flux-system')).toBe('watch');
      expect(
        environment
          .status()
          .kinds.find(k => k.resource === 'policy/PodDisruptionBudget'),
      ).toEqual({
        resource: 'policy/PodDisruptionBudget',
        mode: 'poll',
        reason:
          'No objects yet; watched once some appear: policy/PodDisruptionBudget is listed again every 1 s.',
      });
      // Slots changed hands: never more watches than the cap.
      await waitFor(() => simulator.cluster('nonprod').openWatches() === cap);
    } finally {
      await planner.close();
    }
  });

  it('sees an object appear in an empty polled kind within a poll, and then watches that kind', async () => {
    const cap = 20;
    const { planner, environment, patches } = await follow({
      maxWatchesPerAgent: cap,
      pollIntervalSeconds: 0.5,
    });
    try {
      await waitFor(
        () => slotsOnKindsWithObjects(simulator, environment),
        10_000,
      );
      expect(modeOf(environment, 'policy/PodDisruptionBudget')).toBe('poll');
      simulator.cluster('nonprod').store.upsert({
        apiVersion: 'policy/v1',
        kind: 'PodDisruptionBudget',
        metadata: { name: 'web', namespace: NAMESPACE, uid: 'uid-pdb-web' },
        spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } },
      });
      await waitFor(() =>
        patches.some(p =>
          p.objectsUpserted.some(o => o.kind === 'PodDisruptionBudget'),
        ),
      );
      // It takes the slot of a kind that has stayed empty.
      await waitFor(
        () => modeOf(environment, 'policy/PodDisruptionBudget') === 'watch',
      );
      await waitFor(() => simulator.cluster('nonprod').openWatches() === cap);
      expect(slotsOnKindsWithObjects(simulator, environment)).toBe(true);
    } finally {
      await planner.close();
    }
  });

  it('keeps the watch of a kind that empties and fills again within a poll, while kinds with objects wait', async () => {
    // Five slots: Pods, Deployments, ReplicaSets, then Services and the
    // one Ingress once StatefulSets and DaemonSets (empty) give theirs up.
    const { planner, environment, statuses } = await follow({
      maxWatchesPerAgent: 5,
      pollIntervalSeconds: 2,
    });
    const { store } = simulator.cluster('nonprod');
    const ingresses = store.registry.forKind('networking.k8s.io', 'Ingress')!;
    try {
      await waitFor(
        () => modeOf(environment, 'networking.k8s.io/Ingress') === 'watch',
        10_000,
      );
      // Kinds with objects are still polled: each wants a slot.
      expect(
        environment
          .status()
          .kinds.filter(k => k.mode === 'poll' && objectsOf(simulator, k) > 0)
          .map(k => k.resource),
      ).toContain('ConfigMap');
      const [existing] = store.list(ingresses, NAMESPACE);
      statuses.length = 0;
      for (let round = 0; round < 3; round++) {
        store.remove(ingresses, NAMESPACE, existing.metadata.name);
        await new Promise(resolve => setTimeout(resolve, 300));
        store.upsert(ingress(existing.metadata.name));
        await new Promise(resolve => setTimeout(resolve, 300));
      }
      // Longer than a poll since the last time it was empty.
      await new Promise(resolve => setTimeout(resolve, 2500));
      expect(modeOf(environment, 'networking.k8s.io/Ingress')).toBe('watch');
      expect(
        statuses.flat().filter(k => k.resource === 'networking.k8s.io/Ingress'),
      ).not.toContainEqual(expect.objectContaining({ mode: 'poll' }));
      expect(simulator.cluster('nonprod').openWatches()).toBe(5);
    } finally {
      await planner.close();
    }
  });
});
