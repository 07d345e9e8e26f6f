import http, { ClientRequest } from 'node:http';
import https from 'node:https';

/**
 * The meter's clock: milliseconds since the epoch at performance.now()'s
 * resolution, so that times taken in the backend's process and in the
 * benchmark's compare (performance.now() alone counts from each process's
 * own start).
 */
export const meterClockMs = () => performance.timeOrigin + performance.now();

/** One upstream request as the meter saw it: when it left and came back (meterClockMs), and what it asked. */
export interface MeteredRequest {
  startMs: number;
  endMs: number;
  method: string;
  /** The path and query, without the upstream's origin. */
  path: string;
  /** GraphQL operation names (a batch names several), when the body says them. */
  operations?: string[];
}

function graphqlOperations(body: unknown): string[] | undefined {
  if (typeof body !== 'string') return undefined;
  try {
    const parsed = JSON.parse(body);
    const ops = (Array.isArray(parsed) ? parsed : [parsed]).map(
      (op: { operationName?: string; query?: string }) =>
        op.operationName ??
        /^\s*(?:query|mutation)\s+(\w+)/.exec(op.query ?? '')?.[1] ??
        'anonymous',
    );
    return ops;
  } catch {
    return undefined;
  }
}

type RequestFunction = typeof http.request;

/**
 * Counts the backend's upstream requests at the network boundary, node's
 * `http.request` / `https.request` (what the transport calls): how many,
 * the most in flight at once, and each one's timing until its answer's
 * headers (for the timeline). Installed in the backend's process (the
 * benchmark's own, or the one backendChild.ts runs), so every GitLab and
 * KAS call passes here; calls to other URLs (the benchmark's own, to the
 * backend) are not counted.
 */
export function meterUpstreamRequests(upstreamUrl: string) {
  let requests = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  let log: MeteredRequest[] = [];
  const modules = [http, https];
  const realRequests = modules.map(module => module.request);
  const metered =
    (real: RequestFunction): RequestFunction =>
    (...args: unknown[]) => {
      const sent: ClientRequest = (real as (...a: unknown[]) => ClientRequest)(
        ...args,
      );
      const url = `${sent.protocol}//${sent.getHeader('host')}${sent.path}`;
      if (!url.startsWith(upstreamUrl)) return sent;
      requests += 1;
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const entry: MeteredRequest = {
        startMs: meterClockMs(),
        endMs: NaN,
        method: sent.method,
        path: url.slice(upstreamUrl.length),
      };
      log.push(entry);
      const end = sent.end;
      sent.end = function endWithBody(this: ClientRequest, ...endArgs: any[]) {
        entry.operations = graphqlOperations(endArgs[0]);
        return end.apply(this, endArgs as Parameters<typeof end>);
      } as typeof end;
      const answered = () => {
        if (!Number.isNaN(entry.endMs)) return;
        entry.endMs = meterClockMs();
        inFlight -= 1;
      };
      sent.once('response', answered);
      sent.once('close', answered);
      return sent;
    };
  modules.forEach((module, i) =>
    Object.assign(module, { request: metered(realRequests[i]) }),
  );
  return {
    /** Counts since the last reset. */
    read: () => ({ requests, maxInFlight }),
    /** Every request since the last reset, in the order they left. */
    requests: () => [...log],
    reset() {
      requests = 0;
      maxInFlight = inFlight;
      log = [];
    },
    restore() {
      modules.forEach((module, i) =>
        Object.assign(module, { request: realRequests[i] }),
      );
    },
  };
}

/** What a request is for, by its path: the phase of a page load it belongs to. */
export function phaseOf(request: MeteredRequest): string {
  const path = request.path.split('?')[0];
  if (path.endsWith('/api/graphql'))
    return `GitLab GraphQL ${(request.operations ?? ['?']).join('+')}`;
  if (path.startsWith('/api/v4/')) return `GitLab REST ${path.slice(8)}`;
  const kube = /\/k8s-proxy(\/.*)$/.exec(path)?.[1];
  if (kube === undefined) return `other ${path}`;
  if (
    kube === '/api/v1' ||
    kube === '/apis' ||
    /^\/apis\/[^/]+\/[^/]+$/.test(kube)
  )
    return 'KAS discovery';
  if (
    /\/namespaces\/[^/]+\/[^/]+$/.test(kube) ||
    /^\/apis?\/.+\/[^/]+$/.test(kube)
  )
    return request.method === 'GET' ? 'KAS list' : `KAS ${request.method}`;
  return `KAS ${request.method} ${kube}`;
}

/** Requests in flight, the first to come back on top. */
class EndHeap {
  private readonly items: MeteredRequest[] = [];

