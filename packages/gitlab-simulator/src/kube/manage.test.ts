import {
  kas,
  kasJson,
  kasPatch,
  NONPROD,
  PROD_US,
  useSimulator,
} from '../testing/harness';
import { startGitlabSimulator } from '../server';

const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

describe('what management actions need from the API server', () => {
  const sim = useSimulator({ tickMs: 0 });

  afterEach(() => sim().setClusterKnobs({ forbiddenActions: [] }));

  describe('SelfSubjectAccessReview (authorization.k8s.io/v1, "Checking API access")', () => {
    const review = (resourceAttributes: Record<string, string>) =>
      kasJson(
        sim(),
        PROD_US,
        '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
        {
          method: 'POST',
          body: JSON.stringify({
            apiVersion: 'authorization.k8s.io/v1',
            kind: 'SelfSubjectAccessReview',
            spec: { resourceAttributes },
          }),
        },
      );

    it('answers from the same RBAC that guards requests: scenario-forbidden reads and forbiddenActions writes', async () => {
      sim().setClusterKnobs({
        forbiddenActions: ['delete pods', 'patch deployments/scale'],
      });
      const allowed = await review({
        verb: 'get',
        resource: 'pods',
        namespace: 'storefront',
      });
      expect(allowed.status).toBe(201);
      expect(allowed.body.status.allowed).toBe(true);
      // prod-us forbids secrets in the default scenario.
      expect(
        (
          await review({
            verb: 'list',
            resource: 'secrets',
            namespace: 'storefront',
          })
        ).body.status,
      ).toEqual({
        allowed: false,
      });
      expect(
        (
          await review({
            verb: 'delete',
            resource: 'pods',
            namespace: 'storefront',
          })
        ).body.status.allowed,
      ).toBe(false);
      expect(
        (
          await review({
            verb: 'patch',
            group: 'apps',
            resource: 'deployments',
            subresource: 'scale',
            namespace: 'storefront',
          })
        ).body.status.allowed,
      ).toBe(false);
      expect(
        (
          await review({
            verb: 'patch',
            group: 'apps',
            resource: 'deployments',
            namespace: 'storefront',
          })
        ).body.status.allowed,
      ).toBe(true);
      // The request itself is refused the same way.
      const pod = (
        await kasJson(sim(), PROD_US, '/api/v1/namespaces/storefront/pods')
      ).body.items[0];
      const refused = await kasJson(
        sim(),
        PROD_US,
        `/api/v1/namespaces/storefront/pods/${pod.metadata.name}`,
        {
          method: 'DELETE',
        },
      );
      expect(refused.status).toBe(403);
      expect(refused.body.message).toContain('cannot delete resource "pods"');
    });

    it('refuses a review without exactly one of resourceAttributes and nonResourceAttributes', async () => {
      const invalid = await kasJson(
        sim(),
        PROD_US,
        '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
        {
          method: 'POST',
          body: JSON.stringify({ spec: {} }),
        },
      );
      expect(invalid.status).toBe(422);
      expect(
        (
          await kas(
            sim(),
            PROD_US,
            '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
          )
        ).status,
      ).toBe(405);
    });
  });

  describe('dryRun=All ("Dry-run")', () => {
    it('answers what a delete, patch, scale or create would give without changing anything', async () => {
      const pods = (
        await kasJson(sim(), PROD_US, '/api/v1/namespaces/storefront/pods')
      ).body;
      const pod = pods.items[0].metadata.name;
      const deleted = await kasJson(
        sim(),
        PROD_US,
        `/api/v1/namespaces/storefront/pods/${pod}?dryRun=All`,
        {
          method: 'DELETE',
        },
      );
      expect(deleted.status).toBe(200);
      const deployment =
        '/apis/apps/v1/namespaces/storefront/deployments/storefront-web';
      const patched = await kasPatch(
        sim(),
        PROD_US,
        `${deployment}?dryRun=All`,
        {
          spec: {
            template: {
              metadata: {
                annotations: { 'kubectl.kubernetes.io/restartedAt': 'now' },
              },
            },
          },
        },
        'strategic-merge',
      );
      expect(
        patched.body.spec.template.metadata.annotations[
          'kubectl.kubernetes.io/restartedAt'
        ],
      ).toBe('now');
      const scaled = await kasPatch(
        sim(),
        PROD_US,
        `${deployment}/scale?dryRun=All`,
        { spec: { replicas: 7 } },
      );
      expect(scaled.body.spec.replicas).toBe(7);
      const created = await kasJson(
        sim(),
        PROD_US,
        '/api/v1/namespaces/storefront/configmaps?dryRun=All',
        {
          method: 'POST',
          body: JSON.stringify({ metadata: { name: 'dry' }, data: {} }),
        },
      );
      expect(created.status).toBe(201);
      expect(
        (
          await kasJson(
            sim(),
            PROD_US,
            '/api/v1/namespaces/storefront/configmaps/dry',
          )
        ).status,
      ).toBe(404);
      const after = (
        await kasJson(sim(), PROD_US, '/api/v1/namespaces/storefront/pods')
      ).body;
      expect(after.metadata.resourceVersion).toBe(
        pods.metadata.resourceVersion,
      );
      const unchanged = (await kasJson(sim(), PROD_US, deployment)).body;
      expect(unchanged.spec.replicas).toBe(3);
      expect(
        unchanged.spec.template.metadata.annotations?.[
          'kubectl.kubernetes.io/restartedAt'
        ],
      ).toBeUndefined();
    });

    it('refuses other dryRun values', async () => {
      const refused = await kasJson(
        sim(),
        PROD_US,
        '/api/v1/namespaces/storefront/configmaps?dryRun=Some',
        {
          method: 'POST',
          body: JSON.stringify({ metadata: { name: 'dry' } }),
        },
      );
      expect(refused.status).toBe(422);
      expect(refused.body.message).toContain('supported values: "All"');
    });
  });

  describe('a write that changes nothing (etcd3 GuaranteedUpdate)', () => {
    it('answers the object as it is, resourceVersion and generation unchanged; a real change moves both', async () => {
      const deployment =
        '/apis/apps/v1/namespaces/storefront/deployments/storefront-web';
      const before = (await kasJson(sim(), PROD_US, deployment)).body;
      const same = await kasPatch(sim(), PROD_US, `${deployment}/scale`, {
        spec: { replicas: before.spec.replicas },
      });
      expect(same.status).toBe(200);
      expect(same.body.metadata.resourceVersion).toBe(
        before.metadata.resourceVersion,
      );
      const samePatch = await kasPatch(sim(), PROD_US, deployment, {
        spec: { replicas: before.spec.replicas },
      });
      expect(samePatch.body.metadata.resourceVersion).toBe(
        before.metadata.resourceVersion,
      );
      const after = (await kasJson(sim(), PROD_US, deployment)).body;
      expect(after.metadata.resourceVersion).toBe(
        before.metadata.resourceVersion,
      );
      expect(after.metadata.generation).toBe(before.metadata.generation);

      const scaled = await kasPatch(sim(), PROD_US, `${deployment}/scale`, {
        spec: { replicas: before.spec.replicas + 1 },
      });
      expect(scaled.body.metadata.resourceVersion).not.toBe(
        before.metadata.resourceVersion,
      );
      const changed = (await kasJson(sim(), PROD_US, deployment)).body;
      expect(changed.metadata.generation).toBe(before.metadata.generation + 1);
      await kasPatch(sim(), PROD_US, `${deployment}/scale`, {
        spec: { replicas: before.spec.replicas },
      });
    });
  });

  describe('server-side tables ("Receiving resources as Tables")', () => {
    const table = (path: string, agent = PROD_US) =>
      kasJson(sim(), agent, path, {
        headers: { Accept: `${TABLE},application/json` },
      });

    it('prints pods with the columns kubectl shows, wide ones at priority 1', async () => {
      const { body, headers } = await table(
        '/api/v1/namespaces/checkout-staging/pods',
        NONPROD,
      );
      expect(headers.get('content-type')).toBe(TABLE);
      expect(body.kind).toBe('Table');
      expect(
        body.columnDefinitions.map((c: any) => [c.name, c.priority]),
      ).toEqual([
        ['Name', 0],
        ['Ready', 0],
        ['Status', 0],
        ['Restarts', 0],
        ['Age', 0],
        ['IP', 1],
        ['Node', 1],
        ['Nominated Node', 1],
        ['Readiness Gates', 1],
      ]);
      const crashing = body.rows.find(
        (r: any) => r.cells[2] === 'CrashLoopBackOff',
      );
      expect(crashing.cells[1]).toMatch(/^0\/\d+$/);
      expect(crashing.cells[3]).toMatch(/^\d+ \(\S+ ago\)$/);
      expect(crashing.object).toMatchObject({
        kind: 'PartialObjectMetadata',
        metadata: { name: crashing.cells[0] },
      });
    });

    it('prints deployments, replicasets, statefulsets and namespaces, and the default Name/Created At otherwise', async () => {
      const deployments = (
        await table('/apis/apps/v1/namespaces/storefront/deployments')
      ).body;
      expect(deployments.columnDefinitions.map((c: any) => c.name)).toEqual([
        'Name',
        'Ready',
        'Up-to-date',
        'Available',
        'Age',
        'Containers',
        'Images',
        'Selector',
      ]);
      expect(deployments.rows[0].cells.slice(0, 4)).toEqual([
        'storefront-web',
        '3/3',
        3,
        3,
      ]);
      const replicaSets = (
        await table('/apis/apps/v1/namespaces/storefront/replicasets')
      ).body;
      expect(
        replicaSets.columnDefinitions.slice(0, 4).map((c: any) => c.name),
      ).toEqual(['Name', 'Desired', 'Current', 'Ready']);
      const statefulSets = (
        await table('/apis/apps/v1/namespaces/search/statefulsets')
      ).body;
      expect(statefulSets.rows[0].cells.slice(0, 2)).toEqual([
        'search-indexer',
        '3/3',
      ]);
      const namespaces = (await table('/api/v1/namespaces')).body;
      expect(
        namespaces.rows.find((r: any) => r.cells[0] === 'storefront').cells[1],
      ).toBe('Active');
      const fallback = (
        await table('/apis/rbac.authorization.k8s.io/v1/clusterroles')
      ).body;
      expect(
        fallback.columnDefinitions.map((c: any) => [c.name, c.type]),
      ).toEqual([
        ['Name', 'string'],
        ['Created At', 'date'],
      ]);
      const custom = (
        await table(
          '/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/flux-system/kustomizations',
        )
      ).body;
      expect(custom.columnDefinitions.map((c: any) => c.name)).toEqual([
        'Name',
        'Age',
      ]);
    });

    it('honours includeObject and refuses an unknown value', async () => {
      const one = (
        await table(
          '/apis/apps/v1/namespaces/storefront/deployments/storefront-web?includeObject=Object',
        )
      ).body;
      expect(one.rows).toHaveLength(1);
      expect(one.rows[0].object.kind).toBe('Deployment');
      const none = (
        await table(
          '/apis/apps/v1/namespaces/storefront/deployments?includeObject=None',
        )
      ).body;
      expect(none.rows[0].object).toBeUndefined();
      expect(
        (await table('/api/v1/pods?includeObject=Everything')).status,
      ).toBe(400);
      // Plain JSON clients still get the list.
      expect(
        (await kasJson(sim(), PROD_US, '/api/v1/namespaces/storefront/pods'))
          .body.kind,
      ).toBe('PodList');
    });
  });

  describe('pod logs (PodLogOptions)', () => {
    const podOf = async (namespace: string) =>
      (await kasJson(sim(), PROD_US, `/api/v1/namespaces/${namespace}/pods`))
        .body.items[0];

    it('keeps only lines since sinceSeconds or sinceTime, with timestamps', async () => {
      const pod = await podOf('storefront');
      const base = `/api/v1/namespaces/storefront/pods/${pod.metadata.name}/log?timestamps=true`;
      const all = (await (await kas(sim(), PROD_US, base)).text())
        .trimEnd()
        .split('\n');
      const recent = (
        await (await kas(sim(), PROD_US, `${base}&sinceSeconds=60`)).text()
      )
        .trimEnd()
        .split('\n');
      expect(recent.length).toBeLessThan(all.length);
      expect(recent.length).toBeGreaterThan(0);
      const cutoff = Date.now() - 61_000;
      expect(recent.every(l => Date.parse(l.split(' ')[0]) >= cutoff)).toBe(
        true,
      );
      const since = new Date(Date.now() - 120_000)
        .toISOString()
        .replace(/\.\d+Z$/, 'Z');
      const byTime = (
        await (await kas(sim(), PROD_US, `${base}&sinceTime=${since}`)).text()
      )
        .trimEnd()
        .split('\n');
      expect(byTime.length).toBeGreaterThan(recent.length);
      const limited = await (
        await kas(sim(), PROD_US, `${base}&limitBytes=10`)
      ).text();
      expect(limited).toHaveLength(10);
    });

    it('follows at rates above one line per timer tick (logFollowIntervalMs below 1 ms)', async () => {
      const fast = await startGitlabSimulator({
        port: 0,
        tickMs: 0,
        logFollowIntervalMs: 0.5,
      });
      try {
        const pod = (
          await kasJson(fast, PROD_US, '/api/v1/namespaces/storefront/pods')
        ).body.items[0];
        const response = await kas(
          fast,
          PROD_US,
          `/api/v1/namespaces/storefront/pods/${pod.metadata.name}/log?follow=true&tailLines=0`,
        );
        const reader = response.body!.getReader();
        let lines = 0;
        let most = 0;
        while (lines < 1000) {
          const { value } = await reader.read();
          const count = new TextDecoder().decode(value).split('\n').length - 1;
          lines += count;
          most = Math.max(most, count);
        }
        await reader.cancel();
        // Several lines go out per timer tick, as the rate is above one per tick.
        expect(most).toBeGreaterThan(1);
      } finally {
        await fast.close();
      }
    });

    it('refuses invalid options like ValidatePodLogOptions', async () => {
      const pod = await podOf('storefront');
      const base = `/api/v1/namespaces/storefront/pods/${pod.metadata.name}/log`;
      const both = await kasJson(
        sim(),
        PROD_US,
        `${base}?sinceSeconds=5&sinceTime=2026-01-01T00:00:00Z`,
      );
      expect(both.status).toBe(422);
      expect(both.body.message).toContain(
        'at most one of sinceTime or sinceSeconds may be specified',
      );
      expect(
        (await kasJson(sim(), PROD_US, `${base}?tailLines=-1`)).status,
      ).toBe(422);
      expect(
        (await kasJson(sim(), PROD_US, `${base}?sinceSeconds=0`)).status,
      ).toBe(422);
      expect(
        (await kasJson(sim(), PROD_US, `${base}?tailLines=abc`)).status,
      ).toBe(400);
    });

    it('serves init and ephemeral containers and names them when a container must be chosen', async () => {
      const store = sim().cluster(PROD_US).store;
      const pods = store.registry.forKind('', 'Pod')!;
      const pod = store.list(pods, 'storefront')[0];
      store.upsert({
        ...pod,
        spec: {
          ...pod.spec,
          containers: [
            ...pod.spec.containers,
            { name: 'sidecar', image: 'envoy:1.31' },
          ],
          initContainers: [{ name: 'migrate', image: 'migrate:1' }],
          ephemeralContainers: [{ name: 'debugger', image: 'busybox:1.36' }],
        },
        status: {
          ...pod.status,
          initContainerStatuses: [
            {
              name: 'migrate',
              ready: false,
              restartCount: 0,
              state: { terminated: { exitCode: 0, reason: 'Completed' } },
            },
          ],
          ephemeralContainerStatuses: [
            {
              name: 'debugger',
              ready: false,
              restartCount: 0,
              state: { running: { startedAt: pod.metadata.creationTimestamp } },
            },
          ],
        },
      });
      const base = `/api/v1/namespaces/storefront/pods/${pod.metadata.name}/log`;
      const choose = await kasJson(sim(), PROD_US, base);
      expect(choose.body.message).toBe(
        `a container name must be specified for pod ${pod.metadata.name}, choose one of: [${pod.spec.containers[0].name} sidecar] or one of the init containers: [migrate] or one of the ephemeral containers: [debugger]`,
      );
      for (const container of ['migrate', 'debugger']) {
        const response = await kas(
          sim(),
          PROD_US,
          `${base}?container=${container}&tailLines=1`,
        );
        expect(response.status).toBe(200);
        expect(
          (await response.text()).split('\n').filter(Boolean),
        ).toHaveLength(1);
      }
    });
  });
});
