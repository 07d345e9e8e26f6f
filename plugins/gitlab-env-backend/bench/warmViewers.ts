/* eslint-disable no-console */
import { Entity } from '@backstage/catalog-model';
import { DEFAULT_FAULTS } from '@gitlab-env/gitlab-simulator';
import { get } from 'node:http';
import { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { startBackendOnSimulator } from '../src/__testUtils__/backendOnSimulator';
import { percentile } from '../src/__testUtils__/faultSuite';
import { SimulatorProcess } from './simulatorProcess';

/** Issue #11, item 6: an environment of 50,000 Pods, 40 viewers of it at once. */
const PODS = 50_000;
const VIEWERS = 40;

const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);

function rssAfterGc(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss;
}

/**
 * One viewer, as a browser asks (gzip accepted): the answer read to its end,
 * held and inflated only when asked. node:http, not fetch: fetch inflates as
 * it reads, which is not the backend's work.
 */
function timed(url: string, parse = false) {
  const started = performance.now();
  return new Promise<{
    ms: number;
    status: number;
    bytes: number;
    body: any;
  }>((resolve, reject) => {
    get(
      url,
      { agent: false, headers: { 'accept-encoding': 'gzip' } },
      response => {
        let bytes = 0;
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.byteLength;
          if (parse) chunks.push(chunk);
        });
        response.on('error', reject);
        response.on('end', () => {
          const inflate = (raw: Buffer) =>
            response.headers['content-encoding'] === 'gzip'
              ? gunzipSync(raw)
              : raw;
          resolve({
            ms: performance.now() - started,
            status: response.statusCode ?? 0,
            bytes,
            body: parse
              ? JSON.parse(inflate(Buffer.concat(chunks)).toString())
              : undefined,
          });
        });
      },
    ).on('error', reject);
  });
}

/**
 * The viewers run in this process and read each answer to its end without
 * keeping it, so the RSS is the backend's (and the simulator's process is
 * apart). 40 warm viewers of a 50,000-Pod environment, on a backend with the
 * default settings (limits, TTLs, deadline): one cold read fills the cache,
 * one warm viewer alone gives the baseline, then 40 ask at once. Prints
 * their p50/p99 (and p99 as a ratio to the lone warm viewer), the answer's
 * size and the process's RSS before, at its peak and after.
 */
export async function measureWarmViewers(
  simulator: SimulatorProcess,
  entities: Entity[],
  resourcePath: string,
): Promise<void> {
  await simulator.setFaults({ ...DEFAULT_FAULTS, oversizedListItems: PODS });
  const { server } = await startBackendOnSimulator(simulator, { entities });
  const url = `http://127.0.0.1:${
    (server.address() as AddressInfo).port
  }/api/gitlab-env${resourcePath}`;
  try {
    const before = rssAfterGc();
    const cold = await timed(url, true);
    const alone = await timed(url);
    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    const started = performance.now();
    const viewers = await Promise.all(
      Array.from({ length: VIEWERS }, () => timed(url)),
    );
    const wall = performance.now() - started;
    clearInterval(sampler);
    const durations = viewers.map(v => v.ms);
    const p99 = percentile(durations, 99);
    const statuses = [...new Set(viewers.map(v => v.status))].join(',');
    console.log(
      `\n${VIEWERS} warm viewers of a ${PODS.toLocaleString(
        'en',
      )}-Pod environment (${resourcePath}; default settings): ` +
        `cold read ${cold.ms.toFixed(0)} ms, HTTP ${cold.status}, ${(
          cold.bytes / 1e6
        ).toFixed(1)} MB gzipped (${(
          JSON.stringify(cold.body).length / 1e6
        ).toFixed(1)} MB of JSON), ${
          cold.body.resources?.length ?? 0
        } objects, ${
          cold.body.errors?.map((e: { code: string }) => e.code).join(', ') ||
          'no errors'
        }; one warm viewer alone ${alone.ms.toFixed(0)} ms; ` +
        `${VIEWERS} at once: HTTP ${statuses}, p50 ${percentile(
          durations,
          50,
        ).toFixed(0)} ms, p99 ${p99.toFixed(0)} ms (${(p99 / alone.ms).toFixed(
          1,
        )}x the lone viewer), all answered in ${wall.toFixed(0)} ms; ` +
        `RSS ${mb(before)} MB before, ${mb(peak)} MB at the peak, ${mb(
          rssAfterGc(),
        )} MB after.`,
    );
  } finally {
    server.close();
  }
}
