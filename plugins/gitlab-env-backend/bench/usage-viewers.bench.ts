/* eslint-disable no-console */
// Upstream requests for usage while VIEWERS viewers keep one environment's
// usage open (the page asks every sample interval, with a workload's trend,
// as the drawer does), against one viewer measured in the same run on a
// fresh backend. Counts requests only; no timing. The simulator's prod-us
// runs metrics-server and a kube-prometheus-stack Prometheus.
// Run: npm run bench:usage -w plugins/gitlab-env-backend
import { startGitlabSimulator } from '@gitlab-env/gitlab-simulator';
import request from 'supertest';
import {
  component,
  startBackendOnSimulator,
} from '../src/__testUtils__/backendOnSimulator';

const VIEWERS = Number(process.env.USAGE_VIEWERS ?? 100);
/** Page refreshes per viewer: one per sample interval. */
const ROUNDS = 6;
const INTERVAL_SECONDS = 2;

const entity = component('checkout-api', {
  'gitlab.com/project-slug': 'acme/shop/checkout-api',
});
const usagePath =
  '/api/gitlab-env/entity/default/component/checkout-api/environments/production/usage?workload=Deployment/checkout-api';

type Counts = { metrics: number; prometheus: number; kasTotal: number };

async function measure(viewers: number): Promise<Counts> {
  const simulator = await startGitlabSimulator({ port: 0, tickMs: 0 });
  const backend = await startBackendOnSimulator(simulator, {
    entities: [entity],
    gitlabEnv: {
      usage: {
        sampleIntervalSeconds: INTERVAL_SECONDS,
        // A step per sample interval: the trend is asked again every round.
        prometheus: { stepSeconds: INTERVAL_SECONDS, rangeHours: 0.05 },
      },
    },
  });
  try {
    // The tab opens first: its live state and the instance checks are not
    // what this counts.
    await request(backend.server)
      .get('/api/gitlab-env/entity/default/component/checkout-api/environments')
      .expect(200);
    simulator.resetStats();
    // Rounds on a fixed schedule, so both runs last as long: the sampler
    // reads on its own clock, whatever the number of viewers.
    const started = Date.now();
    const until = (at: number) =>
      new Promise(r => setTimeout(r, Math.max(0, at - Date.now())));
    for (let round = 0; round < ROUNDS; round++) {
      await until(started + round * INTERVAL_SECONDS * 1000);
      const answers = await Promise.all(
        Array.from({ length: viewers }, () =>
          request(backend.server).get(usagePath),
        ),
      );
      const odd = answers.find(
        a => a.status !== 200 || a.body.trend?.source !== 'prometheus',
      );
      if (odd)
        throw new Error(
          `a viewer got ${odd.status}: ${JSON.stringify(
            odd.body.prometheus ??
              odd.body.trend?.source ??
              odd.text.slice(0, 300),
          )}`,
        );
    }
    await until(started + ROUNDS * INTERVAL_SECONDS * 1000);
    const byPath = Object.entries(simulator.stats().byPath);
    const sum = (match: (path: string) => boolean) =>
      byPath.filter(([p]) => match(p)).reduce((s, [, n]) => s + n, 0);
    return {
      metrics: sum(p => p.includes('/apis/metrics.k8s.io/')),
      prometheus: sum(p => p.includes('/proxy/api/v1/')),
      kasTotal: simulator.stats().kas,
    };
  } finally {
    await backend.stop();
    await simulator.close();
  }
}

async function main() {
  const one = await measure(1);
  const many = await measure(VIEWERS);
  const row = (name: string, c: Counts) =>
    `${name.padEnd(12)} ${String(c.metrics).padStart(8)} ${String(
      c.prometheus,
    ).padStart(11)} ${String(c.kasTotal).padStart(10)}`;
  console.log(
    `Usage upstream requests, ${ROUNDS} page refreshes per viewer, one sample interval apart (checkout-api production, prod-us)`,
  );
  console.log(
    `${'viewers'.padEnd(12)} ${'metrics'.padStart(8)} ${'prometheus'.padStart(
      11,
    )} ${'all KAS'.padStart(10)}`,
  );
  console.log(row('1', one));
  console.log(row(String(VIEWERS), many));
  console.log(
    `ratio ${VIEWERS} viewers / 1 viewer: metrics ${(
      many.metrics / one.metrics
    ).toFixed(2)}x, all KAS ${(many.kasTotal / one.kasTotal).toFixed(
      2,
    )}x (goal 1.00x)`,
  );
}

main().catch(error => {
  console.error(error);
  process.exitCode = 1;
});
