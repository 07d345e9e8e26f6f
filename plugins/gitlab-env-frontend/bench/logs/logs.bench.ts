/* eslint-disable no-console */
/**
 * Log follow speed in Chromium, against a local server that answers the
 * logs route after 100 ms (the upstream latency the issue names), sends a
 * 500-line tail and then 1,000 lines a second, each carrying the time it was
 * sent:
 *   npm run bench:logs -w plugins/gitlab-env-frontend
 * Prints the time to the first lines on screen beside the first chunk's
 * arrival (the raw stream, same run), and how far behind the stream the
 * newest line on screen is while following, beside the same lines rendered
 * unbatched (a state update per chunk re-rendering every line).
 */
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';

const UPSTREAM_LATENCY_MS = 100;
const LINES_PER_SECOND = 1000;
const TICK_MS = 10;
const TAIL_LINES = 500;
const FOLLOW_MS = Number(process.env.BENCH_FOLLOW_MS ?? 10_000);

function logLine(seq: number): string {
  const sent = Date.now();
  return `${new Date(
    sent,
  ).toISOString()} seq=${seq} sent=${sent} level=info msg="GET /api/cart/${
    seq % 97
  } 200" duration_ms=${
    seq % 13
  } user_agent="Mozilla/5.0 (X11; Linux x86_64)"\n`;
}

/** The logs route: the tail at once, then lines on the clock until the page goes. */
function serveLogs(response: ServerResponse) {
  setTimeout(() => {
    response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    let seq = 0;
    let tail = '';
    while (seq < TAIL_LINES) tail += logLine(seq++);
    response.write(tail);
    const start = Date.now();
    const timer = setInterval(() => {
      // Catch up on the clock, so a slow tick does not slow the stream.
      const due =
        TAIL_LINES +
        Math.floor(((Date.now() - start) * LINES_PER_SECOND) / 1000);
      let chunk = '';
      while (seq < due) chunk += logLine(seq++);
      if (chunk) response.write(chunk);
    }, TICK_MS);
    response.on('close', () => clearInterval(timer));
  }, UPSTREAM_LATENCY_MS);
}

async function main() {
  const bundle = await build({
    entryPoints: [join(__dirname, 'page.tsx')],
    bundle: true,
    write: false,
    format: 'iife',
    minify: true,
    define: { 'process.env.NODE_ENV': '"production"', global: 'window' },
    loader: { '.svg': 'empty', '.css': 'empty' },
    logLevel: 'error',
  });
  const script = bundle.outputFiles[0].text;
  const server = createServer((request: IncomingMessage, response) => {
    if (
      request.url?.startsWith('/api/gitlab-env/') &&
      request.url.includes('/logs?')
    ) {
      serveLogs(response);
    } else if (request.url === '/bench.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' });
      response.end(script);
    } else {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(
        '<!doctype html><body><div id="root"></div><script src="/bench.js"></script></body>',
      );
    }
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  try {
    const results: Record<string, any> = {};
    for (const mode of ['viewer', 'unbatched'] as const) {
      const page = await browser.newPage({
        viewport: { width: 1280, height: 900 },
      });
      await page.goto(`http://127.0.0.1:${port}/`);
      results[mode] = await page.evaluate(
        ([m, ms]) => (window as any).runBench(m, ms),
        [mode, FOLLOW_MS] as const,
      );
      await page.close();
    }
    report(results.viewer, results.unbatched);
  } finally {
    await browser.close();
    server.close();
  }
}

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return (
    sorted[
      Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))
    ] ?? NaN
  );
}

function report(viewer: any, baseline: any) {
  const fps = (r: any) => (r.frames * 1000) / r.followMs;
  const ms = (n: number) => `${Math.round(n)} ms`;
  console.log(
    `Log viewer, ${UPSTREAM_LATENCY_MS} ms upstream latency, ${TAIL_LINES}-line tail, then ${LINES_PER_SECOND} lines/s for ${
      FOLLOW_MS / 1000
    } s (Chromium)`,
  );
  console.log(
    `  first lines on screen: ${ms(
      viewer.firstLineMs,
    )} after opening (target 1000 ms); the raw stream's first chunk arrived at ${ms(
      viewer.firstChunkMs,
    )}: ratio ${(viewer.firstLineMs / viewer.firstChunkMs).toFixed(2)}×`,
  );
  for (const [name, r] of [
    ['viewer   ', viewer],
    ['unbatched', baseline],
  ] as const) {
    console.log(
      `  ${name}: newest line on screen behind the stream by p50 ${ms(
        percentile(r.lagsMs, 50),
      )}, p95 ${ms(percentile(r.lagsMs, 95))}, max ${ms(
        Math.max(...r.lagsMs),
      )}; in the last second p95 ${ms(
        percentile(r.lagsMs.slice(-Math.ceil(fps(r))), 95),
      )}; ${fps(r).toFixed(0)} frames/s; ${r.shownLines} lines on the page`,
    );
  }
  console.log(
    `  unbatched / viewer, p95 lag: ${(
      percentile(baseline.lagsMs, 95) / percentile(viewer.lagsMs, 95)
    ).toFixed(1)}×; frames/s viewer / unbatched: ${(
      fps(viewer) / fps(baseline)
    ).toFixed(1)}×`,
  );
}

main().catch(error => {
  console.error(error);
  process.exitCode = 1;
});
