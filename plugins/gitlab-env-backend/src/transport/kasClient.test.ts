import { registerMswTestHooks } from '@backstage/backend-test-utils';
import { http, HttpResponse } from 'msw';
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

describe('KasClient writes', () => {
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
      }),
    );
    expect(detail.code).toBe('AGENT_NOT_CONNECTED');
  });

  it('refuses a path it did not plan before anything is sent', async () => {
    const detail = await failureOf(
      client().send({
        method: 'DELETE',
        path: '/api/v1/namespaces/../secrets',
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
