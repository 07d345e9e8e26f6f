import { createServer, IncomingMessage, ServerResponse } from 'http';
import { AddressInfo, Socket } from 'net';

/**
 * A real HTTP server on 127.0.0.1, for transport tests about a reader that
 * stops mid-body: msw's node:http interception keeps writing a mocked body
 * after the client has gone (and its mock socket then trips an assertion
 * inside Node), so such tests talk to a socket.
 */
export async function localUpstream(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
) {
  const sockets = new Set<Socket>();
  const requests: string[] = [];
  let connections = 0;
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    handler(req, res);
  });
  server.on('connection', socket => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    /** Each request as "METHOD /path", in order. */
    requests,
    /** TCP connections accepted so far. */
    connections: () => connections,
    close: () =>
      new Promise<void>(resolve => {
        sockets.forEach(socket => socket.destroy());
        server.close(() => resolve());
      }),
  };
}

export type LocalUpstream = Awaited<ReturnType<typeof localUpstream>>;

/**
 * For a test file: `serve(handler)` starts a local upstream (closing the
 * one before), and each is closed after its test.
 */
export function localUpstreams() {
  let current: LocalUpstream | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return {
    serve: async (handler: Parameters<typeof localUpstream>[0]) => {
      await current?.close();
      current = await localUpstream(handler);
      return current;
    },
  };
}

/** Resolves when the client leaves the answer: its connection closed. */
export function clientLeft(res: ServerResponse): Promise<void> {
  return new Promise(resolve => res.on('close', () => resolve()));
}

/**
 * Writes `chunk` to `sink` for as long as the client reads (pausing when
 * it does not), until the connection closes; `written()` says how many
 * bytes went out. An endless body: a reader that does not stop by itself
 * never finishes.
 */
export function writeEndlessly(
  sink: NodeJS.WritableStream,
  res: ServerResponse,
  chunk: Uint8Array,
): { written: () => number } {
  let written = 0;
  let open = true;
  res.on('close', () => {
    open = false;
  });
  const pump = () => {
    while (open) {
      written += chunk.byteLength;
      if (!sink.write(chunk)) {
        sink.once('drain', pump);
        return;
      }
    }
  };
  pump();
  return { written: () => written };
}
