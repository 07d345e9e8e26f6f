/* eslint-disable no-console */
// The backend's memory with every environment of the overview scenario
// (300 entities x 4 environments = 1,200, OVERVIEW_ENTITIES to change) read
// and held in its cache: resident set size and V8 heap after a full
// overview load, against the same process right after start-up as the
// baseline. The backend is set up as a portal without backend.cache
// (Backstage's CacheService on its memory store, which the plugin leaves
// out: see sharedStoreOf), and its cache holds every read (TTL longer than
// the run). Printed, never asserted.
// Run: npm run bench:memory -w plugins/gitlab-env-backend
import { cacheServiceFactory } from '@backstage/backend-defaults/cache';
import { scenarioCatalogEntities } from '@gitlab-env/gitlab-simulator';
import { AddressInfo } from 'node:net';
import { startBackendOnSimulator } from '../src/__testUtils__/backendOnSimulator';
import { loadOverview } from './overviewLoad';
import { overviewScenario } from './scenarios';
import { startSimulatorProcess } from './simulatorProcess';

const ENTITIES = Number(process.env.OVERVIEW_ENTITIES ?? 300);

function settledMemory() {
  // --expose-gc (see the bench:memory script): measure what stays, not garbage
  (globalThis as { gc?: () => void }).gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  return { rss, heapUsed };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

async function main() {
  const simulator = await startSimulatorProcess(
    { name: 'overview', entities: ENTITIES },
    0,
  );
  const { server } = await startBackendOnSimulator(simulator, {
    entities: scenarioCatalogEntities(overviewScenario(ENTITIES)),
    features: [cacheServiceFactory],
    gitlabEnv: { cacheTtlSeconds: 3600 },
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await fetch(`${baseUrl}/api/gitlab-env/health`);
  const started = settledMemory();

  const load = await loadOverview(baseUrl);
  const loaded = settledMemory();
  console.log(
    `entities=${ENTITIES} environments=${load.rows} read with health=${
      load.healthLines
    } (all health in ${(load.allHealthMs / 1000).toFixed(1)} s)`,
  );
  console.log(
    `backend RSS: ${mb(loaded.rss)} with every environment cached; ${mb(
      started.rss,
    )} after start-up (baseline); ratio ${(loaded.rss / started.rss).toFixed(
      2,
    )}; ${mb(loaded.rss - started.rss)} for the cache`,
  );
  console.log(
    `V8 heap used: ${mb(loaded.heapUsed)}; ${mb(
      started.heapUsed,
    )} after start-up; ${(
      (loaded.heapUsed - started.heapUsed) /
      1024 /
      Math.max(load.healthLines, 1)
    ).toFixed(0)} KB per environment`,
  );
  server.close();
  await simulator.close();
  process.exit(0);
}

main().catch(error => {
  console.error(error);
  process.exit(1);
});
