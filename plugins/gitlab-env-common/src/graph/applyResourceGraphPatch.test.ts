import { generateEnvironment } from './testing/generateEnvironment';
import { KubernetesObject } from '../types';
import { resourceId, resourceKeyOf } from '../k8s/resourceId';
import { LiveResourceGraph } from './LiveResourceGraph';
import { applyResourceGraphPatch } from './applyResourceGraphPatch';

describe('applyResourceGraphPatch', () => {
  const objects = generateEnvironment(60);
  const live = () => new LiveResourceGraph(objects);
  const held = (graph: LiveResourceGraph) => ({
    entityRef: 'component:default/shop',
    resources: graph.objects(),
    graph: graph.graph(),
    health: graph.health(),
  });

  it('keeps what the patch does not name as the same objects, and leaves its input alone', () => {
    const graph = live();
    const before = held(graph);
    const frozen = JSON.stringify(before);
    const pod = objects.find(o => o.kind === 'Pod')!;
    const crashing: KubernetesObject = {
      ...pod,
      status: {
        phase: 'Running',
        containerStatuses: [
          { name: 'app', state: { waiting: { reason: 'CrashLoopBackOff' } } },
        ],
      },
    };
    const patch = graph.apply({ type: 'MODIFIED', object: crashing });
    const after = applyResourceGraphPatch(before, patch);

    expect(JSON.stringify(before)).toBe(frozen);
    expect(after.entityRef).toBe(before.entityRef);
    const changed = new Set(patch.nodesChanged.map(node => node.id));
    const beforeById = new Map(before.graph.nodes.map(n => [n.id, n]));
    const untouched = after.graph.nodes.filter(node => !changed.has(node.id));
    expect(untouched.length).toBeGreaterThan(50);
    expect(untouched.every(node => node === beforeById.get(node.id))).toBe(
      true,
    );
    const podId = resourceId(resourceKeyOf(pod)!);
    expect(after.graph.nodes.find(n => n.id === podId)?.health?.status).toBe(
      'Degraded',
    );
    expect(after.health).toEqual(graph.health());
    expect(after.resources).toContain(crashing);
    expect(after.resources).not.toContain(pod);
  });

  it('keeps the held health when the patch carries none', () => {
    const graph = live();
    const before = held(graph);
    const after = applyResourceGraphPatch(before, graph.apply([]));
    expect(after.health).toBe(before.health);
    expect(after.resources).toBe(before.resources);
  });
});
