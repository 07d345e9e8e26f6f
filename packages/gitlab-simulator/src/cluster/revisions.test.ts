import { KubeObject } from '../scenario/types';
import { Controllers } from './controllers';
import { expandCluster } from './expand';
import { deepClone } from './objects';
import { strategicMergePatch } from './patch';
import { PREVIOUS_IMAGES, REVISION, REVISION_HISTORY } from './revisions';
import { ClusterStore } from './store';

const now = new Date('2026-11-22T12:00:00Z');

function workload(
  kind: 'Deployment' | 'StatefulSet' | 'DaemonSet',
  name: string,
  extra: Record<string, any> = {},
): KubeObject {
  const labels = { app: name };
  return {
    apiVersion: 'apps/v1',
    kind,
    metadata: {
      name,
      namespace: 'shop',
      annotations: {
        [PREVIOUS_IMAGES]: `[{${name}: "${name}:1.0"}, {${name}: "${name}:1.1"}]`,
        'kubernetes.io/change-cause': 'release 1.2',
      },
    },
    spec: {
      ...(kind === 'DaemonSet' ? {} : { replicas: 2 }),
      ...(kind === 'StatefulSet' ? { serviceName: name } : {}),
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: { containers: [{ name, image: `${name}:1.2` }] },
      },
      ...extra,
    },
  };
}

function cluster(manifests: KubeObject[]) {
  const store = new ClusterStore(
    expandCluster(manifests, { cluster: 'history', now, events: false }),
  );
  const controllers = new Controllers(store, 'history');
  const resource = (kind: string) =>
    store.registry.forKind(kind === 'Pod' ? '' : 'apps', kind)!;
  const list = (kind: string) => store.list(resource(kind), 'shop');
  const get = (kind: string, name: string) =>
    store.get(resource(kind), 'shop', name)!;
  /** An API write of the object as `change` returns it, then the controllers' reaction. */
  const write = (
    kind: string,
    name: string,
    change: (o: KubeObject) => KubeObject,
  ) => {
    const before = get(kind, name);
    const after = change(deepClone(before));
    if (JSON.stringify(after.spec) !== JSON.stringify(before.spec))
      after.metadata.generation = (before.metadata.generation ?? 1) + 1;
    controllers.afterPatch(before, store.upsert(after));
  };
  const images = (kind: string, owner: string) =>
    list(kind)
      .filter(o => o.metadata.ownerReferences?.[0]?.name === owner)
      .map(
        o =>
          o.spec.containers?.[0]?.image ??
          o.spec.template.spec.containers[0].image,
      )
      .sort();
  return { store, list, get, write, images };
}

