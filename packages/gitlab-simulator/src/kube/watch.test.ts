import {
  kas,
  kasJson,
  NONPROD,
  PROD_US,
  readWatchEvents,
  useSimulator,
} from '../testing/harness';
import { CHANGED_AT } from '../cluster/churn';

// Each behaviour follows https://kubernetes.io/docs/reference/using-api/api-concepts/
// (sections named in the test titles) and apiserver's cacher/etcd3 store.
describe('watch like kube-apiserver', () => {
  const sim = useSimulator({
    tickMs: 0,
    clusterKnobs: { bookmarkIntervalMs: 100 },
  });

  const touch = (agent: number, path: string, value: string) =>
    kas(sim(), agent, path, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/merge-patch+json' },
      body: JSON.stringify({ metadata: { labels: { touched: value } } }),
    });

  const listVersion = async (agent: number, path: string) =>
    (await kasJson(sim(), agent, path)).body.metadata.resourceVersion as string;

  afterEach(() => {
    sim().setClusterKnobs({ watchHistoryLimit: 10_000 });
  });

  it('"Efficient detection of changes": a watch from a list resourceVersion replays only later changes, in order', async () => {
    const rv = await listVersion(
      PROD_US,
      '/api/v1/namespaces/checkout/configmaps',
    );
    const cm = (
      await kasJson(sim(), PROD_US, '/api/v1/namespaces/checkout/configmaps')
    ).body.items[0].metadata.name;
    await touch(PROD_US, `/api/v1/namespaces/checkout/configmaps/${cm}`, 'one');
    await touch(PROD_US, `/api/v1/namespaces/checkout/configmaps/${cm}`, 'two');
    const response = await kas(
      sim(),
      PROD_US,
      `/api/v1/namespaces/checkout/configmaps?watch=1&resourceVersion=${rv}&timeoutSeconds=5`,
    );
    const events = await readWatchEvents(response, e => e.length >= 2);
    expect(events.map(e => [e.type, e.object.metadata.labels.touched])).toEqual(
      [
        ['MODIFIED', 'one'],
        ['MODIFIED', 'two'],
      ],
    );
    expect(Number(events[1].object.metadata.resourceVersion)).toBeGreaterThan(
      Number(events[0].object.metadata.resourceVersion),
    );
  });

  it('"Resource versions": resourceVersion 0 and unset start with the current state as ADDED events', async () => {
    for (const rv of ['0', '']) {
      const response = await kas(
        sim(),
        PROD_US,
        `/api/v1/namespaces/storefront/pods?watch=true&timeoutSeconds=1${
          rv ? `&resourceVersion=${rv}` : ''
        }`,
      );
      const events = (await response.text())
        .trim()
        .split('\n')
        .map(l => JSON.parse(l));
      expect(events.length).toBe(3);
      expect(events.every(e => e.type === 'ADDED')).toBe(true);
    }
  });

  it('"410 Gone responses": a version older than the kept history ends the watch with an Expired ERROR event', async () => {
    const path = '/api/v1/namespaces/checkout/configmaps';
    const rv = await listVersion(PROD_US, path);
    const cm = (await kasJson(sim(), PROD_US, path)).body.items[0].metadata
      .name;
    await touch(PROD_US, `${path}/${cm}`, 'gone');
    sim().cluster(PROD_US).expireResourceVersions();
    const response = await kas(
      sim(),
      PROD_US,
      `/api/v1/namespaces/checkout/configmaps?watch=1&resourceVersion=${rv}`,
    );
    expect(response.status).toBe(200);
    const lines = (await response.text()).trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toEqual({
      type: 'ERROR',
      object: expect.objectContaining({
        kind: 'Status',
        status: 'Failure',
        reason: 'Expired',
        code: 410,
        message: expect.stringMatching(
          /^too old resource version: \d+ \(\d+\)$/,
        ),
      }),
    });
  });

  it('keeps only watchHistoryLimit changes: an older version expires, a recent one resumes', async () => {
    sim().setClusterKnobs({ watchHistoryLimit: 3 });
    const path = '/api/v1/namespaces/checkout/configmaps';
    const old = await listVersion(PROD_US, path);
    const cm = (await kasJson(sim(), PROD_US, path)).body.items[0].metadata
      .name;
    for (const v of ['a', 'b', 'c', 'd'])
      await touch(PROD_US, `${path}/${cm}`, v);
    const recent = await listVersion(PROD_US, path);
    const expired = await (
      await kas(sim(), PROD_US, `${path}?watch=1&resourceVersion=${old}`)
    ).text();
    expect(JSON.parse(expired.trim()).object.code).toBe(410);
    const resumed = await kas(
      sim(),
      PROD_US,
      `${path}?watch=1&resourceVersion=${recent}&timeoutSeconds=5`,
    );
    const eventsPromise = readWatchEvents(resumed, e => e.length >= 1);
    await touch(PROD_US, `${path}/${cm}`, 'e');
    expect((await eventsPromise)[0]).toMatchObject({
      type: 'MODIFIED',
      object: { metadata: { labels: { touched: 'e' } } },
    });
  });

  it('expires open watches with the etcd compaction ERROR when asked', async () => {
    const rv = await listVersion(
      PROD_US,
      '/api/v1/namespaces/checkout/configmaps',
    );
    const response = await kas(
      sim(),
      PROD_US,
      `/api/v1/namespaces/checkout/configmaps?watch=1&resourceVersion=${rv}`,
    );
    const text = response.text();
    await new Promise(resolve => setTimeout(resolve, 50));
    sim().cluster(PROD_US).expireResourceVersions({ openWatches: true });
    expect(JSON.parse((await text).trim())).toMatchObject({
      type: 'ERROR',
      object: {
        code: 410,
        reason: 'Expired',
        message: 'The resourceVersion for the provided watch is too old.',
      },
    });
  });

  it('"Retrieving large results sets in chunks": a continue token older than the history answers 410 with a fresh token', async () => {
    const first = await kasJson(sim(), PROD_US, '/api/v1/pods?limit=2');
    expect(first.body.metadata.continue).toBeDefined();
    sim().cluster(PROD_US).expireResourceVersions();
    const cm = (
      await kasJson(sim(), PROD_US, '/api/v1/namespaces/checkout/configmaps')
    ).body.items[0].metadata.name;
    await touch(PROD_US, `/api/v1/namespaces/checkout/configmaps/${cm}`, 'x');
    sim().cluster(PROD_US).expireResourceVersions();
    const next = await kasJson(
      sim(),
      PROD_US,
      `/api/v1/pods?limit=2&continue=${first.body.metadata.continue}`,
    );
    expect(next.status).toBe(410);
    expect(next.body).toMatchObject({
      reason: 'Expired',
      message: expect.stringMatching(
        /^The provided continue parameter is too old to display a consistent list result/,
      ),
      metadata: { continue: expect.any(String) },
    });
  });

  it('"Resource versions" for lists: Exact serves only the current version here, a match needs a version, a future one waits then 504', async () => {
    const path = '/api/v1/namespaces/checkout/configmaps';
    const rv = await listVersion(PROD_US, path);
    const exact = await kasJson(
      sim(),
      PROD_US,
      `${path}?resourceVersion=${rv}&resourceVersionMatch=Exact`,
    );
    expect(exact.status).toBe(200);
    const older = await kasJson(
      sim(),
      PROD_US,
      `${path}?resourceVersion=${Number(rv) - 1}&resourceVersionMatch=Exact`,
    );
    expect(older.status).toBe(410);
    expect(older.body.message).toBe(
      'The resourceVersion for the provided list is too old.',
    );
    expect(
      (
        await kasJson(
          sim(),
          PROD_US,
          `${path}?resourceVersionMatch=NotOlderThan`,
        )
      ).status,
    ).toBe(422);
    expect(
      (await kasJson(sim(), PROD_US, `${path}?resourceVersion=0`)).status,
    ).toBe(200);
  });

  it('"Watch bookmarks": BOOKMARK events carry only the current resourceVersion, and only when allowed', async () => {
    const path = '/apis/apps/v1/namespaces/storefront/deployments';
    const rv = await listVersion(PROD_US, path);
    const response = await kas(
      sim(),
      PROD_US,
      `${path}?watch=1&allowWatchBookmarks=true&resourceVersion=${rv}&timeoutSeconds=5`,
    );
    const [bookmark] = await readWatchEvents(response, e => e.length >= 1);
    expect(bookmark).toEqual({
      type: 'BOOKMARK',
      object: {
        kind: 'Deployment',
        apiVersion: 'apps/v1',
        metadata: {
          resourceVersion: sim().cluster(PROD_US).store.resourceVersion,
        },
      },
    });
    const without = await (
      await kas(
        sim(),
        PROD_US,
        `${path}?watch=1&resourceVersion=${rv}&timeoutSeconds=1`,
      )
    ).text();
    expect(without).toBe('');
  });

  it('sends a last bookmark 2 s before timeoutSeconds ends the watch (cacheWatcher.nextBookmarkTime)', async () => {
    sim().setClusterKnobs({ bookmarkIntervalMs: 0 });
    try {
      const path = '/apis/apps/v1/namespaces/storefront/deployments';
      const rv = await listVersion(PROD_US, path);
      const response = await kas(
        sim(),
        PROD_US,
        `${path}?watch=1&allowWatchBookmarks=true&resourceVersion=${rv}&timeoutSeconds=3`,
      );
      const text = await response.text();
      const events = text
        .trim()
        .split('\n')
        .map(line => JSON.parse(line));
      expect(events.filter(e => e.type === 'BOOKMARK')).toHaveLength(1);
      expect(events[events.length - 1].type).toBe('BOOKMARK');
    } finally {
      sim().setClusterKnobs({ bookmarkIntervalMs: 100 });
    }
  });

  it('"Streaming lists": sendInitialEvents needs bookmarks and NotOlderThan, then ends the initial state with an annotated bookmark', async () => {
    const path = '/api/v1/namespaces/storefront/pods';
    const refused = await kasJson(
      sim(),
      PROD_US,
      `${path}?watch=1&sendInitialEvents=true`,
    );
    expect(refused.status).toBe(422);
    expect(refused.body.message).toContain(
      'sendInitialEvents requires setting allowWatchBookmarks to true',
    );
    const response = await kas(
      sim(),
      PROD_US,
      `${path}?watch=1&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&timeoutSeconds=5`,
    );
    const events = await readWatchEvents(response, e => e.length >= 4);
    expect(events.slice(0, 3).every(e => e.type === 'ADDED')).toBe(true);
    expect(events[3]).toMatchObject({
      type: 'BOOKMARK',
      object: {
        metadata: { annotations: { 'k8s.io/initial-events-end': 'true' } },
      },
    });
  });

  it('refuses an unparsable resourceVersion with 400 and waits, then answers 504, for a future one', async () => {
    const bad = await kasJson(
      sim(),
      PROD_US,
      '/api/v1/pods?watch=1&resourceVersion=abc',
    );
    expect(bad.status).toBe(400);
    const future = Number(sim().cluster(PROD_US).store.resourceVersion) + 1000;
    const tooLarge = await kasJson(
      sim(),
      PROD_US,
      `/api/v1/pods?watch=1&resourceVersion=${future}`,
    );
    expect(tooLarge.status).toBe(504);
    expect(tooLarge.body).toMatchObject({
      reason: 'Timeout',
      details: { causes: [{ reason: 'ResourceVersionTooLarge' }] },
    });
  });

  it('watches cluster-wide (/api/v1/pods) with label and field selectors', async () => {
    const rv = await listVersion(NONPROD, '/api/v1/pods');
    const response = await kas(
      sim(),
      NONPROD,
      `/api/v1/pods?watch=1&resourceVersion=${rv}&fieldSelector=metadata.namespace%3Dnotifications-dev&labelSelector=app.kubernetes.io%2Fname%3Dmailhog&timeoutSeconds=5`,
    );
    const eventsPromise = readWatchEvents(response, e => e.length >= 1);
    const pods = (await kasJson(sim(), NONPROD, '/api/v1/pods')).body.items;
    // A change elsewhere is not seen; the selected pod's change is.
    const other = pods.find(
      (p: any) => p.metadata.namespace !== 'notifications-dev',
    );
    await touch(
      NONPROD,
      `/api/v1/namespaces/${other.metadata.namespace}/pods/${other.metadata.name}`,
      'no',
    );
    const mailhog = pods.find(
      (p: any) =>
        p.metadata.namespace === 'notifications-dev' &&
        p.metadata.labels?.['app.kubernetes.io/name'] === 'mailhog',
    );
    await touch(
      NONPROD,
      `/api/v1/namespaces/notifications-dev/pods/${mailhog.metadata.name}`,
      'yes',
    );
    const [event] = await eventsPromise;
    expect(event.object.metadata).toMatchObject({
      name: mailhog.metadata.name,
      labels: { touched: 'yes' },
    });
  });

  it('sends an object leaving the selection as DELETED with its last matching state (cacher convertToWatchEvent)', async () => {
    const path = '/api/v1/namespaces/checkout/configmaps';
    const cm = (await kasJson(sim(), PROD_US, path)).body.items[0].metadata
      .name;
    await touch(PROD_US, `${path}/${cm}`, 'in');
    const rv = await listVersion(PROD_US, path);
    const response = await kas(
      sim(),
      PROD_US,
      `${path}?watch=1&resourceVersion=${rv}&labelSelector=touched%3Din&timeoutSeconds=5`,
    );
    const eventsPromise = readWatchEvents(response, e => e.length >= 1);
    await touch(PROD_US, `${path}/${cm}`, 'out');
    const [event] = await eventsPromise;
    expect(event.type).toBe('DELETED');
    expect(event.object.metadata.labels.touched).toBe('in');
    expect(event.object.metadata.resourceVersion).toBe(
      (await kasJson(sim(), PROD_US, `${path}/${cm}`)).body.metadata
        .resourceVersion,
    );
  });

  it('drops open watches mid-stream when asked, as a lost agentk tunnel does', async () => {
    const response = await kas(
      sim(),
      PROD_US,
      '/api/v1/pods?watch=1&resourceVersion=0',
    );
    const reader = response.body!.getReader();
    await reader.read();
    expect(sim().dropWatches()).toBeGreaterThanOrEqual(1);
    let ended: 'done' | 'error' | undefined;
    while (!ended) {
      try {
        if ((await reader.read()).done) ended = 'done';
      } catch {
        ended = 'error';
      }
    }
    expect(ended).toBe('error');
    // A followed log is cut the same way.
    const pod = (
      await kasJson(sim(), PROD_US, '/api/v1/namespaces/storefront/pods')
    ).body.items[0];
    const log = await kas(
      sim(),
      PROD_US,
      `/api/v1/namespaces/storefront/pods/${pod.metadata.name}/log?follow=true`,
    );
    const text = log.text().then(
      () => 'ended',
      () => 'cut',
    );
    await new Promise(resolve => setTimeout(resolve, 50));
    expect(sim().dropWatches()).toBe(1);
    expect(await text).toBe('cut');
  });

  it("cuts an agent's open watches when it disconnects (disconnectedAgents), leaving other agents' alone", async () => {
    const cut = await kas(
      sim(),
      PROD_US,
      '/api/v1/pods?watch=1&resourceVersion=0',
    );
    const kept = await kas(
      sim(),
      NONPROD,
      '/api/v1/pods?watch=1&resourceVersion=0&timeoutSeconds=1',
    );
    const reader = cut.body!.getReader();
    await reader.read();
    sim().setFaults({ disconnectedAgents: [String(PROD_US)] });
    try {
      let error: unknown;
      try {
        while (!(await reader.read()).done);
      } catch (e) {
        error = e;
      }
      expect(error).toBeDefined();
      expect((await kas(sim(), PROD_US, '/api/v1/pods')).status).toBe(502);
      expect((await kept.text()).length).toBeGreaterThan(0);
    } finally {
      sim().setFaults({ disconnectedAgents: [] });
    }
  });

  it('serves watch events as Tables with the column definitions only in the first (handlers/watch.go)', async () => {
    const rv = await listVersion(
      PROD_US,
      '/api/v1/namespaces/checkout/configmaps',
    );
    const response = await kas(
      sim(),
      PROD_US,
      `/api/v1/namespaces/checkout/configmaps?watch=1&resourceVersion=${rv}&timeoutSeconds=5`,
      { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } },
    );
    const eventsPromise = readWatchEvents(response, e => e.length >= 2);
    const cm = (
      await kasJson(sim(), PROD_US, '/api/v1/namespaces/checkout/configmaps')
    ).body.items[0].metadata.name;
    await touch(PROD_US, `/api/v1/namespaces/checkout/configmaps/${cm}`, 'p');
    await touch(PROD_US, `/api/v1/namespaces/checkout/configmaps/${cm}`, 'q');
    const [first, second] = await eventsPromise;
    expect(first.object.kind).toBe('Table');
    expect(first.object.columnDefinitions.map((c: any) => c.name)).toEqual([
      'Name',
      'Data',
      'Age',
    ]);
    expect(second.object.columnDefinitions).toBeNull();
    expect(second.object.rows[0].cells[0]).toBe(cm);
  });

  it('makes N pod changes per second for benchmarks, each stamped with its write time', async () => {
    const rv = await listVersion(PROD_US, '/api/v1/namespaces/storefront/pods');
    const response = await kas(
      sim(),
      PROD_US,
      `/api/v1/namespaces/storefront/pods?watch=1&resourceVersion=${rv}&timeoutSeconds=10`,
    );
    const stop = sim()
      .cluster(PROD_US)
      .startChurn(100, { namespaces: ['storefront'] });
    const events = await readWatchEvents(response, e => e.length >= 20);
    stop();
    expect(events.every(e => e.type === 'MODIFIED')).toBe(true);
    expect(
      events.every(
        e =>
          !Number.isNaN(Date.parse(e.object.metadata.annotations[CHANGED_AT])),
      ),
    ).toBe(true);
  });

  it('makes each churned change a container restart when asked, as the kubelet reports one', async () => {
    const path = '/api/v1/namespaces/storefront/pods';
    const before = new Map<string, number>(
      (await kasJson(sim(), PROD_US, path)).body.items.map((pod: any) => [
        pod.metadata.name,
        pod.status.containerStatuses[0].restartCount,
      ]),
    );
    const rv = await listVersion(PROD_US, path);
    const response = await kas(
      sim(),
      PROD_US,
      `${path}?watch=1&resourceVersion=${rv}&timeoutSeconds=10`,
    );
    const stop = sim()
      .cluster(PROD_US)
      .startChurn(100, { namespaces: ['storefront'], restarts: true });
    const [event] = await readWatchEvents(response, e => e.length >= 1);
    stop();
    const pod = event.object;
    expect(pod.status.containerStatuses[0].restartCount).toBe(
      before.get(pod.metadata.name)! + 1,
    );
  });
});
