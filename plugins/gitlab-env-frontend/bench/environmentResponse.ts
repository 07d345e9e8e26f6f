/**
 * Prints an `EnvironmentResourcesResponse` of about N generated resources,
 * as the backend would send it, for the browser test that times the graph
 * of a large environment:
 *   npx tsx plugins/gitlab-env-frontend/bench/environmentResponse.ts 1000
 */
import {
  EnvironmentResourcesResponse,
  summarizeGraphHealth,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { generateEnvironment } from './generateEnvironment';

const size = Number(process.argv[2] ?? 1000);
const { graph, resources } = generateEnvironment(size);
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
  health: summarizeGraphHealth(graph),
  errors: [],
  fetchedAt: new Date().toISOString(),
};
process.stdout.write(JSON.stringify(response));
