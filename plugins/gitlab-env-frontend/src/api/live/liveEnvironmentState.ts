import {
  EnvironmentResourcesResponse,
  GITLAB_ENV_ERROR_CODES,
  GitlabEnvError,
  LiveMessage,
  applyResourceGraphPatch,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { LiveConnection, LiveEnvironmentState } from './GitlabEnvLiveApi';

/** A message about one environment (every type but the heartbeat). */
export type LiveEnvironmentMessage = Exclude<
  LiveMessage,
  { type: 'heartbeat' }
>;

export function initialLiveState(
  connection: LiveConnection,
): LiveEnvironmentState {
  return { connection, kinds: [] };
}

/**
 * The state after a message of its environment. A snapshot replaces the
 * data; a patch is applied to it with the engine's own function (the page
 * never derives health), and one that arrives before any snapshot is
 * dropped: the stream sends a snapshot whenever it cannot resume.
 */
export function applyLiveMessage(
  state: LiveEnvironmentState,
  message: LiveEnvironmentMessage,
): LiveEnvironmentState {
  switch (message.type) {
    case 'snapshot':
      return {
        ...state,
        resources: message.resources,
        dataAt: message.resources.fetchedAt,
        error: undefined,
        pollError: undefined,
      };
    case 'patch': {
      if (!state.resources) return state;
      const resources = applyResourceGraphPatch(state.resources, message.patch);
      return {
        ...state,
        resources:
          message.driftedCount === undefined
            ? resources
            : withDriftedCount(resources, message.driftedCount),
        dataAt: newest(state.dataAt, message.dataAt),
      };
    }
    case 'status': {
      const next = {
        ...state,
        upstream: message.upstream,
        kinds: message.kinds,
      };
      const { resources } = state;
      if (
        !resources ||
        JSON.stringify(message.narrowed) ===
          JSON.stringify(resources.scope.narrowed)
      )
        return next;
      return {
        ...next,
        resources: {
          ...resources,
          scope: { ...resources.scope, narrowed: message.narrowed },
        },
      };
    }
    case 'error':
      return { ...state, error: knownError(message.error) };
    default:
      return state;
  }
}

/** The backend's new count of drifted objects (0: none, so no count). */
function withDriftedCount(
  resources: EnvironmentResourcesResponse,
  driftedCount: number,
): EnvironmentResourcesResponse {
  const { driftedCount: _, ...environment } = resources.environment;
  return {
    ...resources,
    environment:
      driftedCount > 0 ? { ...environment, driftedCount } : environment,
  };
}

function newest(a: string | undefined, b: string): string {
  if (!a) return b;
  return Date.parse(b) > Date.parse(a) ? b : a;
}

/** An error whose code the page knows; any other is an upstream error (the stream is untrusted). */
function knownError(error: GitlabEnvError): GitlabEnvError {
  const message =
    typeof error?.message === 'string'
      ? error.message
      : 'The environment cannot be followed.';
  if ((GITLAB_ENV_ERROR_CODES as readonly string[]).includes(error?.code))
    return { ...error, message };
  return { code: 'UPSTREAM_ERROR', message };
}
