import http, { Agent, ServerResponse } from 'http';
import zlib from 'zlib';
import {
  clientLeft,
  LocalUpstream,
  localUpstreams,
  writeEndlessly,
} from '../__testUtils__/localUpstream';
import { GitlabEnvFailure } from '../errors';
import { openUpstreamStream, requestUpstream, UpstreamRequest } from './http';

/**
 * The transport over a socket: what fetch did (decoding, no redirects,
 * aborts) and the bounds, with a reader that stops mid-body.
 */
const upstreams = localUpstreams();
let upstream: LocalUpstream | undefined;

async function serve(
  handler: Parameters<typeof upstreams.serve>[0],
): Promise<string> {
  upstream = await upstreams.serve(handler);
  return upstream.url;
}

const get = (url: string, more: Partial<UpstreamRequest> = {}) =>
  requestUpstream({ url, timeoutMs: 5_000, upstream: 'KAS', ...more });

async function failureOf(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GitlabEnvFailure);
  return (error as GitlabEnvFailure).detail;
}

/** Resolves with a function that resolves it: for "this has happened". */
function signalled() {
  let resolve!: () => void;
  const promise = new Promise<void>(r => {
    resolve = r;
  });
  return { promise, resolve };
}

const BODY = { kind: 'PodList', items: [{ metadata: { name: 'é' } }] };
const encoders: Record<string, (b: Buffer) => Buffer> = {
  gzip: zlib.gzipSync,
  deflate: zlib.deflateSync,
  br: zlib.brotliCompressSync,
  'deflate, gzip': b => zlib.gzipSync(zlib.deflateSync(b)),
};

describe('requestUpstream over node:http', () => {
  it.each(Object.keys(encoders))(
    'asks for compression and decodes a %s body',
    async coding => {
      let asked: string | undefined;
      const url = await serve((req, res) => {
        asked = req.headers['accept-encoding'];
        const body = encoders[coding](Buffer.from(JSON.stringify(BODY)));
        res.writeHead(200, {
          'content-type': 'application/json',
          'content-encoding': coding,
          'content-length': body.byteLength,
        });
        res.end(body);
      });
      const response = await get(url);
      expect(asked).toBe('gzip, deflate');
      expect(response).toMatchObject({ status: 200, body: BODY });
      expect(response.headers.get('content-encoding')).toBe(coding);
    },
  );

  it('leaves the encoding to a caller that asks for one, and a body with none as it came', async () => {
    let asked: string | undefined;
    const url = await serve((req, res) => {
      asked = req.headers['accept-encoding'];
      res.end(JSON.stringify(BODY));
    });
    const response = await get(url, {
      headers: { 'Accept-Encoding': 'identity' },
    });
    expect(asked).toBe('identity');
    expect(response.body).toEqual(BODY);
  });

  it('stops a gzip body at the bound on its decoded bytes (LIMIT_REACHED)', async () => {
    const maxBytes = 1_000_000;
    let left: Promise<void> | undefined;
    let sent: (() => number) | undefined;
    const url = await serve((_req, res) => {
      left = clientLeft(res);
      res.writeHead(200, { 'content-encoding': 'gzip' });
      // Endless zeros, about a thousandth of their size compressed: only
      // a bound on what they decode to ever stops the read.
      const gzip = zlib.createGzip();
      let compressed = 0;
      gzip.on('data', chunk => {
        compressed += chunk.byteLength;
      });
      gzip.pipe(res);
      res.on('close', () => gzip.destroy());
      writeEndlessly(gzip, res, new Uint8Array(64 * 1024));
      sent = () => compressed;
    });
    const detail = await failureOf(get(url, { maxBytes, retries: 0 }));
    expect(detail.code).toBe('LIMIT_REACHED');
    await left;
    expect(sent!()).toBeLessThan(maxBytes);
  });

  it('reads a body whose gzip data is corrupt as garbled: retried, then malformed', async () => {
    const url = await serve((_req, res) => {
      const body = Buffer.from('{"kind":"PodList"} but not gzip');
      res.writeHead(200, {
        'content-encoding': 'gzip',
        'content-length': body.byteLength,
      });
      res.end(body);
    });
    const response = await get(url);
    expect(response.status).toBe(200);
    expect(response.malformed).toBe('a body whose gzip compression is corrupt');
    expect(upstream!.requests).toHaveLength(3);
  });

  it('does not follow a redirect', async () => {
    const url = await serve((req, res) => {
      if (req.url === '/moved') {
        res.writeHead(302, { location: '/elsewhere' });
        res.end();
        return;
      }
      res.end('{}');
    });
    const response = await get(`${url}/moved`);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/elsewhere');
    expect(upstream!.requests).toEqual(['GET /moved']);
  });

  it('ends a read the caller leaves mid-body with UPSTREAM_TIMEOUT, the connection dropped', async () => {
    let left: Promise<void> | undefined;
    const url = await serve((_req, res) => {
      left = clientLeft(res);
      res.writeHead(200, { 'content-type': 'application/json' });
      // Part of a body, and no more.
      res.write('{"items":[');
    });
    const caller = new AbortController();
    const answered = signalled();
    const read = get(url, {
      signal: caller.signal,
      // Told once the answer's headers are in, before its body is read.
      declaredSize: () => {
        answered.resolve();
        return undefined;
      },
    });
    await answered.promise;
    caller.abort();
    const detail = await failureOf(read);
    expect(detail.code).toBe('UPSTREAM_TIMEOUT');
    expect(detail.message).toMatch(/was stopped/);
    await left;
    expect(upstream!.requests).toHaveLength(1);
  });

  it('ends an attempt whose body does not finish within timeoutMs with UPSTREAM_TIMEOUT', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"items":[');
    });
    const detail = await failureOf(get(url, { timeoutMs: 300, retries: 0 }));
    expect(detail.code).toBe('UPSTREAM_TIMEOUT');
    expect(detail.message).toMatch(/did not answer within 300 ms/);
  });

  it('sends a body with its length and type, and keeps the connection for the next request', async () => {
    const seen: string[] = [];
    const url = await serve((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', chunk => {
        body += chunk;
      });
      req.on('end', () => {
        seen.push(
          `${req.method} ${req.headers['content-type']} ${req.headers['content-length']} ${body}`,
        );
        res.end('{}');
      });
    });
    const body = JSON.stringify({ query: 'é' });
    for (const method of ['POST', 'PATCH'] as const)
      await get(url, {
        method,
        body,
        headers: { 'content-type': 'application/json' },
      });
    expect(seen).toEqual([
      `POST application/json ${Buffer.byteLength(body)} ${body}`,
      `PATCH application/json ${Buffer.byteLength(body)} ${body}`,
    ]);
    expect(upstream!.connections()).toBe(1);
  });

  it('goes through http.globalAgent as it is at the request (a proxy agent an adopter installs)', async () => {
    const url = await serve((_req, res) => res.end('{}'));
    const connected: string[] = [];
    class RecordingAgent extends Agent {
      createConnection(
        options: Parameters<Agent['createConnection']>[0],
        callback?: Parameters<Agent['createConnection']>[1],
      ): ReturnType<Agent['createConnection']> {
        connected.push(`${options.host}:${options.port}`);
        return super.createConnection(options, callback);
      }
    }
    const original = http.globalAgent;
    const recording = new RecordingAgent({ keepAlive: true });
    Object.assign(http, { globalAgent: recording });
    try {
      await get(url);
    } finally {
      Object.assign(http, { globalAgent: original });
      recording.destroy();
    }
    expect(connected).toEqual([new URL(url).host]);
  });
});

