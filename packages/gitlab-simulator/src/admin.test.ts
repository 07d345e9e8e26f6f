import { kas, kasJson, PROD_US, useSimulator } from './testing/harness';

describe('simulator controls over HTTP (/-/simulator, adminApi)', () => {
  const sim = useSimulator({ tickMs: 0, adminApi: true });
  const control = (path: string, init: RequestInit = {}) =>
    fetch(`${sim().url}/-/simulator${path}`, {
      ...init,
      headers: { 'Content-Type': 'application/json' },
    });

  it('reads and sets knobs, without faults or stats touching the controls', async () => {
    const set = await control('/knobs', {
      method: 'PATCH',
      body: JSON.stringify({
        faults: { errorRate: 1 },
        clusterKnobs: { podStartMs: 5 },
      }),
    });
    expect((await set.json()).clusterKnobs.podStartMs).toBe(5);
    const read = await control('/knobs');
    expect(read.status).toBe(200);
    expect((await read.json()).faults.errorRate).toBe(1);
    await control('/knobs', {
      method: 'PATCH',
      body: JSON.stringify({ faults: { errorRate: 0 } }),
    });
    expect(sim().stats().requests).toBe(0);
  });

  it('crashes a pod, expires versions and drops watches', async () => {
    const pod = (
      await kasJson(sim(), PROD_US, '/api/v1/namespaces/storefront/pods')
    ).body.items[0];
    const crashed = await control('/clusters/prod-us/crash', {
      method: 'POST',
      body: JSON.stringify({ namespace: 'storefront', pod: pod.metadata.name }),
    });
    expect(crashed.status).toBe(200);
    const after = (
      await kasJson(
        sim(),
        PROD_US,
        `/api/v1/namespaces/storefront/pods/${pod.metadata.name}`,
      )
    ).body;
    expect(after.status.containerStatuses[0].state.waiting.reason).toBe(
      'CrashLoopBackOff',
    );
    const watch = await kas(
      sim(),
      PROD_US,
      '/api/v1/namespaces/storefront/pods?watch=1&resourceVersion=0',
    );
    const text = watch.text().catch(() => 'dropped');
    await new Promise(resolve => setTimeout(resolve, 50));
    expect(
      await (
        await control('/watches/drop?abrupt=false', { method: 'POST' })
      ).json(),
    ).toEqual({ dropped: 1 });
    expect(await text).toContain('ADDED');
    expect(
      (await control('/clusters/1/expire', { method: 'POST' })).status,
    ).toBe(200);
    expect(
      (await control('/clusters/nope/expire', { method: 'POST' })).status,
    ).toBe(400);
  });

  it('starts and stops churn', async () => {
    const before = Number(sim().cluster(PROD_US).store.resourceVersion);
    await control('/clusters/prod-us/churn', {
      method: 'POST',
      body: JSON.stringify({ perSecond: 200 }),
    });
    await new Promise(resolve => setTimeout(resolve, 200));
    const stopped = await control('/clusters/prod-us/churn', {
      method: 'DELETE',
    });
    expect(await stopped.json()).toEqual({ churning: false });
    expect(
      Number(sim().cluster(PROD_US).store.resourceVersion),
    ).toBeGreaterThan(before);
  });
});
