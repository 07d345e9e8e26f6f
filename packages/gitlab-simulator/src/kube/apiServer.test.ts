import { expandCluster } from '../cluster/expand';
import { generateScenario } from '../scenario/generate';
import {
  kas,
  kasJson,
  NONPROD,
  PROD_EU,
  PROD_US,
  readWatchEvents,
  useSimulator,
} from '../testing/harness';

describe('Kubernetes API behind KAS', () => {
  const sim = useSimulator({ logFollowIntervalMs: 20 });

  describe('discovery', () => {
    it('serves /version, /api and /apis with built-in and CRD groups', async () => {
      expect((await kasJson(sim(), PROD_US, '/version')).body).toMatchObject({
        major: '1',
        minor: '31',
        gitVersion: 'v1.31.4',
      });
      expect((await kasJson(sim(), PROD_US, '/api')).body).toMatchObject({
        kind: 'APIVersions',
        versions: ['v1'],
      });
      const groups = (await kasJson(sim(), PROD_US, '/apis')).body;
      expect(groups.kind).toBe('APIGroupList');
      const names = groups.groups.map((g: any) => g.name);
      expect(names).toEqual(
        expect.arrayContaining([
          'apps',
          'batch',
          'discovery.k8s.io',
          'kustomize.toolkit.fluxcd.io',
          'helm.toolkit.fluxcd.io',
          'cert-manager.io',
          'keda.sh',
          'argoproj.io',
        ]),
      );
      const helm = groups.groups.find(
        (g: any) => g.name === 'helm.toolkit.fluxcd.io',
      );
      expect(helm.preferredVersion).toEqual({
        groupVersion: 'helm.toolkit.fluxcd.io/v2',
        version: 'v2',
      });
      expect(helm.versions.map((v: any) => v.version)).toEqual([
        'v2',
        'v2beta2',
        'v2beta1',
      ]);
    });

    it('answers aggregated discovery when the Accept header asks for it', async () => {
      const accept = {
        headers: {
          accept:
            'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json',
        },
      };
      const groups = await kasJson(sim(), PROD_US, '/apis', accept);
      expect(groups.headers.get('content-type')).toBe(
        'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
      );
      expect(groups.body).toMatchObject({
        kind: 'APIGroupDiscoveryList',
        apiVersion: 'apidiscovery.k8s.io/v2',
      });
      const apps = groups.body.items.find(
        (g: any) => g.metadata.name === 'apps',
      );
      const deployments = apps.versions[0].resources.find(
        (r: any) => r.resource === 'deployments',
      );
      expect(deployments).toMatchObject({
        responseKind: { group: 'apps', version: 'v1', kind: 'Deployment' },
        scope: 'Namespaced',
        verbs: expect.arrayContaining(['list']),
      });
      expect(deployments.subresources).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            subresource: 'scale',
            responseKind: {
              group: 'autoscaling',
              version: 'v1',
              kind: 'Scale',
            },
          }),
        ]),
      );
      const helm = groups.body.items.find(
        (g: any) => g.metadata.name === 'helm.toolkit.fluxcd.io',
      );
      expect(helm.versions.map((v: any) => v.version)).toEqual([
        'v2',
        'v2beta2',
        'v2beta1',
      ]);
      expect(groups.body.items.some((g: any) => g.metadata.name === '')).toBe(
        false,
      );

      const core = (await kasJson(sim(), PROD_US, '/api', accept)).body;
      expect(core.items.map((g: any) => g.metadata.name)).toEqual(['']);
      expect(
        core.items[0].versions[0].resources.find(
          (r: any) => r.resource === 'pods',
        ),
      ).toMatchObject({ scope: 'Namespaced', responseKind: { kind: 'Pod' } });
    });

    it('keeps the plain documents for clients that put application/json first', async () => {
      const plain = await kasJson(sim(), PROD_US, '/apis', {
        headers: {
          accept:
            'application/json,application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
        },
      });
      expect(plain.body.kind).toBe('APIGroupList');
    });

    it('lists its paths at / and answers health checks', async () => {
      const root = (await kasJson(sim(), PROD_US, '/')).body;
      expect(root.paths).toEqual(
        expect.arrayContaining([
          '/api/v1',
          '/apis/apps/v1',
          '/apis/kustomize.toolkit.fluxcd.io/v1',
          '/version',
        ]),
      );
      const health = await kas(sim(), PROD_US, '/readyz');
      expect(await health.text()).toBe('ok');
    });

    it('describes resources with namespaced, verbs, kind and subresources', async () => {
      const core = (await kasJson(sim(), PROD_US, '/api/v1')).body;
      const byName = Object.fromEntries(
        core.resources.map((r: any) => [r.name, r]),
      );
      expect(byName.pods).toMatchObject({
        kind: 'Pod',
        namespaced: true,
        verbs: expect.arrayContaining(['list', 'watch', 'delete']),
      });
      expect(byName['pods/log']).toMatchObject({ kind: 'Pod', verbs: ['get'] });
      expect(byName.namespaces.namespaced).toBe(false);
      const apps = (await kasJson(sim(), PROD_US, '/apis/apps/v1')).body;
      expect(
        apps.resources.find((r: any) => r.name === 'deployments/scale'),
      ).toMatchObject({ group: 'autoscaling', version: 'v1', kind: 'Scale' });
      const flux = (
        await kasJson(sim(), PROD_US, '/apis/kustomize.toolkit.fluxcd.io/v1')
      ).body;
      expect(flux.resources[0]).toMatchObject({
        name: 'kustomizations',
        kind: 'Kustomization',
        namespaced: true,
        shortNames: ['ks'],
      });
      expect(
        (await kasJson(sim(), PROD_US, '/apis/example.com/v1')).status,
      ).toBe(404);
    });
  });

  describe('reads', () => {
    it('gets objects and answers NotFound like the API server', async () => {
      const deployment = await kasJson(
        sim(),
        PROD_US,
        '/apis/apps/v1/namespaces/storefront/deployments/storefront-web',
      );
      expect(deployment.body).toMatchObject({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: {
          name: 'storefront-web',
          resourceVersion: expect.any(String),
        },
      });
      const missing = await kasJson(
        sim(),
        PROD_US,
        '/apis/apps/v1/namespaces/storefront/deployments/nope',
      );
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({
        kind: 'Status',
        reason: 'NotFound',
        message: 'deployments.apps "nope" not found',
        details: { name: 'nope', group: 'apps', kind: 'deployments' },
      });
      const core = await kasJson(
        sim(),
        PROD_US,
        '/api/v1/namespaces/storefront/pods/nope',
      );
      expect(core.body.message).toBe('pods "nope" not found');
    });

    it('serves a CRD-backed object at any served version', async () => {
      const path =
        'kustomize.toolkit.fluxcd.io/v1/namespaces/flux-system/kustomizations/checkout-api';
      const ks = await kasJson(sim(), PROD_US, `/apis/${path}`);
      expect(ks.body.status.inventory.entries).toContainEqual({
        id: 'checkout_checkout-worker_apps_Deployment',
        v: 'v1',
      });
      const old = await kasJson(
        sim(),
        PROD_US,
        '/apis/kustomize.toolkit.fluxcd.io/v1beta2/namespaces/flux-system/kustomizations/checkout-api',
      );
      expect(old.body.apiVersion).toBe('kustomize.toolkit.fluxcd.io/v1beta2');
    });

    it('lists per namespace and across namespaces, leaving kind out of built-in items', async () => {
      const list = (await kasJson(sim(), PROD_US, '/apis/apps/v1/deployments'))
        .body;
      expect(list).toMatchObject({
        kind: 'DeploymentList',
        apiVersion: 'apps/v1',
        metadata: { resourceVersion: expect.any(String) },
      });
      expect(new Set(list.items.map((d: any) => d.metadata.namespace))).toEqual(
        new Set([
          'storefront',
          'checkout',
          'flux-system',
          'search',
          'gitlab-agent',
        ]),
      );
      expect(list.items[0].kind).toBeUndefined();
      const crs = (
        await kasJson(sim(), NONPROD, '/apis/cert-manager.io/v1/certificates')
      ).body;
      expect(crs.items[0]).toMatchObject({
        apiVersion: 'cert-manager.io/v1',
        kind: 'Certificate',
      });
      const search = (
        await kasJson(
          sim(),
          PROD_US,
          '/apis/apps/v1/namespaces/search/deployments',
        )
      ).body;
      expect(search.items.map((d: any) => d.metadata.name)).toEqual([
        'search-api',
      ]);
    });

    it.each([
      [
        'app.kubernetes.io/part-of=notifications',
        ['notifications-api', 'notifications-worker'],
      ],
      [
        'app.kubernetes.io/part-of==notifications,app.kubernetes.io/component=api',
        ['notifications-api'],
      ],
      ['app.kubernetes.io/part-of!=notifications', ['mailhog']],
      [
        'app.kubernetes.io/part-of in (dev-tools, notifications),app.kubernetes.io/component notin (worker)',
        ['mailhog', 'notifications-api'],
      ],
      [
        'app.kubernetes.io/component',
        ['notifications-api', 'notifications-worker'],
      ],
      ['!app.kubernetes.io/component', ['mailhog']],
    ])('filters by labelSelector %s', async (selector, names) => {
      const { body } = await kasJson(
        sim(),
        NONPROD,
        `/apis/apps/v1/namespaces/notifications-dev/deployments?labelSelector=${encodeURIComponent(
          selector,
        )}`,
      );
      expect(body.items.map((d: any) => d.metadata.name)).toEqual(names);
    });

    it('rejects unparsable label selectors and unsupported field labels with 400', async () => {
      const bad = await kasJson(
        sim(),
        NONPROD,
        `/api/v1/pods?labelSelector=${encodeURIComponent('a in b')}`,
      );
      expect(bad.status).toBe(400);
      expect(bad.body.reason).toBe('BadRequest');
      const field = await kasJson(
        sim(),
        NONPROD,
        '/apis/apps/v1/deployments?fieldSelector=spec.replicas%3D1',
      );
      expect(field.body).toMatchObject({
        code: 400,
        message: 'field label not supported: spec.replicas',
      });
    });

    it('filters by fieldSelector: metadata, involvedObject and status.phase', async () => {
      const byName = (
        await kasJson(
          sim(),
          PROD_US,
          '/apis/apps/v1/deployments?fieldSelector=metadata.name%3Dsearch-api',
        )
      ).body;
      expect(byName.items).toHaveLength(1);
      const events = (
        await kasJson(
          sim(),
          NONPROD,
          '/api/v1/namespaces/checkout-staging/events?fieldSelector=involvedObject.kind%3DPod,type%3DWarning',
        )
      ).body;
      expect(events.items.length).toBeGreaterThan(0);
      expect(
        events.items.every(
          (e: any) => e.involvedObject.kind === 'Pod' && e.reason === 'BackOff',
        ),
      ).toBe(true);
      const notRunning = (
        await kasJson(
          sim(),
          PROD_US,
          '/api/v1/pods?fieldSelector=status.phase!%3DRunning',
        )
      ).body;
      expect(notRunning.items.map((p: any) => p.status.phase).sort()).toEqual([
        'Pending',
        'Succeeded',
        'Succeeded',
        'Succeeded',
      ]);
      const namespaced = (
        await kasJson(
          sim(),
          PROD_US,
          '/api/v1/pods?fieldSelector=metadata.namespace%3Dcheckout',
        )
      ).body;
      expect(namespaced.items).toHaveLength(2);
    });

    it('pages lists with limit and continue, consistently ordered', async () => {
      const all = (
        await kasJson(sim(), PROD_US, '/api/v1/pods')
      ).body.items.map(
        (p: any) => `${p.metadata.namespace}/${p.metadata.name}`,
      );
      const paged: string[] = [];
      const remaining: number[] = [];
      let token: string | undefined;
      do {
        const { body } = await kasJson(
          sim(),
          PROD_US,
          `/api/v1/pods?limit=4${token ? `&continue=${token}` : ''}`,
        );
        paged.push(
          ...body.items.map(
            (p: any) => `${p.metadata.namespace}/${p.metadata.name}`,
          ),
        );
        remaining.push(body.metadata.remainingItemCount ?? 0);
        token = body.metadata.continue;
      } while (token);
      const pages = Math.ceil(all.length / 4);
      expect(remaining).toEqual(
        Array.from({ length: pages }, (_, i) =>
          Math.max(0, all.length - 4 * (i + 1)),
        ),
      );
      expect(paged).toEqual(all);
      expect(
        (await kasJson(sim(), PROD_US, '/api/v1/pods?limit=4&continue=%%%'))
          .status,
      ).toBe(400);
    });
  });

  describe('watch', () => {
    it('streams ADDED for existing objects, then changes as they happen', async () => {
      const response = await kas(
        sim(),
        PROD_EU,
        '/api/v1/namespaces/storefront/pods?watch=true&timeoutSeconds=10',
      );
      expect(response.headers.get('content-type')).toBe('application/json');
      const initial = 2;
      const eventsPromise = readWatchEvents(
        response,
        events =>
          events.some(e => e.type === 'DELETED') &&
          events.filter(e => e.type === 'ADDED').length > initial,
      );
      const list = (
        await kasJson(sim(), PROD_EU, '/api/v1/namespaces/storefront/pods')
      ).body;
      const victim = list.items[0].metadata.name;
      await kas(
        sim(),
        PROD_EU,
        `/api/v1/namespaces/storefront/pods/${victim}`,
        { method: 'DELETE' },
      );
      const events = await eventsPromise;
      expect(events.slice(0, initial).map(e => e.type)).toEqual([
        'ADDED',
        'ADDED',
      ]);
      expect(events[0].object).toMatchObject({ apiVersion: 'v1', kind: 'Pod' });
      expect(events).toContainEqual(
        expect.objectContaining({
          type: 'DELETED',
          object: expect.objectContaining({
            metadata: expect.objectContaining({ name: victim }),
          }),
        }),
      );
      const replacement = events.slice(initial).find(e => e.type === 'ADDED');
      expect(replacement.object.metadata.name).not.toBe(victim);
      expect(replacement.object.metadata.name).toMatch(/^storefront-web-/);
    });

    it('sends only later changes when given a resourceVersion, filtered by selector', async () => {
      const { body } = await kasJson(
        sim(),
        NONPROD,
        '/apis/apps/v1/namespaces/notifications-dev/deployments',
      );
      const response = await kas(
        sim(),
        NONPROD,
        `/apis/apps/v1/namespaces/notifications-dev/deployments?watch=1&resourceVersion=${body.metadata.resourceVersion}&labelSelector=app.kubernetes.io%2Fname%3Dmailhog`,
      );
      const eventsPromise = readWatchEvents(
        response,
        events => events.length >= 1,
      );
      await kas(
        sim(),
        NONPROD,
        '/apis/apps/v1/namespaces/notifications-dev/deployments/mailhog',
        {
          method: 'PATCH',
          headers: { 'Content-Type': 'application/merge-patch+json' },
          body: JSON.stringify({ metadata: { labels: { touched: 'yes' } } }),
        },
      );
      const [event] = await eventsPromise;
      expect(event).toMatchObject({
        type: 'MODIFIED',
        object: { metadata: { name: 'mailhog', labels: { touched: 'yes' } } },
      });
    });

    it('ends the stream after timeoutSeconds', async () => {
      const response = await kas(
        sim(),
        PROD_US,
        '/api/v1/namespaces/checkout/configmaps?watch=true&timeoutSeconds=1',
      );
      const text = await response.text();
      expect(
        text
          .trim()
          .split('\n')
          .map(line => JSON.parse(line).type),
        // checkout-config and checkout-debug, then the stream ends.
      ).toEqual(['ADDED', 'ADDED']);
    });
  });

  describe('logs', () => {
    const pod = async (agent: number, namespace: string, selector: string) =>
      (
        await kasJson(
          sim(),
          agent,
          `/api/v1/namespaces/${namespace}/pods?labelSelector=${encodeURIComponent(
            selector,
          )}`,
        )
      ).body.items[0].metadata.name;

    it('returns the last tailLines lines as text, with timestamps on request', async () => {
      const name = await pod(
        PROD_US,
        'storefront',
        'app.kubernetes.io/name=storefront-web',
      );
      const response = await kas(
        sim(),
        PROD_US,
        `/api/v1/namespaces/storefront/pods/${name}/log?tailLines=5&timestamps=true`,
      );
      expect(response.headers.get('content-type')).toBe('text/plain');
      const lines = (await response.text()).trimEnd().split('\n');
      expect(lines).toHaveLength(5);
      expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z level=\w+ msg=/);
    });

    it('requires a container name for multi-container pods', async () => {
      const name = await pod(
        PROD_US,
        'checkout',
        'app.kubernetes.io/name=checkout-api',
      );
      const response = await kasJson(
        sim(),
        PROD_US,
        `/api/v1/namespaces/checkout/pods/${name}/log`,
      );
      expect(response.status).toBe(400);
      expect(response.body.message).toBe(
        `a container name must be specified for pod ${name}, choose one of: [api envoy]`,
      );
      const envoy = await kas(
        sim(),
        PROD_US,
        `/api/v1/namespaces/checkout/pods/${name}/log?container=envoy&tailLines=1`,
      );
      expect(envoy.status).toBe(200);
    });

    it('shows why a crash-looping container died, now and in its previous run', async () => {
      const name = await pod(
        NONPROD,
        'checkout-staging',
        'app.kubernetes.io/name=checkout-api',
      );
      const current = await (
        await kas(
          sim(),
          NONPROD,
          `/api/v1/namespaces/checkout-staging/pods/${name}/log`,
        )
      ).text();
      expect(current).toContain('failed to connect to database');
      const previous = await kas(
        sim(),
        NONPROD,
        `/api/v1/namespaces/checkout-staging/pods/${name}/log?previous=true`,
      );
      expect(previous.status).toBe(200);
      const healthy = await pod(
        PROD_US,
        'storefront',
        'app.kubernetes.io/name=storefront-web',
      );
      const none = await kasJson(
        sim(),
        PROD_US,
        `/api/v1/namespaces/storefront/pods/${healthy}/log?previous=true`,
      );
      expect(none.body.message).toBe(
        `previous terminated container "web" in pod "${healthy}" not found`,
      );
    });

    it('streams new lines with follow=true until the client stops reading', async () => {
      const name = await pod(
        PROD_US,
        'search',
        'app.kubernetes.io/name=search-indexer',
      );
      const response = await kas(
        sim(),
        PROD_US,
        `/api/v1/namespaces/search/pods/${name}/log?follow=true&tailLines=2`,
      );
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      while (text.split('\n').length - 1 < 5) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value);
      }
      await reader.cancel();
      expect(text.split('\n').length - 1).toBeGreaterThanOrEqual(5);
    });
  });

  describe('writes', () => {
    it('deletes a pod, and its ReplicaSet replaces it with a new name', async () => {
      const path = '/api/v1/namespaces/storefront/pods';
      const before = (
        await kasJson(
          sim(),
          PROD_US,
          `${path}?labelSelector=app.kubernetes.io%2Fname%3Dstorefront-web`,
        )
      ).body.items.map((p: any) => p.metadata.name);
      const deleted = await kasJson(sim(), PROD_US, `${path}/${before[0]}`, {
        method: 'DELETE',
      });
      expect(deleted.status).toBe(200);
      expect(deleted.body).toMatchObject({
        kind: 'Pod',
        metadata: { name: before[0] },
      });
      const after = (
        await kasJson(
          sim(),
          PROD_US,
          `${path}?labelSelector=app.kubernetes.io%2Fname%3Dstorefront-web`,
        )
      ).body.items.map((p: any) => p.metadata.name);
      expect(after).toHaveLength(before.length);
      expect(after).not.toContain(before[0]);
      expect(
        (
          await kasJson(sim(), PROD_US, `${path}/${before[0]}`, {
            method: 'DELETE',
          })
        ).status,
      ).toBe(404);
    });

    it('deletes a StatefulSet pod, which comes back under the same name', async () => {
      const path = '/api/v1/namespaces/search/pods/search-indexer-1';
      const before = (await kasJson(sim(), PROD_US, path)).body.metadata.uid;
      await kas(sim(), PROD_US, path, { method: 'DELETE' });
      const after = (await kasJson(sim(), PROD_US, path)).body.metadata.uid;
      expect(after).not.toBe(before);
    });

    it('applies JSON patches the way Flux reconcile and suspend send them', async () => {
      const path =
        '/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/flux-system/kustomizations/checkout-api';
      const requestedAt = new Date().toISOString();
      const reconcile = await kasJson(sim(), PROD_US, path, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/json-patch+json' },
        body: JSON.stringify([
          { op: 'add', path: '/metadata/annotations', value: {} },
          {
            op: 'add',
            path: '/metadata/annotations/reconcile.fluxcd.io~1requestedAt',
            value: requestedAt,
          },
        ]),
      });
      expect(reconcile.status).toBe(200);
      expect(
        reconcile.body.metadata.annotations['reconcile.fluxcd.io/requestedAt'],
      ).toBe(requestedAt);
      expect(
        (await kasJson(sim(), PROD_US, path)).body.status
          .lastHandledReconcileAt,
      ).toBe(requestedAt);
      const suspend = await kasJson(sim(), PROD_US, path, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/json-patch+json' },
        body: JSON.stringify([
          { op: 'replace', path: '/spec/suspend', value: true },
        ]),
      });
      // `replace` needs an existing member, as in RFC 6902.
      expect(suspend.status).toBe(422);
      const add = await kasJson(sim(), PROD_US, path, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/json-patch+json' },
        body: JSON.stringify([
          { op: 'add', path: '/spec/suspend', value: true },
        ]),
      });
      expect(add.body).toMatchObject({
        spec: { suspend: true },
        metadata: { generation: 2 },
      });
    });

    it('applies merge and strategic merge patches, and refuses unknown patch types', async () => {
      const path = '/api/v1/namespaces/checkout/configmaps/checkout-config';
      const merged = await kasJson(sim(), PROD_US, path, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/merge-patch+json' },
        body: JSON.stringify({ data: { CURRENCY: null, FEATURE: 'on' } }),
      });
      expect(merged.body.data).toEqual({
        PAYMENT_PROVIDER: 'stripe',
        FEATURE: 'on',
      });
      const strategic = await kasJson(
        sim(),
        PROD_US,
        '/apis/apps/v1/namespaces/checkout/deployments/checkout-api',
        {
          method: 'PATCH',
          headers: { 'Content-Type': 'application/strategic-merge-patch+json' },
          body: JSON.stringify({
            spec: {
              template: {
                spec: {
                  containers: [
                    { name: 'envoy', image: 'envoyproxy/envoy:v1.32.0' },
                  ],
                },
              },
            },
          }),
        },
      );
      expect(
        strategic.body.spec.template.spec.containers.map(
          (c: any) => `${c.name}=${c.image}`,
        ),
      ).toEqual([
        'api=registry.example.com/acme/shop/checkout-api:3.8.2',
        'envoy=envoyproxy/envoy:v1.32.0',
      ]);
      const unsupported = await kasJson(sim(), PROD_US, path, {
        method: 'PATCH',
        headers: { 'Content-Type': 'text/plain' },
        body: 'x',
      });
      expect(unsupported.body).toMatchObject({
        code: 415,
        reason: 'UnsupportedMediaType',
      });
      const conflict = await kasJson(sim(), PROD_US, path, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/merge-patch+json' },
        body: JSON.stringify({ metadata: { resourceVersion: '1' } }),
      });
      expect(conflict.body).toMatchObject({ code: 409, reason: 'Conflict' });
    });

    it('scales a Deployment through the scale subresource', async () => {
      const scalePath =
        '/apis/apps/v1/namespaces/gitlab-agent/deployments/gitlab-agent-v2/scale';
      const scale = await kasJson(sim(), NONPROD, scalePath);
      expect(scale.body).toMatchObject({
        kind: 'Scale',
        apiVersion: 'autoscaling/v1',
        spec: { replicas: 2 },
        status: {
          replicas: 2,
          selector: expect.stringContaining(
            'app.kubernetes.io/name=gitlab-agent',
          ),
        },
      });
      const put = await kasJson(sim(), NONPROD, scalePath, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ ...scale.body, spec: { replicas: 4 } }),
      });
      expect(put.body.spec.replicas).toBe(4);
      const pods = (
        await kasJson(sim(), NONPROD, '/api/v1/namespaces/gitlab-agent/pods')
      ).body.items;
      expect(pods).toHaveLength(4);
      const deployment = (
        await kasJson(
          sim(),
          NONPROD,
          '/apis/apps/v1/namespaces/gitlab-agent/deployments/gitlab-agent-v2',
        )
      ).body;
      expect(deployment.status).toMatchObject({
        replicas: 4,
        readyReplicas: 4,
        availableReplicas: 4,
      });
      const slices = (
        await kasJson(
          sim(),
          NONPROD,
          '/apis/discovery.k8s.io/v1/namespaces/gitlab-agent/endpointslices',
        )
      ).body.items;
      expect(slices).toHaveLength(0);
      const patched = await kasJson(sim(), NONPROD, scalePath, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/merge-patch+json' },
        body: JSON.stringify({ spec: { replicas: 1 } }),
      });
      expect(patched.body.spec.replicas).toBe(1);
      expect(
        (await kasJson(sim(), NONPROD, '/api/v1/namespaces/gitlab-agent/pods'))
          .body.items,
      ).toHaveLength(1);
      const invalid = await kasJson(sim(), NONPROD, scalePath, {
        method: 'PUT',
        body: JSON.stringify({ spec: { replicas: -1 } }),
      });
      expect(invalid.body).toMatchObject({ code: 422, reason: 'Invalid' });
    });

    it('scales a StatefulSet up with a new claim, and down keeping the claims', async () => {
      const scalePath =
        '/apis/apps/v1/namespaces/search/statefulsets/search-indexer/scale';
      const merge = { 'Content-Type': 'application/merge-patch+json' };
      await kas(sim(), PROD_US, scalePath, {
        method: 'PATCH',
        headers: merge,
        body: JSON.stringify({ spec: { replicas: 4 } }),
      });
      const pod = (
        await kasJson(
          sim(),
          PROD_US,
          '/api/v1/namespaces/search/pods/search-indexer-3',
        )
      ).body;
      expect(pod.spec.volumes).toContainEqual({
        name: 'data',
        persistentVolumeClaim: { claimName: 'data-search-indexer-3' },
      });
      const claim = (
        await kasJson(
          sim(),
          PROD_US,
          '/api/v1/namespaces/search/persistentvolumeclaims/data-search-indexer-3',
        )
      ).body;
      expect(claim.status.phase).toBe('Bound');
      await kas(sim(), PROD_US, scalePath, {
        method: 'PATCH',
        headers: merge,
        body: JSON.stringify({ spec: { replicas: 2 } }),
      });
      const pods = (
        await kasJson(
          sim(),
          PROD_US,
          '/api/v1/namespaces/search/pods?labelSelector=app.kubernetes.io%2Fname%3Dsearch-indexer',
        )
      ).body.items;
      expect(pods.map((p: any) => p.metadata.name)).toEqual([
        'search-indexer-0',
        'search-indexer-1',
      ]);
      const claims = (
        await kasJson(
          sim(),
          PROD_US,
          '/api/v1/namespaces/search/persistentvolumeclaims',
        )
      ).body.items;
      expect(claims).toHaveLength(4);
      const sts = (
        await kasJson(
          sim(),
          PROD_US,
          '/apis/apps/v1/namespaces/search/statefulsets/search-indexer',
        )
      ).body;
      expect(sts.status).toMatchObject({ replicas: 2, readyReplicas: 2 });
    });

    it('keeps EndpointSlices in step when a Service backend scales', async () => {
      await kas(
        sim(),
        PROD_EU,
        '/apis/apps/v1/namespaces/storefront/deployments/storefront-web/scale',
        {
          method: 'PATCH',
          headers: { 'Content-Type': 'application/merge-patch+json' },
          body: JSON.stringify({ spec: { replicas: 5 } }),
        },
      );
      const slices = (
        await kasJson(
          sim(),
          PROD_EU,
          '/apis/discovery.k8s.io/v1/namespaces/storefront/endpointslices?labelSelector=kubernetes.io%2Fservice-name%3Dstorefront-web',
        )
      ).body.items;
      expect(slices).toHaveLength(1);
      expect(slices[0].endpoints).toHaveLength(5);
    });

    it('answers 405 for methods a path does not support', async () => {
      const response = await kasJson(
        sim(),
        PROD_US,
        '/api/v1/namespaces/storefront/pods',
        { method: 'PUT', body: '{}' },
      );
      expect(response.body).toMatchObject({
        code: 405,
        reason: 'MethodNotAllowed',
      });
    });
  });
});

