import { registerMswTestHooks } from '@backstage/backend-test-utils';
import { createServer } from 'http';
import { http, HttpResponse, passthrough } from 'msw';
import { AddressInfo } from 'net';
import { setupServer } from 'msw/node';
import { GitlabEnvFailure } from '../errors';
import { KasClient } from './kasClient';

const KAS = 'https://kas.test/k8s-proxy';
const server = setupServer();
registerMswTestHooks(server);

const agent = { id: '7', name: 'prod' };
const unlimited = <T>(fn: () => Promise<T>) => fn();

function client(signal?: AbortSignal) {
  return new KasClient(
    { kasProxyUrl: KAS, token: 'glpat-x', agent },
    2000,
    unlimited,
    { signal, maxBytes: 1e6 },
  );
}

async function failureOf(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    e => e,
  );
  expect(error).toBeInstanceOf(GitlabEnvFailure);
  return (error as GitlabEnvFailure).detail;
}

const linesOf = (...chunks: string[]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks)
        controller.enqueue(new TextEncoder().encode(chunk));
      controller.close();
    },
  });

const CHECK = 'kubectl get pod/web-1 -n prod -o yaml';

/** A KAS that reads the whole request, then drops the connection without answering. */
async function droppingKas() {
  const requests: string[] = [];
  const sockets = new Set<import('net').Socket>();
  const kas = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests.push(`${req.method} ${req.url}`);
      res.socket?.destroy();
    });
  });
  kas.on('connection', socket => sockets.add(socket));
  await new Promise<void>(resolve => kas.listen(0, '127.0.0.1', resolve));
  const { port } = kas.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/k8s-proxy`,
    requests,
    close: () =>
      new Promise<void>(resolve => {
        sockets.forEach(socket => socket.destroy());
        kas.close(() => resolve());
      }),
  };
}

/** A pod delete through a KAS at this URL. */
const deletePodAt = (kasProxyUrl: string) =>
  new KasClient({ kasProxyUrl, token: 'glpat-x', agent }, 2000, unlimited).send(
    {
      method: 'DELETE',
      path: '/api/v1/namespaces/prod/pods/web-1',
      checkWith: CHECK,
    },
  );

describe('KasClient writes', () => {
  it('says WRITE_OUTCOME_UNKNOWN, with the command to check, when the connection drops after the write was sent', async () => {
    server.use(http.all(/^http:\/\/127\.0\.0\.1/, () => passthrough()));
    const kas = await droppingKas();
    try {
      const detail = await failureOf(deletePodAt(kas.url));
      expect(detail.code).toBe('WRITE_OUTCOME_UNKNOWN');
      expect(detail.message).toMatch(/may or may not have been applied/);
      expect(detail.hint).toContain(CHECK);
      // Sent once, never repeated.
      expect(kas.requests).toEqual([
        'DELETE /k8s-proxy/api/v1/namespaces/prod/pods/web-1',
      ]);
    } finally {
      await kas.close();
    }
  });

  it('says KAS_UNAVAILABLE when nothing could be sent (connection refused)', async () => {
    server.use(http.all(/^http:\/\/127\.0\.0\.1/, () => passthrough()));
    const kas = await droppingKas();
    const url = kas.url;
    await kas.close();
    const detail = await failureOf(deletePodAt(url));
    expect(detail.code).toBe('KAS_UNAVAILABLE');
  });

  it('sends a merge patch once with the agent token and returns the API server answer', async () => {
    const seen: Array<{ method: string; type: string | null; body: unknown }> =
      [];
    server.use(
      http.patch(
        `${KAS}/apis/apps/v1/namespaces/prod/deployments/web`,
        async ({ request }) => {
          expect(request.headers.get('authorization')).toBe(
            'Bearer pat:7:glpat-x',
          );
          seen.push({
            method: request.method,
            type: request.headers.get('content-type'),
            body: await request.json(),
          });
          return HttpResponse.json(
            { kind: 'Status', code: 409, reason: 'Conflict' },
            { status: 409 },
          );
        },
      ),
    );
    const response = await client().send({
      method: 'PATCH',
      path: '/apis/apps/v1/namespaces/prod/deployments/web',
      body: { spec: { replicas: 3 } },
      contentType: 'application/merge-patch+json',
      checkWith: CHECK,
    });
    expect(response.status).toBe(409);
    expect(seen).toEqual([
      {
        method: 'PATCH',
        type: 'application/merge-patch+json',
        body: { spec: { replicas: 3 } },
      },
    ]);
  });

  it('never repeats a write that failed with a 5xx', async () => {
    let calls = 0;
    server.use(
      http.delete(`${KAS}/api/v1/namespaces/prod/pods/web-1`, () => {
        calls++;
        return new HttpResponse(null, { status: 503 });
      }),
    );
    const response = await client().send({
      method: 'DELETE',
      path: '/api/v1/namespaces/prod/pods/web-1',
      checkWith: CHECK,
    });
    expect(response.status).toBe(503);
    expect(calls).toBe(1);
  });

  it('reports a disconnected agent as AGENT_NOT_CONNECTED', async () => {
    server.use(
      http.delete(
        `${KAS}/api/v1/namespaces/prod/pods/web-1`,
        () => new HttpResponse('no tunnel', { status: 502 }),
      ),
    );
    const detail = await failureOf(
      client().send({
        method: 'DELETE',
        path: '/api/v1/namespaces/prod/pods/web-1',
        checkWith: CHECK,
      }),
    );
    expect(detail.code).toBe('AGENT_NOT_CONNECTED');
  });

  it('refuses a path it did not plan before anything is sent', async () => {
    const detail = await failureOf(
      client().send({
        method: 'DELETE',
        path: '/api/v1/namespaces/../secrets',
        checkWith: CHECK,
      }),
    );
    expect(detail.code).toBe('INVALID_ENVIRONMENT_SETTING');
  });
});

describe('KasClient watches', () => {
  it('yields each event line, split anywhere across chunks', async () => {
    server.use(
      http.get(
        `${KAS}/api/v1/namespaces/prod/pods`,
        () =>
          new HttpResponse(
            linesOf(
              '{"type":"ADDED","object":{"metadata":{"name":"a"}}}\n{"type":"MOD',
              'IFIED","object":{"metadata":{"name":"a"}}}\n',
              '{"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"9"}}}',
            ),
          ),
      ),
    );
    const events: unknown[] = [];
    for await (const event of client().watch(
      '/api/v1/namespaces/prod/pods?watch=1',
      'Pod',
    ))
      events.push((event as { type: string }).type);
    expect(events).toEqual(['ADDED', 'MODIFIED', 'BOOKMARK']);
  });

  it('ends a watch whose event is not JSON with UPSTREAM_MALFORMED', async () => {
    server.use(
      http.get(
        `${KAS}/api/v1/namespaces/prod/pods`,
        () => new HttpResponse(linesOf('{"type":"ADDED"\n')),
      ),
    );
    const detail = await failureOf(
      (async () => {
        for await (const _ of client().watch(
          '/api/v1/namespaces/prod/pods?watch=1',
          'Pod',
        ));
      })(),
    );
    expect(detail.code).toBe('UPSTREAM_MALFORMED');
  });

  it('maps a refused watch like a refused read', async () => {
    server.use(
      http.get(`${KAS}/api/v1/namespaces/prod/pods`, () =>
        HttpResponse.json(
          { kind: 'Status', code: 403, reason: 'Forbidden' },
          { status: 403 },
        ),
      ),
    );
    const detail = await failureOf(
      client().watch('/api/v1/namespaces/prod/pods?watch=1', 'Pod').next(),
    );
    expect(detail).toMatchObject({ code: 'KIND_FORBIDDEN', resource: 'Pod' });
  });

  it('stops quietly when the caller leaves mid-stream', async () => {
    server.use(
      http.get(
        `${KAS}/api/v1/namespaces/prod/pods`,
        () =>
          new HttpResponse(
            new ReadableStream({
              start(controller) {
                controller.enqueue(
                  new TextEncoder().encode(
                    '{"type":"ADDED","object":{"metadata":{"name":"a"}}}\n',
                  ),
                );
              },
            }),
          ),
      ),
    );
    const caller = new AbortController();
    const seen: unknown[] = [];
    for await (const event of client(caller.signal).watch(
      '/api/v1/namespaces/prod/pods?watch=1',
      'Pod',
    )) {
      seen.push(event);
      caller.abort();
    }
    expect(seen).toHaveLength(1);
  });
});