  get size() {
    return this.items.length;
  }

  peek(): MeteredRequest {
    return this.items[0];
  }

  push(request: MeteredRequest) {
    const { items } = this;
    items.push(request);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (items[parent].endMs <= items[i].endMs) break;
      [items[parent], items[i]] = [items[i], items[parent]];
      i = parent;
    }
  }

  pop(): MeteredRequest {
    const { items } = this;
    const top = items[0];
    const last = items.pop()!;
    if (items.length > 0) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let least = i;
        if (left < items.length && items[left].endMs < items[least].endMs)
          least = left;
        if (right < items.length && items[right].endMs < items[least].endMs)
          least = right;
        if (least === i) break;
        [items[least], items[i]] = [items[i], items[least]];
        i = least;
      }
    }
    return top;
  }
}

/**
 * The requests as round trips: a request is in round trip n+1 when it left
 * after a request of round trip n came back (it may have waited for it, or
 * for a free slot of a concurrency limit), else in the first round trip of
 * the ones in flight when it left. One line per round trip: when its first
 * request left (from `originMs`, a meterClockMs time), how many requests, and their phases counted.
 *
 * A sweep in the order requests left, with the ones in flight in a heap by
 * when they came back: n log n, so the baseline's tens of thousands of
 * requests are timed in milliseconds. (Comparing every pair took seconds of
 * the benchmark's one event loop, which the backend under test shares.)
 */
export function roundTripTimeline(
  log: readonly MeteredRequest[],
  originMs: number,
): string[] {
  const sorted = [...log].sort((a, b) => a.startMs - b.startMs);
  const depthOf = new Map<MeteredRequest, number>();
  const inFlight = new EndHeap();
  // The deepest round trip among the requests back so far.
  let deepestBack = 0;
  for (let i = 0; i < sorted.length; ) {
    const startMs = sorted[i].startMs;
    while (inFlight.size > 0 && inFlight.peek().endMs <= startMs)
      deepestBack = Math.max(deepestBack, depthOf.get(inFlight.pop())!);
    // Requests that left at the same moment do not follow one another.
    let j = i;
    for (; j < sorted.length && sorted[j].startMs === startMs; j++)
      depthOf.set(sorted[j], deepestBack + 1);
    for (; i < j; i++) inFlight.push(sorted[i]);
  }
  const trips = new Map<number, MeteredRequest[]>();
  for (const request of sorted) {
    const depth = depthOf.get(request)!;
    const trip = trips.get(depth);
    if (trip) trip.push(request);
    else trips.set(depth, [request]);
  }
  return [...trips.entries()]
    .sort(([a], [b]) => a - b)
    .map(([depth, requests]) => {
      const phases = new Map<string, number>();
      let at = Infinity;
      let until = -Infinity;
      for (const r of requests) {
        const phase = phaseOf(r);
        phases.set(phase, (phases.get(phase) ?? 0) + 1);
        at = Math.min(at, r.startMs - originMs);
        until = Math.max(until, r.endMs - originMs);
      }
      return `  round trip ${depth}: ${at.toFixed(0)}-${until.toFixed(0)} ms, ${
        requests.length
      } requests: ${[...phases]
        .map(([phase, n]) => (n > 1 ? `${n} x ${phase}` : phase))
        .join(', ')}`;
    });
}

/**
 * The timeline with runs of round trips that ask the same kinds of
 * requests folded into one line (the overview's hundreds of listings).
 */
export function foldedTimeline(lines: string[]): string[] {
  const shape = (line: string) =>
    line
      .replace(/^ {2}round trip \d+: [\d-]+ ms, \d+ requests: /, '')
      .replace(/\d+ x /g, 'n x ');
  const folded: string[] = [];
  let start = 0;
  for (let i = 1; i <= lines.length; i++) {
    if (i < lines.length && shape(lines[i]) === shape(lines[start])) continue;
    if (i - start === 1) folded.push(lines[start]);
    else {
      const first = /round trip (\d+): (\d+)-/.exec(lines[start])!;
      const last = /round trip (\d+): \d+-(\d+) ms/.exec(lines[i - 1])!;
      const requests = lines
        .slice(start, i)
        .reduce((n, l) => n + Number(/ (\d+) requests/.exec(l)![1]), 0);
      folded.push(
        `  round trips ${first[1]}-${last[1]}: ${first[2]}-${
          last[2]
        } ms, ${requests} requests: ${shape(lines[start])}`,
      );
    }
    start = i;
  }
  return folded;
}

/** The median time of `rounds` sequential calls: one upstream round trip as measured here. */
export async function medianMs(rounds: number, call: () => Promise<unknown>) {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}