describe('simulated time', () => {
  const sim = useSimulator({ tickMs: 50 });

  it('restarts crash-looping containers again, visible to watchers as MODIFIED', async () => {
    const response = await kas(
      sim(),
      NONPROD,
      '/api/v1/namespaces/checkout-staging/pods?watch=true',
    );
    const events = await readWatchEvents(response, seen =>
      seen.some(e => e.type === 'MODIFIED'),
    );
    const added = events.find(e => e.type === 'ADDED');
    const modified = events.find(e => e.type === 'MODIFIED');
    expect(
      modified.object.status.containerStatuses[0].restartCount,
    ).toBeGreaterThan(added.object.status.containerStatuses[0].restartCount);
  });
});

describe('creating objects', () => {
  const sim = useSimulator();

  it('creates an object in a collection and refuses a duplicate', async () => {
    const body = JSON.stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'feature-flags' },
      data: { cart: 'on' },
    });
    const created = await kasJson(
      sim(),
      NONPROD,
      '/api/v1/namespaces/checkout-staging/configmaps',
      { method: 'POST', body },
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      kind: 'ConfigMap',
      metadata: {
        name: 'feature-flags',
        namespace: 'checkout-staging',
        uid: expect.any(String),
      },
    });
    const again = await kasJson(
      sim(),
      NONPROD,
      '/api/v1/namespaces/checkout-staging/configmaps',
      { method: 'POST', body },
    );
    expect(again.body).toMatchObject({
      code: 409,
      reason: 'AlreadyExists',
      message: 'configmaps "feature-flags" already exists',
    });
  });

  it('deletes a Deployment with everything it owns', async () => {
    const deleted = await kasJson(
      sim(),
      NONPROD,
      '/apis/apps/v1/namespaces/notifications-dev/deployments/mailhog',
      { method: 'DELETE' },
    );
    expect(deleted.body).toMatchObject({
      kind: 'Status',
      status: 'Success',
      details: { name: 'mailhog', group: 'apps', kind: 'deployments' },
    });
    const replicaSets = (
      await kasJson(
        sim(),
        NONPROD,
        '/apis/apps/v1/namespaces/notifications-dev/replicasets?labelSelector=app.kubernetes.io%2Fname%3Dmailhog',
      )
    ).body.items;
    const pods = (
      await kasJson(
        sim(),
        NONPROD,
        '/api/v1/namespaces/notifications-dev/pods?labelSelector=app.kubernetes.io%2Fname%3Dmailhog',
      )
    ).body.items;
    expect([replicaSets.length, pods.length]).toEqual([0, 0]);
    const slice = (
      await kasJson(
        sim(),
        NONPROD,
        '/apis/discovery.k8s.io/v1/namespaces/notifications-dev/endpointslices?labelSelector=kubernetes.io%2Fservice-name%3Dmailhog',
      )
    ).body.items[0];
    expect(slice.endpoints).toEqual([]);
  });
});

