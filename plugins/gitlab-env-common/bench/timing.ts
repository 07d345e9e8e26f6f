/** The median of some timings. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Median time of `work` after enough warm-up runs for the JIT to settle. */
export function time(work: () => unknown, runs: number): number {
  for (let i = 0; i < 8; i++) work();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    work();
    times.push(performance.now() - started);
  }
  return median(times);
}
