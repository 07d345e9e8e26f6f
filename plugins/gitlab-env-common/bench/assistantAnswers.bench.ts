/* eslint-disable no-console */
// The size of what an AI assistant is told about a 1,000-object
// environment (goal: under 8 KB, the rest on request), against the
// environment's full read (objects and graph) measured in the same run.
// One application in seven crash-loops (its Pods in CrashLoopBackOff with
// BackOff events), so the unhealthy answer has something to say.
// Sizes only; no timing. Run: npm run bench:assistant -w plugins/gitlab-env-common
import {
  buildResourceGraph,
  KubernetesObject,
  resourceSummary,
  summarizeGraphHealth,
  unhealthyResources,
} from '../src';
import { generateEnvironment } from '../src/graph/testing/generateEnvironment';

const SIZE = Number(process.env.ASSISTANT_OBJECTS ?? 1000);
const GOAL_BYTES = 8 * 1024;

function withCrashLoops(objects: KubernetesObject[]): KubernetesObject[] {
  const events: KubernetesObject[] = [];
  let pods = 0;
  for (const object of objects) {
    if (object.kind !== 'Pod' || pods++ % 7 !== 0) continue;
    const name = object.metadata!.name!;
    object.spec = { restartPolicy: 'Always', ...object.spec };
    object.status = {
      phase: 'Running',
      containerStatuses: [
        {
          name: 'app',
          ready: false,
          restartCount: 12,
          state: {
            waiting: {
              reason: 'CrashLoopBackOff',
              message: `back-off 5m0s restarting failed container=app pod=${name}`,
            },
          },
        },
      ],
    };
    events.push({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: {
        name: `${name}.backoff`,
        namespace: object.metadata!.namespace,
      },
      involvedObject: {
        kind: 'Pod',
        name,
        namespace: object.metadata!.namespace,
        uid: object.metadata!.uid,
      },
      type: 'Warning',
      reason: 'BackOff',
      message: `Back-off restarting failed container app in pod ${name}`,
      count: 40,
      lastTimestamp: '2026-11-26T10:00:00Z',
    });
  }
  return [...objects, ...events];
}

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

function main() {
  const objects = withCrashLoops(generateEnvironment(SIZE));
  const graph = buildResourceGraph(objects);
  const read = {
    environment: { name: 'production', namespace: 'shop' } as any,
    graph,
    resources: objects,
    health: summarizeGraphHealth(graph),
    errors: [],
  };
  const full = bytes({ resources: objects, graph });
  const unhealthy = unhealthyResources(read);
  const deployment = graph.nodes.find(n => n.kind === 'Deployment')!;
  const summary = resourceSummary(deployment, graph, objects, 'shop');
  const rows: Array<[string, number]> = [
    ['unhealthy resources with likely causes', bytes(unhealthy)],
    ['one resource: summary and events', bytes(summary)],
  ];
  console.log(
    `Assistant answers for a ${objects.length}-object environment (${unhealthy.unhealthy.length} unhealthy listed, ${unhealthy.more} more counted)`,
  );
  if (process.env.ASSISTANT_SHOW)
    console.log(JSON.stringify(unhealthy.unhealthy.slice(0, 2), null, 1));
  console.log(`baseline: the full read (objects and graph) ${kb(full)}`);
  for (const [name, size] of rows)
    console.log(
      `${name.padEnd(42)} ${kb(size).padStart(8)}  ${(size / full).toFixed(
        4,
      )}x of the read  ${size < GOAL_BYTES ? 'under' : 'OVER'} the 8 KB goal`,
    );
}

main();
