/**
 * Prints an `EnvironmentResourcesResponse` of about N generated resources,
 * as the backend would send it, for the browser test that times the graph
 * of a large environment:
 *   npx tsx plugins/gitlab-env-frontend/bench/environmentResponse.ts 1000
 */
import {
  EnvironmentResourcesResponse,
  HealthStatus,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { emptyHealthCounts, worstHealth } from '../src/view/health';
import { generateEnvironment } from './generateEnvironment';

const size = Number(process.argv[2] ?? 1000);
const { graph, resources } = generateEnvironment(size);
const counts = emptyHealthCounts();
for (const node of graph.nodes) {
  if (node.health) counts[node.health.status]++;
  else counts.none++;
}
const statuses: Array<HealthStatus | undefined> = graph.nodes.map(
  node => node.health?.status,
);
const response: EnvironmentResourcesResponse = {
  entityRef: 'component:default/generated',
  environment: {
    id: 'generated',
    name: `generated-${size}`,
    slug: `generated-${size}`,
    tier: 'development',
    state: 'available',
    namespace: 'bench',
  },
  scope: { namespace: 'bench' },
  resources,
  graph,
  health: {
    status: worstHealth(statuses) ?? 'Healthy',
    counts,
    total: graph.nodes.length,
  },
  errors: [],
  fetchedAt: new Date().toISOString(),
};
process.stdout.write(JSON.stringify(response));
