import type { ActionsRegistryService } from '@backstage/backend-plugin-api/alpha';
import { GitlabRollbackDeps, registerGitlabRollback } from './gitlabRollback';
import { ReadActionsDeps, registerReadActions } from './readActions';
import { registerWriteActions, WriteActionsDeps } from './writeActions';

export { PLUGIN_ID } from './calls';

/**
 * Registers the plugin's actions with Backstage's actions registry (served
 * to AI assistants by @backstage/plugin-mcp-actions-backend): reads that
 * answer in a few KB, writes marked destructive. Each is the matching HTTP
 * route's core run as the caller through the one request pipeline, so an
 * assistant can do nothing its user could not do in the tab.
 */
export function registerAssistantActions(
  registry: ActionsRegistryService,
  deps: ReadActionsDeps & WriteActionsDeps & GitlabRollbackDeps,
) {
  registerReadActions(registry, deps);
  registerWriteActions(registry, deps);
  registerGitlabRollback(registry, deps);
}
