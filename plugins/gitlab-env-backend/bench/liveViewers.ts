// The live benchmark's viewers, in a process of their own (see
// live.bench.ts) so the backend's RSS is the backend's alone. Each viewer
// reads one `GET /live` stream as the frontend's streaming fetch does;
// patches are parsed for the delay from the simulator's write (the
// CHANGED_AT annotation) to their arrival, snapshots only counted.
import { CHANGED_AT } from '@gitlab-env/gitlab-simulator';
import { connect } from 'node:net';

interface Viewer {
  keepsSnapshot: boolean;
  snapshots: number;
  /** When its first snapshot had arrived whole. */
  snapshotAt?: number;
  /** The size of its first snapshot event. */
  snapshotBytes?: number;
  firstSnapshot?: unknown;
  firstStatus?: unknown;
}

async function view(
  url: string,
  viewer: Viewer,
  delays: {
    measuring: boolean;
    values: number[];
    patchBytes: number;
    patches: number;
  },
  signal: AbortSignal,
) {
  const response = await fetch(url, { signal });
  const decoder = new TextDecoder();
  // A snapshot spans hundreds of chunks: collect them, and look for the
  // end of an event only in what arrived since the last look.
  let parts: string[] = [];
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      const at = Date.now();
      const text = decoder.decode(chunk, { stream: true });
      const tail =
        (parts.length > 0 ? parts[parts.length - 1].slice(-1) : '') + text;
      parts.push(text);
      if (!tail.includes('\n\n')) continue;
      let pending = parts.join('');
      parts = [];
      let end = pending.indexOf('\n\n');
      while (end !== -1) {
        const block = pending.slice(0, end);
        pending = pending.slice(end + 2);
        end = pending.indexOf('\n\n');
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = () => JSON.parse(/^data: (.*)$/m.exec(block)![1]);
        if (event === 'snapshot') {
          viewer.snapshots += 1;
          viewer.snapshotAt ??= at;
          viewer.snapshotBytes ??= Buffer.byteLength(block);
          // One viewer's is enough to count objects; the rest are not held.
          if (viewer.keepsSnapshot) viewer.firstSnapshot ??= data();
        } else if (event === 'status') {
          viewer.firstStatus ??= data();
        } else if (event === 'patch' && delays.measuring) {
          delays.patchBytes += block.length;
          delays.patches += 1;
          for (const o of data().patch.objectsUpserted) {
            const changed = o.metadata?.annotations?.[CHANGED_AT];
            if (changed) delays.values.push(at - Date.parse(changed));
          }
        }
      }
      if (pending) parts.push(pending);
    }
  } catch {
    // ended by the signal
  }
}

/**
 * The baseline of the first snapshots: `count` sockets each reading
 * `bytes` from a bare server (the benchmark's process) that writes one
 * shared buffer to each, nothing parsed. Resolves with the time taken.
 */
async function bareTransfer(
  port: number,
  bytes: number,
  count: number,
): Promise<number> {
  const started = Date.now();
  await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<void>((resolve, reject) => {
          let received = 0;
          const socket = connect(port, '127.0.0.1');
          socket.on('data', chunk => {
            received += chunk.length;
            if (received >= bytes) {
              socket.destroy();
              resolve();
            }
          });
          socket.on('error', reject);
        }),
    ),
  );
  return Date.now() - started;
}

async function main() {
  const { urls } = JSON.parse(process.argv[2]) as { urls: string[] };
  const controller = new AbortController();
  const delays = {
    measuring: false,
    values: [] as number[],
    patchBytes: 0,
    patches: 0,
  };
  const viewers: Viewer[] = urls.map((_, i) => ({
    keepsSnapshot: i === 0,
    snapshots: 0,
  }));
  const reading = urls.map((url, i) =>
    view(url, viewers[i], delays, controller.signal),
  );
  const started = Date.now();
  const cpuBefore = process.cpuUsage();
  while (viewers.some(v => v.snapshots === 0 || !v.firstStatus)) {
    await new Promise(resolve => setTimeout(resolve, 50));
  }
  const first = viewers[0].firstSnapshot as {
    resources: { resources: unknown[] };
  };
  process.send!({
    type: 'ready',
    firstSnapshotsMs: Date.now() - started,
    firstViewerMs: Math.min(...viewers.map(v => v.snapshotAt!)) - started,
    snapshotBytes: viewers[0].snapshotBytes,
    cpuMs: (() => {
      const { user, system } = process.cpuUsage(cpuBefore);
      return (user + system) / 1000;
    })(),
    objects: first.resources.resources.length,
    status: viewers[0].firstStatus,
  });
  process.on('message', async (message: { type: string }) => {
    if (message.type === 'measure') {
      delays.measuring = true;
      process.send!({ type: 'measure' });
    }
    if (message.type === 'report') {
      delays.measuring = false;
      process.send!({
        type: 'report',
        delays: delays.values,
        patches: delays.patches,
        meanPatchBytes: delays.patchBytes / Math.max(1, delays.patches),
      });
    }
    if (message.type === 'bare') {
      const { port, bytes, count } = message as unknown as {
        port: number;
        bytes: number;
        count: number;
      };
      process.send!({
        type: 'bare',
        ms: await bareTransfer(port, bytes, count),
      });
    }
    if (message.type === 'close') {
      controller.abort();
      await Promise.all(reading);
      process.exit(0);
    }
  });
}

main().catch(error => {
  console.error(error);
  process.exit(1);
});
