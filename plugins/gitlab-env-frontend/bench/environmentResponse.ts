/**
 * Prints an `EnvironmentResourcesResponse` of about N generated resources,
 * as the backend would send it, for the browser test that times the graph
 * of a large environment:
 *   npx tsx plugins/gitlab-env-frontend/bench/environmentResponse.ts 1000
 */
import {
  environmentResponse,
  generateEnvironment,
} from './generateEnvironment';

const size = Number(process.argv[2] ?? 1000);
const { graph, resources } = generateEnvironment(size);
process.stdout.write(
  JSON.stringify(
    environmentResponse(`generated-${size}`, 'bench', resources, graph),
  ),
);
