/* eslint-disable no-console */
// Graph + health + roll-up over realistic environments; prints the median
// per size and the 50k/10k ratio (5.0 would be perfectly linear). Timings
// are printed, never asserted: machines are noisy.
//
// As a control, the same run times JSON.stringify of the same objects: a
// linear workload over the same data, whose 50k/10k ratio shows how much
// this machine's caches and garbage collector alone stretch a linear cost.
import { buildResourceGraph, summarizeGraphHealth } from '../src';
import { generateEnvironment } from './generateEnvironment';
import { time } from './timing';

function measure(size: number): number {
  const objects = generateEnvironment(size);
  const runs = size >= 50_000 ? 7 : 15;
  const result = time(
    () => summarizeGraphHealth(buildResourceGraph(objects)),
    runs,
  );
  console.log(
    `objects=${objects.length} median=${result.toFixed(1)}ms ` +
      `(graph + health + roll-up, ${runs} runs)`,
  );
  return result;
}

/** The control, timed after the engine so it cannot disturb its figures. */
function measureControl(size: number): number {
  const objects = generateEnvironment(size);
  return time(() => JSON.stringify(objects), size >= 50_000 ? 7 : 15);
}

measure(1_000);
const tenK = measure(10_000);
const fiftyK = measure(50_000);
console.log(
  `ratio 50k/10k = ${(fiftyK / tenK).toFixed(
    2,
  )} (linear would be 5.00; goal < 5.5)`,
);
const control = measureControl(50_000) / measureControl(10_000);
console.log(
  `control: JSON.stringify of the same objects, ratio 50k/10k = ${control.toFixed(
    2,
  )}`,
);
console.log(`10k objects: ${tenK.toFixed(1)} ms (goal < 50 ms)`);
