/* eslint-disable no-console */
/**
 * How soon a 10,000-object environment is interactive in Chromium after its
 * data arrives: the tab's graph (buildGraphView, ResourceGraphView) from the
 * compact tree the live stream sends, siblings grouped past the threshold,
 * beside two baselines measured in the same run: the same tree with every
 * sibling drawn but pods (as the tab drew it before grouping), and the
 * whole objects the stream sent before, the engine's tree computed in the
 * page, every sibling drawn but pods (the tab before this change).
 *   npm run bench:tree -w plugins/gitlab-env-frontend
 * Interactive: a click on the first node has been handled (a node
 * selected, or a group showing its next siblings) and the next frame has
 * been painted. The clock starts when the body has arrived whole (no
 * transfer in the figure). BENCH_TREE_SIZE sets the size (default 10,000);
 * BENCH_TREE_RUNS the runs per mode (default 3, the median is printed).
 */
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { build } from 'esbuild';
import { chromium, Page } from 'playwright-core';
import {
  environmentDrift,
  LiveTree,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import {
  environmentResponse,
  generateEnvironment,
} from '../generateEnvironment';
import type { BenchMode } from './page';

const SIZE = Number(process.env.BENCH_TREE_SIZE ?? 10_000);
const RUNS = Number(process.env.BENCH_TREE_RUNS ?? 3);
const MODES: BenchMode[] = ['tree', 'tree-ungrouped', 'objects-ungrouped'];

interface Timings {
  arrivedAt: number;
  readAt: number;
  drawnAt: number;
  interactedAt: number;
  clicked: 'resource' | 'group';
  bytes: number;
  objects: number;
  boxes: number;
}

async function bundle() {
  const result = await build({
    entryPoints: { bench: join(__dirname, 'page.tsx') },
    bundle: true,
    write: false,
    outdir: join(__dirname, 'out'),
    format: 'iife',
    minify: true,
    define: { 'process.env.NODE_ENV': '"production"', global: 'window' },
    loader: { '.svg': 'empty' },
    logLevel: 'error',
  });
  const file = (ext: string) =>
    result.outputFiles.find(f => f.path.endsWith(ext))?.text ?? '';
  return { js: file('.js'), css: file('.css') };
}

async function measure(page: Page, mode: BenchMode): Promise<Timings> {
  await page.evaluate(m => (window as any).runBench(m), mode);
  await page.waitForFunction(() => (window as any).benchTimings().drawnAt, {
    timeout: 120_000,
  });
  // What a person does once the graph shows: click a node (a group shows
  // its next siblings).
  await page.locator('.react-flow__node').first().click({ timeout: 120_000 });
  await page.waitForFunction(
    () => (window as any).benchTimings().interactedAt,
    {
      timeout: 120_000,
    },
  );
  return page.evaluate(() => (window as any).benchTimings());
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main() {
  const { graph, resources } = generateEnvironment(SIZE);
  const response = environmentResponse(
    `generated-${SIZE}`,
    'bench',
    resources,
    graph,
  );
  const bodies: Record<string, string> = {
    '/tree.json': JSON.stringify(
      new LiveTree({
        ...response,
        drift: environmentDrift(response.resources, response.graph),
      }).snapshot(response),
    ),
    '/objects.json': JSON.stringify(response),
  };
  const { js, css } = await bundle();
  const server = createServer((request, reply) => {
    const body = bodies[request.url ?? ''];
    if (body !== undefined) {
      reply.writeHead(200, { 'content-type': 'application/json' });
      reply.end(body);
    } else if (request.url === '/bench.js') {
      reply.writeHead(200, { 'content-type': 'text/javascript' });
      reply.end(js);
    } else if (request.url === '/bench.css') {
      reply.writeHead(200, { 'content-type': 'text/css' });
      reply.end(css);
    } else {
      reply.writeHead(200, { 'content-type': 'text/html' });
      reply.end(
        '<!doctype html><head><link rel="stylesheet" href="/bench.css"></head><body><div id="root"></div><script src="/bench.js"></script></body>',
      );
    }
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  const results = new Map<BenchMode, Timings[]>();
  try {
    // Interleaved, so a busy moment of the machine falls on every mode.
    for (let run = 0; run < RUNS; run++) {
      for (const mode of MODES) {
        const page = await browser.newPage({
          viewport: { width: 1280, height: 900 },
        });
        await page.goto(`http://127.0.0.1:${port}/`);
        const timings = await measure(page, mode);
        results.set(mode, [...(results.get(mode) ?? []), timings]);
        await page.close();
      }
    }
  } finally {
    await browser.close();
    server.close();
  }
  report(results);
}

function report(results: Map<BenchMode, Timings[]>) {
  const row = (mode: BenchMode) => {
    const runs = results.get(mode)!;
    const of = (pick: (t: Timings) => number) => median(runs.map(pick));
    return {
      objects: runs[0].objects,
      bytes: runs[0].bytes,
      boxes: runs[0].boxes,
      read: of(t => t.readAt - t.arrivedAt),
      drawn: of(t => t.drawnAt - t.arrivedAt),
      interactive: of(t => t.interactedAt - t.arrivedAt),
      clicked: runs[0].clicked,
    };
  };
  const page = row('tree');
  console.log(
    `A ${page.objects}-object environment in Chromium, after its data arrived (median of ${RUNS} runs, same run for every line):`,
  );
  const names: Record<BenchMode, string> = {
    tree: 'compact tree, siblings grouped (the tab)',
    'tree-ungrouped': 'compact tree, every sibling drawn but pods',
    'objects-ungrouped': 'whole objects, every sibling drawn but pods (before)',
  };
  for (const mode of MODES) {
    const r = row(mode);
    console.log(
      `  ${names[mode].padEnd(54)} ${(r.bytes / 1024 / 1024).toFixed(
        1,
      )} MB (${Math.round(r.bytes / r.objects)} B an object), ${
        r.boxes
      } boxes: read ${r.read.toFixed(0)} ms, first node drawn ${r.drawn.toFixed(
        0,
      )} ms, interactive ${r.interactive.toFixed(0)} ms (a ${
        r.clicked
      } clicked; ${(r.interactive / page.interactive).toFixed(1)}x the tab's)`,
    );
  }
  console.log(`  goal: the tab interactive < 1000 ms`);
}

main().catch(error => {
  console.error(error);
  process.exitCode = 1;
});
