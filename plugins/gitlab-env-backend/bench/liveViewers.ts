// The live benchmark's viewers, in a process of their own (see
// live.bench.ts) so the backend's RSS is the backend's alone. Each viewer
// reads one `GET /live` stream as the frontend's streaming fetch does;
// patches of whole objects are parsed for the delay from the simulator's
// write (the CHANGED_AT annotation) to their arrival (the compact tree's
// patches carry no annotation: only their bytes are counted), snapshots
// only counted as bytes:
// a browser tab decodes its own snapshot on its own CPU, while decoding a
// hundred in this one process would measure this process, not the backend.
import { CHANGED_AT } from '@gitlab-env/gitlab-simulator';
import { setMaxListeners } from 'node:events';
import { get, IncomingMessage } from 'node:http';
import { connect } from 'node:net';

const EVENT_END = Buffer.from('\n\n');

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
  // node:http rather than fetch: the viewers are a load generator, and
  // fetch's web streams cost this one process more than the backend.
  const response = await new Promise<IncomingMessage>((resolve, reject) =>
    get(url, { signal }, resolve).on('error', reject),
  );
  // A snapshot spans hundreds of chunks: collect them as bytes, and look
  // for the end of an event only in what arrived since the last look.
  let parts: Buffer[] = [];
  let partsLength = 0;
  const handle = (block: Buffer, at: number) => {
    const head = block.subarray(0, 200).toString('latin1');
    const event = /^event: (.*)$/m.exec(head)?.[1];
    const dataAt = head.indexOf('data: ');
    const data = () =>
      JSON.parse(block.subarray(dataAt + 'data: '.length).toString('utf8'));
    if (event === 'snapshot') {
      viewer.snapshots += 1;
      viewer.snapshotAt ??= at;
      viewer.snapshotBytes ??= block.length;
      // One viewer's is enough to count objects; the rest are not decoded.
      if (viewer.keepsSnapshot) viewer.firstSnapshot ??= data();
    } else if (event === 'status') {
      viewer.firstStatus ??= data();
    } else if (event === 'patch' && delays.measuring) {
      delays.patchBytes += block.length;
      delays.patches += 1;
      for (const o of data().patch.objectsUpserted ?? []) {
        const changed = o.metadata?.annotations?.[CHANGED_AT];
        if (changed) delays.values.push(at - Date.parse(changed));
      }
    }
  };
  try {
    for await (const chunk of response as AsyncIterable<Buffer>) {
      const at = Date.now();
      const previous = parts[parts.length - 1];
      const endsAcross =
        previous?.[previous.length - 1] === 10 && chunk[0] === 10;
      parts.push(chunk);
      partsLength += chunk.length;
      if (!endsAcross && chunk.indexOf(EVENT_END) === -1) continue;
      let pending =
        parts.length === 1 ? parts[0] : Buffer.concat(parts, partsLength);
      let end = pending.indexOf(EVENT_END);
      while (end !== -1) {
        handle(pending.subarray(0, end), at);
        pending = pending.subarray(end + EVENT_END.length);
        end = pending.indexOf(EVENT_END);
      }
      parts = pending.length > 0 ? [pending] : [];
      partsLength = pending.length;
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
  // Every viewer's request listens to it.
  setMaxListeners(urls.length + 10, controller.signal);
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
  const first = viewers[0].firstSnapshot as
    | { resources: { resources: unknown[] } }
    | { tree: { nodes: unknown[] } };
  process.send!({
    type: 'ready',
    firstSnapshotsMs: Date.now() - started,
    firstViewerMs: Math.min(...viewers.map(v => v.snapshotAt!)) - started,
    snapshotBytes: viewers[0].snapshotBytes,
    cpuMs: (() => {
      const { user, system } = process.cpuUsage(cpuBefore);
      return (user + system) / 1000;
    })(),
    objects:
      'tree' in first
        ? first.tree.nodes.length
        : first.resources.resources.length,
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
