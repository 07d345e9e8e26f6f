import { useCallback, useEffect, useState } from 'react';
import { useApi } from '@backstage/core-plugin-api';
import {
  EnvironmentObjectResponse,
  TreeNode,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { gitlabEnvApiRef } from '../../api';
import { useEnvironmentScope } from '../actions/EnvironmentScope';

export interface EnvironmentObjectState {
  /** The last answer for this node (kept while a newer one loads). */
  value?: EnvironmentObjectResponse;
  /** True until the node's first answer arrives. */
  loading: boolean;
  error?: Error;
  retry: () => void;
}

/**
 * While a drawer is open its object is asked again this often: Events and
 * fields the graph does not draw change without a new tree node. The
 * backend answers from its live store, without an upstream request.
 */
export const OBJECT_REFRESH_MS = 15_000;

/**
 * The whole object of a node, with its Events and GitOps, asked of the
 * backend's live store when a drawer (or a dialog) needs it: the tab holds
 * only the tree the graph draws. Asked again when the node changes in what
 * the graph draws (a new tree node), on `retry`, and every `refreshMs` when
 * given, keeping the last answer meanwhile.
 */
export function useEnvironmentObject(
  node: TreeNode | undefined,
  options: { refreshMs?: number } = {},
): EnvironmentObjectState {
  const api = useApi(gitlabEnvApiRef);
  const scope = useEnvironmentScope();
  const [state, setState] = useState<{
    id?: string;
    value?: EnvironmentObjectResponse;
    error?: Error;
  }>({});
  const [attempt, setAttempt] = useState(0);
  const id = node?.id;
  const missing = Boolean(node?.missing);

  useEffect(() => {
    if (!scope || id === undefined || missing) return undefined;
    const controller = new AbortController();
    api
      .getEnvironmentObject(scope.entity, scope.environmentSlug, id, {
        signal: controller.signal,
      })
      .then(
        value => setState({ id, value }),
        error => {
          if (controller.signal.aborted) return;
          setState(previous => ({
            id,
            value: previous.id === id ? previous.value : undefined,
            error: error instanceof Error ? error : new Error(String(error)),
          }));
        },
      );
    return () => controller.abort();
    // A new tree node (something drawn changed) asks again.
  }, [api, scope, id, missing, node, attempt]);

  const retry = useCallback(() => setAttempt(a => a + 1), []);
  const { refreshMs } = options;
  useEffect(() => {
    if (!refreshMs || !scope || id === undefined || missing) return undefined;
    const timer = setInterval(retry, refreshMs);
    return () => clearInterval(timer);
  }, [refreshMs, scope, id, missing, retry]);
  const current = state.id === id ? state : {};
  return {
    value: current.value,
    loading:
      Boolean(scope) &&
      !missing &&
      id !== undefined &&
      !current.value &&
      !current.error,
    error: current.error,
    retry,
  };
}
