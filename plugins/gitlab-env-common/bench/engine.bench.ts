/* eslint-disable no-console */
// The engine's figures, each next to a baseline measured in the same run
// (timings are printed, never asserted: machines are noisy).
//
// What is measured on: objects as a cluster serves them (clusterObjects.ts
// says how and why): about 4.6 KB of JSON each with managedFields,
// annotations, labels and full statuses, as the API server sends them. A
// read parses that JSON; the backend then drops managedFields and the
// last-applied copy, and the engine gets the rest. So a bulk load is set
// against JSON.parse of what the read parsed (the figure: at most 0.5x),
// and, stricter, against JSON.parse of only what the engine keeps, as if
// the cluster sent nothing more. Before timing, the bench checks that the
// served objects give the same graph as the lean generated ones the golden
// graphs are made of, so what is measured is that environment.
//
// 1. Bulk load of a 10,014-object environment, graph with health and
//    roll-up: as a read builds it (`buildResourceGraph`), as a live graph
//    starts (`new LiveResourceGraph(objects)`) and as the backend's live
//    environment fills one (the objects as ADDED events applied to an empty
//    graph), each timed in turns with both parses. Beside them, what any
//    engine does at least: a node per object with its id and health.
//    And, so the figure compares with the benchmark before objects were
//    served whole, the read on that benchmark's lean generated objects
//    (generateEnvironment: about 390 B of JSON each, as the generator
//    makes them, and as parsed from their JSON) against JSON.parse of
//    their JSON.
// 2. Applied watch events on the same environment: per-event p50/p99
//    (goal: p99 under 1 ms), and a status update of the Flux Kustomization
//    that lists every top-level object.
// 3. Many small graphs, as the backend's overview builds them: 1,200 live
//    environments of about 20 objects each, every one a new live graph
//    filled by its first batch of ADDED events, against JSON.parse of the
//    same objects (per environment, as each read parses its own).
// 4. Scaling: 1k, 10k and 50k objects, with `JSON.stringify` of the same
//    objects as a linear control for what the machine's caches and garbage
//    collector alone do to a linear cost.
import {
  KubernetesObject,
  LiveResourceGraph,
  ResourceGraph,
  ResourceNode,
  buildResourceGraph,
  computeHealth,
  resourceId,
  resourceKeyOf,
  summarizeGraphHealth,
} from '../src';
import { generateEnvironment } from '../src/graph/testing/generateEnvironment';
import {
  ServedEnvironment,
  environmentAsServed,
  leanEnvironment,
} from './clusterObjects';
import { measureLiveEngine } from './liveEngineMeasure';
import { time, timePaired } from './timing';

const fixed = (value: number, digits = 2) => value.toFixed(digits);

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

/** What of a graph does not depend on how much of an object the cluster sent. */
function shape(graph: ResourceGraph): string {
  return JSON.stringify({
    nodes: graph.nodes.map(n => [
      n.id,
      n.health?.status,
      n.subtreeHealth,
      n.parentId,
      n.childIds,
      n.missing,
    ]),
    edges: graph.edges,
    roots: graph.roots,
  });
}

function checkSameGraph(environment: ServedEnvironment, size: number) {
  if (
    shape(buildResourceGraph(environment.objects)) !==
    shape(buildResourceGraph(leanEnvironment(size)))
  )
    throw new Error(
      'The served objects give another graph than the generated ones: clusterObjects.ts changed what the engine reads',
    );
}

