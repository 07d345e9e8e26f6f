/**
 * Counts the backend's upstream requests at the network boundary, its
 * `fetch`: how many, and the most in flight at once. The benchmarks run the
 * backend in this process, so every GitLab and KAS call passes here; calls
 * to other URLs (the benchmark's own, to the backend) are not counted.
 */
export function meterUpstreamRequests(upstreamUrl: string) {
  let requests = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (input: any, init?: any) => {
    if (
      !String(input instanceof Request ? input.url : input).startsWith(
        upstreamUrl,
      )
    )
      return realFetch(input, init);
    requests += 1;
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      return await realFetch(input, init);
    } finally {
      inFlight -= 1;
    }
  };
  return {
    /** Counts since the last reset. */
    read: () => ({ requests, maxInFlight }),
    reset() {
      requests = 0;
      maxInFlight = inFlight;
    },
    restore() {
      globalThis.fetch = realFetch;
    },
  };
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