describe('pagination across namespaces whose names prefix each other', () => {
  const scenario = generateScenario({
    projects: 1,
    environmentsPerProject: 1,
    objectsPerEnvironment: 6,
  });
  const configMaps = ['app', 'app-b', 'app.c'].flatMap(namespace =>
    ['one', 'two'].map(name => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace },
      data: {},
    })),
  );
  scenario.clusters[0].objects.push(
    ...expandCluster(configMaps, {
      cluster: 'extra',
      now: new Date(),
      events: false,
    }).filter(o => o.kind === 'ConfigMap'),
  );
  const sim = useSimulator({ scenario });

  it('continues exactly where the previous page ended', async () => {
    const all = (await kasJson(sim(), 1, '/api/v1/configmaps')).body.items.map(
      (c: any) => `${c.metadata.namespace}/${c.metadata.name}`,
    );
    expect(all).toEqual([
      'app/one',
      'app/two',
      'app-b/one',
      'app-b/two',
      'app.c/one',
      'app.c/two',
    ]);
    const paged: string[] = [];
    let token = '';
    do {
      const { body } = await kasJson(
        sim(),
        1,
        `/api/v1/configmaps?limit=1${token ? `&continue=${token}` : ''}`,
      );
      paged.push(
        ...body.items.map(
          (c: any) => `${c.metadata.namespace}/${c.metadata.name}`,
        ),
      );
      token = body.metadata.continue ?? '';
    } while (token);
    expect(paged).toEqual(all);
  });
});
