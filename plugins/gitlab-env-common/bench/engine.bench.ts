/* eslint-disable no-console */
// The engine's figures, each next to a baseline measured in the same run
// (timings are printed, never asserted: machines are noisy):
//
// 1. Bulk load: the graph with health and roll-up of a 10,014-object
//    environment, as a read builds it (`buildResourceGraph`), as a live
//    graph starts (`new LiveResourceGraph(objects)`) and as the backend's
//    live environment fills one (the objects as ADDED events applied to an
//    empty graph), each against `JSON.parse` of the same objects, timed in
//    alternating turns. Goal: at most 0.5x. Beside them, what any engine
//    does at least: a node per object with its id and health.
//    The objects are parsed from JSON, as reads and watches get them.
// 2. Applied watch events on the same environment: per-event p50/p99
//    (goal: p99 under 1 ms), and a status update of the Flux Kustomization
//    that lists every top-level object.
// 3. Scaling: 1k, 10k and 50k objects, with `JSON.stringify` of the same
//    objects as a linear control for what the machine's caches and garbage
//    collector alone do to a linear cost.
import {
  KubernetesObject,
  LiveResourceGraph,
  ResourceNode,
  buildResourceGraph,
  computeHealth,
  resourceId,
  resourceKeyOf,
  summarizeGraphHealth,
} from '../src';
import { generateEnvironment } from '../src/graph/testing/generateEnvironment';
import { measureLiveEngine } from './liveEngineMeasure';
import { time, timePaired } from './timing';

const fixed = (value: number, digits = 2) => value.toFixed(digits);

/** An environment as a read gets it: parsed from JSON (strings flat, none shared). */
const environment = (size: number): KubernetesObject[] =>
  JSON.parse(JSON.stringify(generateEnvironment(size)));

/** A node per object with its id and health, and nothing else. */
function nodesAndHealth(objects: KubernetesObject[]): ResourceNode[] {
  const nodes: ResourceNode[] = [];
  for (const object of objects) {
    const key = resourceKeyOf(object);
    if (!key) continue;
    // Fields spelled out: a spread gives V8 a slow object shape.
    nodes.push({
      group: key.group,
      kind: key.kind,
      namespace: key.namespace,
      name: key.name,
      id: resourceId(key),
      version: '',
      health: computeHealth(object),
      childIds: [],
    });
  }
  return nodes;
}

function bulkLoad(objects: KubernetesObject[]) {
  const text = JSON.stringify(objects);
  const parse = () => JSON.parse(text);
  console.log(
    `Bulk load of ${
      objects.length
    } objects (graph + health + roll-up) against JSON.parse of the same ${fixed(
      text.length / 1e6,
      1,
    )} MB, 21 alternating turns each (goal: a read, a live graph and a live environment <= 0.50x):`,
  );
  const ways: Array<[string, () => unknown]> = [
    [
      'a read: buildResourceGraph',
      () => summarizeGraphHealth(buildResourceGraph(objects)),
    ],
    [
      'a live graph: new LiveResourceGraph(objects)',
      () => new LiveResourceGraph(objects).graph(),
    ],
    [
      'a live environment filling up: apply(ADDED events) to an empty graph',
      () =>
        new LiveResourceGraph().apply(
          objects.map(object => ({ type: 'ADDED' as const, object })),
        ).health,
    ],
    [
      'for scale, only a node per object with its id and health',
      () => nodesAndHealth(objects),
    ],
  ];
  for (const [name, work] of ways) {
    const paired = timePaired(work, parse, 21);
    console.log(
      `  ${name}: ${fixed(paired.workMs)} ms, JSON.parse ${fixed(
        paired.baselineMs,
      )} ms, ratio ${fixed(paired.ratio)}x`,
    );
  }
  return time(parse, 15);
}

function liveEvents(parseMs: number) {
  const f = measureLiveEngine(10_000, 3_000);
  console.log(
    `Applied watch events: ${f.events} on ${f.objects} objects (pod crash/recover, pod replaced, workload status, ConfigMap edit, Service re-created):`,
  );
  console.log(
    `  per event, one pass: mean ${fixed(f.meanMs, 3)} ms, p50 ${fixed(
      f.p50Ms,
      3,
    )} ms, p99 ${fixed(f.p99Ms, 3)} ms`,
  );
  console.log(
    `  p99 of each event's fastest of ${f.passes} passes: ${fixed(
      f.steadyP99Ms,
      3,
    )} ms (goal < 1 ms); that p99 / JSON.parse of the environment = ${fixed(
      f.steadyP99Ms / parseMs,
      4,
    )}x; bulk load / mean event = ${fixed(f.rebuildMs / f.meanMs, 0)}x`,
  );
  console.log(
    `  Kustomization status update (${
      f.kustomizationEntries
    } inventory entries): median ${fixed(
      f.kustomizationMs,
    )} ms, bulk load / update = ${fixed(f.rebuildMs / f.kustomizationMs, 0)}x`,
  );
}

function scaling() {
  const sizes = [1_000, 10_000, 50_000];
  const medians = sizes.map(size => {
    const objects = environment(size);
    const runs = size >= 50_000 ? 7 : 15;
    const ms = time(
      () => summarizeGraphHealth(buildResourceGraph(objects)),
      runs,
    );
    console.log(
      `  objects=${objects.length} median=${fixed(ms, 1)} ms (${runs} runs)`,
    );
    return ms;
  });
  // The control, timed after the engine so it cannot disturb its figures.
  const control = [10_000, 50_000].map(size => {
    const objects = environment(size);
    return time(() => JSON.stringify(objects), size >= 50_000 ? 7 : 15);
  });
  console.log(
    `  ratio 50k/10k = ${fixed(
      medians[2] / medians[1],
    )} (linear would be 5.00); ` +
      `control, JSON.stringify of the same objects: ${fixed(
        control[1] / control[0],
      )}`,
  );
}

const parseMs = bulkLoad(environment(10_000));
liveEvents(parseMs);
console.log('Scaling (graph + health + roll-up):');
scaling();
