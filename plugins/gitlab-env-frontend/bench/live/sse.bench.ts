/* eslint-disable no-console */
// Reading one snapshot event from the live stream, as the page does: a
// 10,000-object snapshot's single data line arriving in 64 KB chunks. The
// parser's time is printed next to the floor measured in the same run:
// decoding the same chunks and finding the event's end, nothing more.
// Timings are printed, never asserted. Run: npm run bench:sse -w plugins/gitlab-env-frontend
import { readServerSentEvents } from '../../src/api/live/sse';

const OBJECTS = 10_000;
const CHUNK_BYTES = 64 * 1024;
const RUNS = 5;

function snapshotBytes(): Uint8Array {
  const objects = Array.from({ length: OBJECTS }, (_, i) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `web-${i}`,
      namespace: 'shop',
      uid: `uid-${i}`,
      labels: { app: 'web', 'pod-template-hash': '7d4b9c' },
      creationTimestamp: '2026-11-24T00:00:00Z',
    },
    spec: {
      containers: [
        {
          name: 'web',
          image: 'registry/web:1.2.3',
          // The size of a real pod's spec, so the snapshot is as large as the backend's.
          env: Array.from({ length: 24 }, (_unused, e) => ({
            name: `SETTING_${e}`,
            value: `value-${e}-of-pod-${i}`,
          })),
        },
      ],
    },
    status: {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'True' }],
    },
  }));
  const message = { type: 'snapshot', resources: { objects } };
  return new TextEncoder().encode(
    `id: 1\nevent: snapshot\ndata: ${JSON.stringify(message)}\n\n`,
  );
}

function chunksOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) controller.close();
      else {
        controller.enqueue(bytes.subarray(at, at + CHUNK_BYTES));
        at += CHUNK_BYTES;
      }
    },
  });
}

async function parse(bytes: Uint8Array): Promise<number> {
  const started = performance.now();
  for await (const event of readServerSentEvents(chunksOf(bytes), 64e6))
    if (event.data.length === 0) throw new Error('empty snapshot');
  return performance.now() - started;
}

async function floor(bytes: Uint8Array): Promise<number> {
  const started = performance.now();
  const decoder = new TextDecoder();
  const reader = chunksOf(bytes).getReader();
  const parts: string[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const text = decoder.decode(value, { stream: true });
    parts.push(text);
    if (text.includes('\n\n')) break;
  }
  if (parts.join('').length === 0) throw new Error('nothing read');
  return performance.now() - started;
}

function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main() {
  const bytes = snapshotBytes();
  const parser: number[] = [];
  const base: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    base.push(await floor(bytes));
    parser.push(await parse(bytes));
  }
  console.log(
    `one snapshot of ${OBJECTS} objects (${(bytes.length / 1e6).toFixed(
      1,
    )} MB in ${Math.ceil(
      bytes.length / CHUNK_BYTES,
    )} chunks of 64 KB), median of ${RUNS}: ` +
      `parser ${median(parser).toFixed(0)} ms, decoding alone ${median(
        base,
      ).toFixed(0)} ms (${(median(parser) / median(base)).toFixed(1)}x)`,
  );
}

main().catch(error => {
  console.error(error);
  process.exit(1);
});
