/* eslint-disable no-console */
/**
 * How much the simulator itself costs a benchmark: scenario generation,
 * start-up, and the latency of the requests a backend makes (printed, never
 * asserted). Run: npm run bench -w packages/gitlab-simulator
 */
import { performance } from 'perf_hooks';
import { DEMO_TOKEN, generateScenario, startGitlabSimulator } from '../src';
import { percentile } from './percentile';

const PROJECTS = 300;
const ENVIRONMENTS = 4;
const OBJECTS = 20;

async function measure(
  label: string,
  requests: Array<() => Promise<unknown>>,
  concurrency: number,
) {
  const durations: number[] = [];
  const queue = [...requests];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const t = performance.now();
        await next();
        durations.push(performance.now() - t);
      }
    }),
  );
  const total = performance.now() - started;
  durations.sort((a, b) => a - b);
  console.log(
    `${label.padEnd(44)} n=${String(durations.length).padStart(
      5,
    )}  c=${concurrency}  ` +
      `p50 ${percentile(durations, 50).toFixed(2)} ms  p95 ${percentile(
        durations,
        95,
      ).toFixed(2)} ms  ` +
      `${((durations.length / total) * 1000).toFixed(0)} req/s`,
  );
}

async function main() {
  let t = performance.now();
  const scenario = generateScenario({
    projects: PROJECTS,
    environmentsPerProject: ENVIRONMENTS,
    objectsPerEnvironment: OBJECTS,
  });
  const objects = scenario.clusters.reduce((n, c) => n + c.objects.length, 0);
  console.log(
    `generateScenario ${PROJECTS}x${ENVIRONMENTS}x${OBJECTS}: ${objects} objects in ${(
      performance.now() - t
    ).toFixed(0)} ms`,
  );
  t = performance.now();
  const sim = await startGitlabSimulator({ scenario, tickMs: 0 });
  console.log(`startGitlabSimulator: ${(performance.now() - t).toFixed(0)} ms`);

  const gitlab = {
    Authorization: `Bearer ${DEMO_TOKEN}`,
    'Content-Type': 'application/json',
  };
  const kas = { Authorization: `Bearer pat:1:${DEMO_TOKEN}` };
  const projects = scenario.projects.filter(p => p.environments.length > 0);
  const query = `query($p: ID!) { project(fullPath: $p) { environments(first: 100) { nodes { name kubernetesNamespace clusterAgent { id } lastDeployment(status: SUCCESS) { sha } } } } }`;
  const graphqlRequests = projects.map(p => async () => {
    const response = await fetch(sim.graphqlUrl, {
      method: 'POST',
      headers: gitlab,
      body: JSON.stringify({ query, variables: { p: p.fullPath } }),
    });
    await response.json();
  });
  const namespaces = projects.flatMap(p =>
    p.environments.map(e => e.kubernetesNamespace!),
  );
  const listRequests = (resource: string) =>
    namespaces.map(ns => async () => {
      const response = await fetch(
        `${sim.kasProxyUrl}${resource.replace('{ns}', ns)}`,
        { headers: kas },
      );
      await response.json();
    });

  for (const concurrency of [1, 8]) {
    await measure(
      'GraphQL environments per project',
      graphqlRequests,
      concurrency,
    );
    await measure(
      'KAS list pods per namespace',
      listRequests('/api/v1/namespaces/{ns}/pods'),
      concurrency,
    );
    await measure(
      'KAS list deployments per namespace',
      listRequests('/apis/apps/v1/namespaces/{ns}/deployments'),
      concurrency,
    );
  }
  t = performance.now();
  const all = await (
    await fetch(`${sim.kasProxyUrl}/api/v1/pods`, { headers: kas })
  ).json();
  console.log(
    `KAS list all ${all.items.length} pods: ${(performance.now() - t).toFixed(
      0,
    )} ms`,
  );
  const stats = sim.stats();
  console.log(
    `requests served: ${stats.requests} (graphql ${stats.graphql}, rest ${stats.rest}, kas ${stats.kas})`,
  );
  await sim.close();
}

main().catch(error => {
  console.error(error);
  process.exit(1);
});
