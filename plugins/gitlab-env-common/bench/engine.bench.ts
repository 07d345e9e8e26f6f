/* eslint-disable no-console */
// Graph + health + roll-up over realistic environments; prints the median
// per size and the 50k/10k ratio (5.0 would be perfectly linear). Timings
// are printed, never asserted: machines are noisy.
import { buildResourceGraph, summarizeGraphHealth } from '../src';
import { generateEnvironment } from './generateEnvironment';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function measure(size: number): number {
  const objects = generateEnvironment(size);
  const runs = size >= 50_000 ? 7 : 15;
  // Enough warm-up runs for the JIT to settle before anything is timed.
  for (let i = 0; i < 8; i++) summarizeGraphHealth(buildResourceGraph(objects));
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const graph = buildResourceGraph(objects);
    summarizeGraphHealth(graph);
    times.push(performance.now() - started);
  }
  const result = median(times);
  console.log(
    `objects=${objects.length} median=${result.toFixed(1)}ms ` +
      `(graph + health + roll-up, ${runs} runs)`,
  );
  return result;
}

measure(1_000);
const tenK = measure(10_000);
const fiftyK = measure(50_000);
console.log(
  `ratio 50k/10k = ${(fiftyK / tenK).toFixed(
    2,
  )} (linear would be 5.00; goal < 5.5)`,
);
console.log(`10k objects: ${tenK.toFixed(1)} ms (goal < 50 ms)`);