function bulkLoad(environment: ServedEnvironment) {
  const { objects, served, normalized } = environment;
  const parseServed = () => JSON.parse(served);
  const parseNormalized = () => JSON.parse(normalized);
  console.log(
    `Bulk load of ${objects.length} objects (graph + health + roll-up), ${fixed(
      served.length / 1e6,
      1,
    )} MB of JSON as served (${fixed(
      normalized.length / 1e6,
      1,
    )} MB as the engine keeps them), 21 turns each (goal: a read, a live graph and a live environment <= 0.50x JSON.parse of what the read parses):`,
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
    const paired = timePaired(work, [parseServed, parseNormalized], 21);
    console.log(
      `  ${name}: ${fixed(paired.workMs)} ms; JSON.parse ${fixed(
        paired.baselineMs[0],
      )} ms as served: ratio ${fixed(paired.ratio[0])}x; ${fixed(
        paired.baselineMs[1],
      )} ms as kept: ${fixed(paired.ratio[1])}x`,
    );
  }
  return time(parseServed, 15);
}

function bulkLoadLean(size: number) {
  const generated = generateEnvironment(size);
  const text = JSON.stringify(generated);
  const parsed: KubernetesObject[] = JSON.parse(text);
  const parse = () => JSON.parse(text);
  console.log(
    `The read on the earlier benchmark's lean generated objects: ${
      generated.length
    } objects, ${fixed(
      text.length / 1e6,
      1,
    )} MB of JSON, 21 turns each (the whole-graph builder before the one engine: 0.96x):`,
  );
  const ways: Array<[string, KubernetesObject[]]> = [
    ['as the generator makes them', generated],
    ['as parsed from their JSON', parsed],
  ];
  for (const [name, objects] of ways) {
    const paired = timePaired(
      () => summarizeGraphHealth(buildResourceGraph(objects)),
      [parse],
      21,
    );
    console.log(
      `  ${name}: buildResourceGraph ${fixed(
        paired.workMs,
      )} ms; JSON.parse ${fixed(paired.baselineMs[0])} ms: ratio ${fixed(
        paired.ratio[0],
      )}x`,
    );
  }
}

function liveEvents(objects: KubernetesObject[], parseMs: number) {
  const f = measureLiveEngine(objects.length, 3_000, objects);
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

function smallGraphs(count: number, size: number) {
  const environments = Array.from({ length: count }, () =>
    environmentAsServed(size),
  );
  const batches = environments.map(({ objects }) =>
    objects.map(object => ({ type: 'ADDED' as const, object })),
  );
  const objects = batches.reduce((sum, batch) => sum + batch.length, 0);
  console.log(
    `Many small graphs: ${count} live environments of ${batches[0].length} objects (${objects} in all), each a new live graph filled by one batch of ADDED events, 21 turns each:`,
  );
  const paired = timePaired(
    () => batches.map(batch => new LiveResourceGraph().apply(batch).health),
    [
      () => environments.map(({ served }) => JSON.parse(served)),
      () => environments.map(({ normalized }) => JSON.parse(normalized)),
    ],
    21,
  );
  console.log(
    `  new LiveResourceGraph().apply(batch) for each: ${fixed(
      paired.workMs,
    )} ms; JSON.parse ${fixed(
      paired.baselineMs[0],
    )} ms as served: ratio ${fixed(paired.ratio[0])}x; ${fixed(
      paired.baselineMs[1],
    )} ms as kept: ${fixed(paired.ratio[1])}x`,
  );
}

function scaling() {
  const sizes = [1_000, 10_000, 50_000];
  const environments = sizes.map(size => environmentAsServed(size).objects);
  const medians = environments.map(objects => {
    const size = objects.length;
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
  const control = environments
    .slice(1)
    .map(objects =>
      time(() => JSON.stringify(objects), objects.length >= 50_000 ? 7 : 15),
    );
  console.log(
    `  ratio 50k/10k = ${fixed(
      medians[2] / medians[1],
    )} (linear would be 5.00); ` +
      `control, JSON.stringify of the same objects: ${fixed(
        control[1] / control[0],
      )}`,
  );
}

const environment = environmentAsServed(10_000);
checkSameGraph(environment, 10_000);
const parseMs = bulkLoad(environment);
bulkLoadLean(10_000);
liveEvents(environment.objects, parseMs);
smallGraphs(1_200, 20);
console.log('Scaling (graph + health + roll-up):');
scaling();
