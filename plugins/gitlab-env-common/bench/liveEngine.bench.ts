/* eslint-disable no-console */
// The live engine's time per applied watch event on a 10,000-object
// environment, next to a full rebuild (graph + health + roll-up) of the same
// objects measured in the same run. Timings are printed, never asserted.
import { measureLiveEngine } from './liveEngineMeasure';

const f = measureLiveEngine(10_000, 3_000);
console.log(
  `objects=${f.objects} events=${f.events} (pod crash/recover, pod replaced, workload status, ConfigMap edit, Service re-created)`,
);
console.log(
  `full rebuild (graph + health + roll-up): median ${f.rebuildMs.toFixed(
    2,
  )} ms (15 runs)`,
);
console.log(
  `live engine per event: mean ${f.meanMs.toFixed(3)} ms, p50 ${f.p50Ms.toFixed(
    3,
  )} ms, p99 ${f.p99Ms.toFixed(3)} ms (goal < 1 ms)`,
);
console.log(
  `Kustomization status update (${
    f.kustomizationEntries
  } inventory entries): median ${f.kustomizationMs.toFixed(
    2,
  )} ms, rebuild / update = ${(f.rebuildMs / f.kustomizationMs).toFixed(0)}x`,
);
console.log(
  `ratio rebuild / event = ${(f.rebuildMs / f.meanMs).toFixed(
    0,
  )}x (goal >= 50x)`,
);
