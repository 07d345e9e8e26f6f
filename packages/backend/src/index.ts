/*
 * The demo portal's backend: Backstage's new backend system with the catalog
 * reading examples/catalog, guest sign-in, the permission framework, and the
 * gitlab-env plugin, and the Kubernetes plugin on the agents' clusters. By default it also embeds the GitLab + KAS simulator so
 * that `npm start` has something to show on a machine with no GitLab.
 */
import { createBackend } from '@backstage/backend-defaults';
import { gitlabSimulatorDemoPlugin } from './gitlabSimulatorDemoPlugin';
import { demoPermissionPolicyModule } from './demoPermissionPolicy';

const backend = createBackend();

backend.add(import('@backstage/plugin-app-backend'));
backend.add(import('@backstage/plugin-auth-backend'));
backend.add(import('@backstage/plugin-auth-backend-module-guest-provider'));
backend.add(import('@backstage/plugin-catalog-backend'));
backend.add(import('@backstage/plugin-permission-backend'));
// Allows everything but what demoPermissions.deny lists (see its README entry).
backend.add(demoPermissionPolicyModule);
backend.add(gitlabSimulatorDemoPlugin);
backend.add(import('@gitlab-env/backstage-plugin-gitlab-env-backend'));
// The gitlab-env actions (backend.actions.pluginSources) as MCP tools.
backend.add(import('@backstage/plugin-mcp-actions-backend'));
// The Backstage Kubernetes plugin, its clusters the GitLab agents the
// gitlab-env token may use (reached through KAS).
backend.add(import('@backstage/plugin-kubernetes-backend'));
backend.add(
  import('@gitlab-env/backstage-plugin-kubernetes-backend-module-gitlab-env'),
);

backend.start();
