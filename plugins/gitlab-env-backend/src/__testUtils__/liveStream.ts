import { LiveMessage } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { forEachBlock } from './streamBlocks';

/** One server-sent event as the browser would parse it. */
export interface ReceivedEvent<M = LiveMessage> {
  id?: string;
  event: string;
  message: M;
  receivedAt: number;
  /** The bytes of the event's `data:` line. */
  bytes: number;
}

/**
 * Reads `GET /live` over a real socket with fetch, as the frontend's
 * streaming fetchApi does, and parses the server-sent events.
 */
export async function openLiveStream<M = LiveMessage>(
  baseUrl: string,
  /** `environment=` values, or both parameters (`resume=`: held up to Last-Event-ID). */
  environments: string[] | { environment?: string[]; resume?: string[] },
  headers: Record<string, string> = {},
  /** `tree`: the compact tree the page asks for (LiveTreeMessage). */
  form?: 'tree',
) {
  const controller = new AbortController();
  const { environment = [], resume = [] } = Array.isArray(environments)
    ? { environment: environments }
    : environments;
  const query = [
    ...environment.map(e => `environment=${encodeURIComponent(e)}`),
    ...resume.map(e => `resume=${encodeURIComponent(e)}`),
    ...(form ? [`form=${form}`] : []),
  ].join('&');
  const response = await fetch(`${baseUrl}/api/gitlab-env/live?${query}`, {
    headers,
    signal: controller.signal,
  });
  const events: ReceivedEvent<M>[] = [];
  const waiters = new Set<() => void>();
  let ended = false;
  const reading = (async () => {
    if (response.status !== 200) return;
    try {
      await forEachBlock(response.body, '\n\n', block => {
        const fields = Object.fromEntries(
          block
            .split('\n')
            .filter(line => !line.startsWith(':'))
            .map(line => {
              const at = line.indexOf(': ');
              return [line.slice(0, at), line.slice(at + 2)];
            }),
        );
        // A block of comments only is no event, as browsers parse it.
        if (fields.data !== undefined)
          events.push({
            id: fields.id,
            event: fields.event,
            message: JSON.parse(fields.data),
            receivedAt: Date.now(),
            bytes: Buffer.byteLength(fields.data),
          });
        waiters.forEach(w => w());
      });
    } finally {
      ended = true;
      waiters.forEach(w => w());
    }
  })();

  return {
    response,
    events,
    get ended() {
      return ended;
    },
    /** The first event (from `from` on) that matches, waiting up to `timeoutMs`. */
    next(
      match: (e: ReceivedEvent<M>) => boolean,
      options: { from?: number; timeoutMs?: number } = {},
    ): Promise<ReceivedEvent<M>> {
      const { from = 0, timeoutMs = 10_000 } = options;
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.slice(from).find(match);
          if (found) {
            done();
            resolve(found);
          } else if (ended) {
            done();
            reject(new Error('the stream ended'));
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(
            new Error(
              `no matching event in ${timeoutMs} ms; got ${events
                .map(e => e.event)
                .join(', ')}`,
            ),
          );
        }, timeoutMs);
        function done() {
          clearTimeout(timer);
          waiters.delete(check);
        }
        waiters.add(check);
        check();
      });
    },
    async close() {
      controller.abort();
      await reading;
    },
  };
}
