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

/** Medians of a workload and its baseline timed in turns, and the median of their per-turn ratios. */
export interface Paired {
  workMs: number;
  baselineMs: number;
  /** Median over the turns of work ÷ baseline: a slow moment of the machine slows both sides of a turn. */
  ratio: number;
}

/**
 * Times `work` and `baseline` in alternating turns after a shared warm-up,
 * so both see the same machine: the ratio is what to compare across runs
 * and machines, not the milliseconds.
 */
export function timePaired(
  work: () => unknown,
  baseline: () => unknown,
  runs: number,
): Paired {
  for (let i = 0; i < 8; i++) {
    work();
    baseline();
  }
  const works: number[] = [];
  const baselines: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < runs; i++) {
    // Which goes first alternates, so neither always follows the other's garbage.
    const order = i % 2 === 0 ? [work, baseline] : [baseline, work];
    const took = order.map(run => {
      const started = performance.now();
      run();
      return performance.now() - started;
    });
    const [workMs, baselineMs] = i % 2 === 0 ? took : [took[1], took[0]];
    works.push(workMs);
    baselines.push(baselineMs);
    ratios.push(workMs / baselineMs);
  }
  return {
    workMs: median(works),
    baselineMs: median(baselines),
    ratio: median(ratios),
  };
}