describe('rollout history (deployment_util.go, controller_history.go)', () => {
  it("expands a Deployment's previous-images into ReplicaSets of earlier revisions, with the Deployment's annotations", () => {
    const c = cluster([workload('Deployment', 'web')]);
    const sets = c
      .list('ReplicaSet')
      .sort(
        (a, b) =>
          Number(a.metadata.annotations![REVISION]) -
          Number(b.metadata.annotations![REVISION]),
      );
    expect(
      sets.map(rs => [
        rs.metadata.annotations![REVISION],
        rs.spec.template.spec.containers[0].image,
        rs.spec.replicas,
        rs.metadata.annotations!['kubernetes.io/change-cause'],
      ]),
    ).toEqual([
      ['1', 'web:1.0', 0, undefined],
      ['2', 'web:1.1', 0, undefined],
      ['3', 'web:1.2', 2, 'release 1.2'],
    ]);
    expect(c.get('Deployment', 'web').metadata.annotations![REVISION]).toBe(
      '3',
    );
  });

  it('rolls a Deployment back by reusing the old ReplicaSet: next revision, the former one in revision-history', () => {
    const c = cluster([workload('Deployment', 'web')]);
    const first = c
      .list('ReplicaSet')
      .find(rs => rs.metadata.annotations![REVISION] === '1')!;
    const count = c.list('ReplicaSet').length;
    // What `kubectl rollout undo --to-revision=1` sends (kubectl polymorphichelpers/rollback.go).
    c.write('Deployment', 'web', d => {
      const template = deepClone(first.spec.template);
      delete template.metadata.labels['pod-template-hash'];
      return { ...d, spec: { ...d.spec, template } };
    });
    expect(c.list('ReplicaSet')).toHaveLength(count);
    const reused = c.get('ReplicaSet', first.metadata.name);
    expect(reused.metadata.annotations).toMatchObject({
      [REVISION]: '4',
      [REVISION_HISTORY]: '1',
    });
    expect(reused.spec.replicas).toBe(2);
    expect(c.get('Deployment', 'web').metadata.annotations![REVISION]).toBe(
      '4',
    );
    expect(c.images('Pod', first.metadata.name)).toEqual([
      'web:1.0',
      'web:1.0',
    ]);
  });

  it('keeps revisionHistoryLimit old ReplicaSets once a rollout completes (cleanupDeployment)', () => {
    const c = cluster([
      workload('Deployment', 'web', { revisionHistoryLimit: 1 }),
    ]);
    // The expander keeps the limit too: the current ReplicaSet and one old one.
    expect(c.list('ReplicaSet')).toHaveLength(2);
    c.write('Deployment', 'web', d => {
      d.spec.template.spec.containers[0].image = 'web:1.3';
      return d;
    });
    expect(
      c
        .list('ReplicaSet')
        .map(rs => rs.spec.template.spec.containers[0].image)
        .sort(),
    ).toEqual(['web:1.2', 'web:1.3']);
  });

  it('gives a StatefulSet a ControllerRevision per template; undo bumps the equal revision and truncates to the limit', () => {
    const c = cluster([
      workload('StatefulSet', 'db', { revisionHistoryLimit: 2 }),
    ]);
    const revisions = () =>
      c
        .list('ControllerRevision')
        .sort((a, b) => a.revision - b.revision)
        .map(r => [r.revision, r.data.spec.template.spec.containers[0].image]);
    expect(revisions()).toEqual([
      [1, 'db:1.0'],
      [2, 'db:1.1'],
      [3, 'db:1.2'],
    ]);
    const current = c.list('ControllerRevision').find(r => r.revision === 3)!
      .metadata.name;
    expect(
      c.list('Pod').map(p => p.metadata.labels!['controller-revision-hash']),
    ).toEqual([current, current]);
    expect(c.get('ControllerRevision', current).metadata.labels).toMatchObject({
      app: 'db',
      'controller.kubernetes.io/hash': current.slice(3),
    });
    // `kubectl rollout undo statefulset/db --to-revision=1`: a strategic merge patch with the revision's data.
    const first = c.list('ControllerRevision').find(r => r.revision === 1)!;
    c.write('StatefulSet', 'db', s => strategicMergePatch(s, first.data));
    expect(revisions()).toEqual([
      [2, 'db:1.1'],
      [3, 'db:1.2'],
      [4, 'db:1.0'],
    ]);
    expect(c.images('Pod', 'db')).toEqual(['db:1.0', 'db:1.0']);
    expect(c.get('StatefulSet', 'db').status).toMatchObject({
      updateRevision: first.metadata.name,
      currentRevision: first.metadata.name,
    });
  });

  it('gives a DaemonSet ControllerRevisions labelled with the hash its pods carry, change cause included', () => {
    const c = cluster([workload('DaemonSet', 'agent')]);
    const byRevision = () =>
      c.list('ControllerRevision').sort((a, b) => a.revision - b.revision);
    const [, , current] = byRevision();
    const hash = current.metadata.labels!['controller-revision-hash'];
    expect(current.metadata.name).toBe(`agent-${hash}`);
    expect(current.metadata.annotations!['kubernetes.io/change-cause']).toBe(
      'release 1.2',
    );
    expect(
      new Set(
        c.list('Pod').map(p => p.metadata.labels!['controller-revision-hash']),
      ),
    ).toEqual(new Set([hash]));
    c.write('DaemonSet', 'agent', d => {
      d.spec.template.spec.containers[0].image = 'agent:1.3';
      return d;
    });
    expect(byRevision().map(r => r.revision)).toEqual([1, 2, 3, 4]);
    const first = byRevision()[0];
    c.write('DaemonSet', 'agent', d => strategicMergePatch(d, first.data));
    expect(
      byRevision().map(r => [
        r.revision,
        r.data.spec.template.spec.containers[0].image,
      ]),
    ).toEqual([
      [2, 'agent:1.1'],
      [3, 'agent:1.2'],
      [4, 'agent:1.3'],
      [5, 'agent:1.0'],
    ]);
    expect(new Set(c.images('Pod', 'agent'))).toEqual(new Set(['agent:1.0']));
  });

  it('refuses a malformed previous-images annotation with the object named', () => {
    const broken = workload('Deployment', 'web');
    broken.metadata.annotations![PREVIOUS_IMAGES] = '{web: x}';
    expect(() => expandCluster([broken], { cluster: 'history', now })).toThrow(
      /Deployment shop\/web: simulator.gitlab-env\/previous-images/,
    );
  });
});
