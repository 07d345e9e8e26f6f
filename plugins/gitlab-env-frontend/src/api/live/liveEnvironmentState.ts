import {
  EnvironmentResourcesResponse,
  GITLAB_ENV_ERROR_CODES,
  GitlabEnvError,
  LiveTreeMessage,
  TreeReader,
  environmentTree,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { LiveConnection, LiveEnvironmentState } from './GitlabEnvLiveApi';

/**
 * A message about one environment (every type but the heartbeat), or a
 * read's answer when the tab polls.
 */
export type LiveEnvironmentMessage =
  | Exclude<LiveTreeMessage, { type: 'heartbeat' }>
  | { type: 'read'; resources: EnvironmentResourcesResponse };

export function initialLiveState(
  connection: LiveConnection,
): LiveEnvironmentState {
  return { connection, kinds: [] };
}

/**
 * The state after a message of its environment. A snapshot replaces the
 * tree (read by the engine's TreeReader, which each patch of the stream
 * then updates: the page never derives what the tree holds), and a patch
 * that arrives before any snapshot is dropped: the stream sends a snapshot
 * whenever it cannot resume. A read (polling) becomes the tree the engine
 * computes of it. A malformed patch throws and leaves the state as it was.
 */
export function applyLiveMessage(
  state: LiveEnvironmentState,
  message: LiveEnvironmentMessage,
  reader: TreeReader,
): LiveEnvironmentState {
  switch (message.type) {
    case 'snapshot': {
      const tree = reader.read(message.tree);
      return {
        ...state,
        tree,
        dataAt: tree.fetchedAt,
        error: undefined,
        pollError: undefined,
      };
    }
    case 'read':
      return {
        ...state,
        tree: environmentTree(message.resources),
        dataAt: message.resources.fetchedAt,
        error: undefined,
        pollError: undefined,
      };
    case 'patch': {
      if (!state.tree) return state;
      return {
        ...state,
        tree: reader.apply(message.patch),
        dataAt: newest(state.dataAt, message.dataAt),
      };
    }
    case 'status': {
      const next = {
        ...state,
        upstream: message.upstream,
        kinds: message.kinds,
      };
      const { tree } = state;
      if (
        !tree ||
        JSON.stringify(message.narrowed) === JSON.stringify(tree.scope.narrowed)
      )
        return next;
      return {
        ...next,
        tree: { ...tree, scope: { ...tree.scope, narrowed: message.narrowed } },
      };
    }
    case 'error':
      return { ...state, error: knownError(message.error) };
    default:
      return state;
  }
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