describe('openUpstreamStream over node:http', () => {
  it('hands a gzip body over decoded, as it arrives', async () => {
    const firstRead = signalled();
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip' });
      const gzip = zlib.createGzip();
      gzip.pipe(res);
      gzip.write('{"type":"ADDED"}\n');
      // Held until the first line has been read: a decoder that waited
      // for more would never hand it over.
      gzip.flush(() => undefined);
      firstRead.promise.then(() => gzip.end('{"type":"DELETED"}\n'));
    });
    const opened = await openUpstreamStream({
      url,
      timeoutMs: 5_000,
      upstream: 'KAS',
    });
    const reader = opened.stream!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('\n')) {
      const { value } = await reader.read();
      text += decoder.decode(value, { stream: true });
    }
    expect(text).toBe('{"type":"ADDED"}\n');
    firstRead.resolve();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    expect(text).toBe('{"type":"ADDED"}\n{"type":"DELETED"}\n');
  });

  it("ends the stream with the caller's signal, the connection dropped", async () => {
    let left: Promise<void> | undefined;
    let response: ServerResponse | undefined;
    const url = await serve((_req, res) => {
      left = clientLeft(res);
      response = res;
      res.writeHead(200);
      res.write('{"type":"ADDED"}\n');
    });
    const caller = new AbortController();
    const opened = await openUpstreamStream({
      url,
      timeoutMs: 5_000,
      upstream: 'KAS',
      signal: caller.signal,
    });
    const reader = opened.stream!.getReader();
    expect((await reader.read()).done).toBe(false);
    caller.abort();
    await expect(reader.read()).rejects.toThrow();
    await left;
    expect(response!.writableEnded).toBe(false);
  });
});
