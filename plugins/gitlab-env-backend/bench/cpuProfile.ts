import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

/**
 * Profiles this process from now until stop(): a V8 CPU profile written to
 * `file` and the sampled allocations still held at the end to `<file>.heap`
 * (open both in Chrome's DevTools). An inspector session rather than
 * --cpu-prof, which covers the whole process's life: this covers one load.
 */
export async function startCpuProfile(file: string) {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 500 });
  await session.post('Profiler.start');
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 16384,
    // PROFILE_ALLOCATIONS=all keeps what the collector freed too: what the collector paid for.
    ...(process.env.PROFILE_ALLOCATIONS === 'all'
      ? {
          includeObjectsCollectedByMajorGC: true,
          includeObjectsCollectedByMinorGC: true,
        }
      : {}),
  });
  return {
    stop: async () => {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(file, JSON.stringify(profile));
      const heap = await session.post('HeapProfiler.stopSampling');
      writeFileSync(`${file}.heap`, JSON.stringify(heap.profile));
      session.disconnect();
    },
  };
}
