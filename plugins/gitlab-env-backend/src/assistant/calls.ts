import { BackstageCredentials } from '@backstage/backend-plugin-api';
import { PipelineCall } from '../http';

/** The plugin's id: an action `name` is `gitlab-env:<name>` in the registry. */
export const PLUGIN_ID = 'gitlab-env';

/** What every action of an environment takes. */
export interface EnvironmentInput {
  entityRef: string;
  environment: string;
}

/**
 * The path parameters the routes take for an entity ref as assistants
 * write it: `kind:namespace/name`, `kind:name` (namespace `default`) or a
 * bare `name` (a Component in `default`). Not checked here: the pipeline
 * checks (and audits) them as it does a route's path.
 */
export function entityPath(entityRef: string): Record<string, string> {
  const text = entityRef.trim();
  const colon = text.indexOf(':');
  const kind = colon < 0 ? 'component' : text.slice(0, colon);
  const rest = colon < 0 ? text : text.slice(colon + 1);
  const slash = rest.indexOf('/');
  return {
    kind: kind.toLowerCase(),
    namespace: slash < 0 ? 'default' : rest.slice(0, slash),
    name: slash < 0 ? rest : rest.slice(slash + 1),
  };
}

/**
 * One call of an action as the pipeline takes a route's: the caller's
 * credentials, the path of the entity (and environment) it names, the
 * query and body the route reads, and how it came for the audit record.
 */
export function actionCall(
  action: string,
  credentials: BackstageCredentials,
  input: { entityRef: string; environment?: string },
  extra: { query?: Record<string, unknown>; body?: unknown } = {},
): PipelineCall {
  return {
    credentials,
    raw: {
      path: {
        ...entityPath(input.entityRef),
        ...(input.environment !== undefined && { slug: input.environment }),
      },
      query: extra.query ?? {},
      ...(extra.body !== undefined && { body: async () => extra.body }),
    },
    via: { via: 'actions-registry', actionId: `${PLUGIN_ID}:${action}` },
  };
}
