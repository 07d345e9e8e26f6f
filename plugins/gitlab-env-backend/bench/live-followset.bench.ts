/* eslint-disable no-console */
// What a browser tab receives when the set of environments it follows
// changes (the overview widened, a card opened): two environments of
// OBJECTS objects each are held, a third is added. Prints the bytes and
// objects of the new stream until its first id (every environment sent),
// with resume (the held ones named in `resume` with Last-Event-ID) next to
// the same request without it (every environment a snapshot, what the tab
// did before), measured in the same run, and their ratio. Sizes only; no
// timing. Run: npm run bench:live-followset -w plugins/gitlab-env-backend
import {
  environmentSlug,
  generateScenario,
} from '@gitlab-env/gitlab-simulator';
import { openLiveStream } from '../src/__testUtils__/liveStream';
import { backendOnScenario } from './backendOnScenario';

/** Three snapshots of this size stay under the stream's 8 MiB unsent bound. */
const OBJECTS = 1_000;
/** Changes made while the tab's set settles, replayed to the held environments. */
const CHANGES = 20;

async function main() {
  const scenario = generateScenario({
    projects: 1,
    environmentsPerProject: 3,
    objectsPerEnvironment: OBJECTS,
    seed: 13,
  });
  const { simulator, entity, url, close } = await backendOnScenario(scenario, {
    gitlabEnv: {
      limits: { maxObjectsPerEnvironment: OBJECTS * 2 },
      live: { graceSeconds: 60, maxWatchesPerAgent: 100 },
    },
  });
  const environments = scenario.projects[0].environments;
  const keys = environments.map(
    e => `component:default/${entity.metadata.name}/${environmentSlug(e.name)}`,
  );
  try {
    // The tab holds the first two up to lastId.
    const held = await openLiveStream(url, keys.slice(0, 2));
    const lastId = (
      await held.next(e => e.id !== undefined, {
        timeoutMs: 120_000,
      })
    ).id!;
    await held.close();
    // Changes the tab misses while it reopens its stream.
    const cluster = simulator.cluster(environments[0].agent!);
    const stopChurn = cluster.startChurn(CHANGES * 10, {
      namespaces: environments.slice(0, 2).map(e => e.kubernetesNamespace!),
    });
    await new Promise(resolve => setTimeout(resolve, 100));
    stopChurn();
    await new Promise(resolve => setTimeout(resolve, 500));

    const measure = async (
      params: { environment: string[]; resume?: string[] },
      headers: Record<string, string> = {},
    ) => {
      const stream = await openLiveStream(url, params, headers);
      await stream.next(e => e.id !== undefined, { timeoutMs: 120_000 });
      await stream.close();
      let bytes = 0;
      let objects = 0;
      let snapshots = 0;
      for (const { message } of stream.events) {
        if (message.type === 'heartbeat') continue;
        bytes += Buffer.byteLength(JSON.stringify(message));
        if (message.type === 'snapshot') {
          snapshots += 1;
          objects += message.resources.resources.length;
        } else if (message.type === 'patch') {
          objects += message.patch.objectsUpserted.length;
        }
      }
      return { bytes, objects, snapshots };
    };
    const resumed = await measure(
      { environment: [keys[2]], resume: keys.slice(0, 2) },
      { 'last-event-id': lastId },
    );
    const reloaded = await measure({ environment: keys });

    const row = (name: string, r: typeof resumed) =>
      `${name.padEnd(34)} ${String(r.snapshots).padStart(9)} ${String(
        r.objects,
      ).padStart(8)} ${(r.bytes / 1024 / 1024).toFixed(2).padStart(8)} MB`;
    console.log(
      `Set change: 2 held environments of ${OBJECTS} objects, a third added, ${
        CHANGES * 10
      } changes/s for 100 ms meanwhile`,
    );
    console.log(`${''.padEnd(34)} snapshots  objects     bytes`);
    console.log(row('without resume (every snapshot)', reloaded));
    console.log(row('with resume (replay + 1 snapshot)', resumed));
    console.log(
      `bytes: ${(reloaded.bytes / resumed.bytes).toFixed(
        2,
      )}x fewer with resume; objects: ${(
        reloaded.objects / resumed.objects
      ).toFixed(2)}x fewer`,
    );
  } finally {
    await close();
  }
}

main().catch(error => {
  console.error(error);
  process.exitCode = 1;
});
