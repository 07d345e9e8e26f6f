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

/** Medians of a workload and its baselines timed in turns, and the medians of their per-turn ratios. */
export interface Paired {
  workMs: number;
  /** Per baseline, in the order given. */
  baselineMs: number[];
  /** Per baseline, the median over the turns of work ÷ baseline: a slow moment of the machine slows every side of a turn. */
  ratio: number[];
}

/**
 * Times `work` and its baselines in turns after a shared warm-up, so all
 * see the same machine: the ratios are what to compare across runs and
 * machines, not the milliseconds.
 */
export function timePaired(
  work: () => unknown,
  baselines: Array<() => unknown>,
  runs: number,
): Paired {
  const all = [work, ...baselines];
  for (let i = 0; i < 8; i++) for (const run of all) run();
  const times: number[][] = all.map(() => []);
  const ratios: number[][] = baselines.map(() => []);
  for (let i = 0; i < runs; i++) {
    // Which goes first rotates, so none always follows another's garbage.
    const took: number[] = new Array(all.length);
    for (let k = 0; k < all.length; k++) {
      const at = (i + k) % all.length;
      const started = performance.now();
      all[at]();
      took[at] = performance.now() - started;
    }
    took.forEach((ms, at) => times[at].push(ms));
    baselines.forEach((_, b) => ratios[b].push(took[0] / took[b + 1]));
  }
  return {
    workMs: median(times[0]),
    baselineMs: times.slice(1).map(median),
    ratio: ratios.map(median),
  };
}
