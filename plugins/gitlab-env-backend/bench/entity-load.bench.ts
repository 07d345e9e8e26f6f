/* eslint-disable no-console */
// One entity page: 3 environments, each namespace holding the built-in kinds
// plus 25 custom resource kinds, behind 100 ms of latency on every upstream
// request. Prints upstream request counts and wall time for a cold load and a
// warm load (within the cache lifetime), and the cold time as a multiple of
// the latency. Timings are printed, never asserted.
// Run: npm run bench -w plugins/gitlab-env-backend
import {
  KubeObject,
  generateScenario,
  scenarioCatalogEntities,
  startGitlabSimulator,
} from '@gitlab-env/gitlab-simulator';
import { AddressInfo } from 'node:net';
import { startBackendOnSimulator } from '../src/__testUtils__/backendOnSimulator';

const LATENCY_MS = 100;
const CUSTOM_KINDS = 25;

type Manifest = KubeObject;

function customResourceDefinition(index: number): Manifest {
  const kind = `Widget${index}`;
  const plural = `widget${index}s`;
  const group = `bench${index}.example.com`;
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { kind, plural, singular: `widget${index}` },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {} },
        },
      ],
    },
  };
}

function customResource(index: number, namespace: string): Manifest {
  return {
    apiVersion: `bench${index}.example.com/v1`,
    kind: `Widget${index}`,
    metadata: {
      name: `widget-${index}`,
      namespace,
      uid: `widget-${index}-${namespace}`,
      creationTimestamp: new Date().toISOString(),
      labels: { 'app.kubernetes.io/part-of': 'bench' },
    },
    spec: {},
    status: { conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

/** A one-project scenario whose cluster also serves 25 custom kinds, one object of each per environment. */
function benchScenario() {
  const scenario = generateScenario({
    projects: 1,
    environmentsPerProject: 3,
    objectsPerEnvironment: 20,
    seed: 5,
  });
  const namespaces = scenario.projects.flatMap(p =>
    p.environments.map(e => e.kubernetesNamespace!),
  );
  const kinds = Array.from({ length: CUSTOM_KINDS }, (_, i) => i + 1);
  scenario.clusters[0].objects.push(
    ...kinds.map(customResourceDefinition),
    ...namespaces.flatMap(ns => kinds.map(i => customResource(i, ns))),
  );
  return scenario;
}

/**
 * The defaults (16 per instance, 8 per agent) protect a shared GitLab; an
 * adopter with one busy agent may raise them, so both are measured.
 */
const CONCURRENCY_SETTINGS = [
  { perInstance: 16, perAgent: 8 },
  { perInstance: 256, perAgent: 256 },
];

async function main() {
  const scenario = benchScenario();
  for (const concurrency of CONCURRENCY_SETTINGS) {
    await run(scenario, concurrency);
  }
  process.exit(0);
}

async function run(
  scenario: ReturnType<typeof benchScenario>,
  concurrency: { perInstance: number; perAgent: number },
) {
  const simulator = await startGitlabSimulator({
    port: 0,
    scenario,
    faults: { latencyMs: LATENCY_MS },
  });
  const [entity] = scenarioCatalogEntities(scenario);
  const { server } = await startBackendOnSimulator(simulator, {
    entities: [entity],
    gitlabEnv: { cacheTtlSeconds: 300, concurrency },
  });
  const entityUrl = `http://127.0.0.1:${
    (server.address() as AddressInfo).port
  }/api/gitlab-env/entity/default/component/${entity.metadata.name}`;

  async function getJson(url: string) {
    const response = await fetch(url);
    if (!response.ok) {
      throw new Error(
        `${url} answered ${response.status}: ${await response.text()}`,
      );
    }
    return response.json();
  }

  // What the entity tab does: the environment cards (with health badges),
  // then every environment's resources and graph, opened in parallel.
  async function loadPage(label: string) {
    simulator.resetStats();
    const started = performance.now();
    const list = await getJson(`${entityUrl}/environments`);
    const listMs = performance.now() - started;
    const listRequests = simulator.stats().requests;
    const resources = await Promise.all(
      list.environments.map((e: { slug: string }) =>
        getJson(`${entityUrl}/environments/${e.slug}/resources`),
      ),
    );
    const totalMs = performance.now() - started;
    const stats = simulator.stats();
    const objects = resources.reduce(
      (n: number, r: { resources: unknown[] }) => n + r.resources.length,
      0,
    );
    const kinds = new Set(
      resources.flatMap((r: { resources: Array<{ kind: string }> }) =>
        r.resources.map(o => o.kind),
      ),
    );
    console.log(
      `${label}: ${list.environments.length} environments, ${objects} objects of ${kinds.size} kinds`,
    );
    console.log(
      `${label}: environments list ${listMs.toFixed(
        0,
      )} ms (${listRequests} upstream requests), ` +
        `whole page ${totalMs.toFixed(0)} ms (${
          stats.requests
        } upstream requests: ` +
        `${stats.graphql} GraphQL, ${stats.rest} REST, ${stats.kas} KAS)`,
    );
    return totalMs;
  }

  console.log(
    `\nupstream latency ${LATENCY_MS} ms per request, ${CUSTOM_KINDS} custom kinds per namespace, ` +
      `concurrency ${concurrency.perInstance} per instance / ${concurrency.perAgent} per agent`,
  );
  const coldMs = await loadPage('cold');
  console.log(
    `cold page = ${(coldMs / LATENCY_MS).toFixed(
      1,
    )} x upstream latency (goal <= 4)`,
  );
  await loadPage('warm');

  server.close();
  await simulator.close();
}

main().catch(error => {
  console.error(error);
  process.exit(1);
});
