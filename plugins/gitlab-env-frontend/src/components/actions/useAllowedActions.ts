import { useApi } from '@backstage/core-plugin-api';
import {
  ActionDecision,
  ActionTarget,
  EnvironmentCapability,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import useAsync from 'react-use/esm/useAsync';
import { gitlabEnvApiRef } from '../../api';
import { useEnvironmentScope } from './EnvironmentScope';

export type Decisions = Partial<Record<EnvironmentCapability, ActionDecision>>;

/** The allowed route answers at most this many targets a request (ActionsAllowedRequest). */
const TARGETS_PER_REQUEST = 200;

/**
 * What the signed-in user may do with one object, asked of the backend
 * (permission policy and the cluster's RBAC) each time a drawer or menu
 * opens for it, so nothing is offered on a stale answer.
 */
export function useAllowedActions(target: ActionTarget | undefined): {
  decisions?: Decisions;
  loading: boolean;
  error?: Error;
} {
  const { decisions, loading, error } = useAllowedActionsOf(
    target ? [target] : [],
  );
  return { decisions: decisions?.[0], loading, error };
}

/**
 * What the signed-in user may do with each of a list's objects, in the
 * list's order: one request for the whole list (one per 200 objects), where
 * a hook per row would ask once per row.
 */
export function useAllowedActionsOf(targets: readonly ActionTarget[]): {
  decisions?: Decisions[];
  loading: boolean;
  error?: Error;
} {
  const api = useApi(gitlabEnvApiRef);
  const scope = useEnvironmentScope();
  const key = JSON.stringify(targets);
  const { value, loading, error } = useAsync(async () => {
    if (!scope || targets.length === 0) return undefined;
    const chunks: ActionTarget[][] = [];
    for (let i = 0; i < targets.length; i += TARGETS_PER_REQUEST)
      chunks.push(targets.slice(i, i + TARGETS_PER_REQUEST));
    const answers = await Promise.all(
      chunks.map(chunk =>
        api.getAllowedActions(scope.entity, scope.environmentSlug, {
          targets: chunk,
        }),
      ),
    );
    return chunks.flatMap((chunk, c) =>
      chunk.map((_target, i) => answers[c].targets[i]?.decisions ?? {}),
    );
    // The targets are new objects each render; their JSON is what they name.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, scope?.entity, scope?.environmentSlug, key]);
  return { decisions: value, loading, error };
}

/**
 * Why an action is not offered, as every button that asks says it: the
 * check is under way, it failed, or the decision's reason (`denied` when
 * it gives none); undefined when allowed.
 */
export function refusalReason(
  check: {
    loading: boolean;
    error?: Error;
    decision?: { allowed: boolean; reason?: string };
  },
  denied: string,
): string | undefined {
  if (check.loading) return 'Checking what you may do…';
  if (check.error)
    return `Could not check what you may do: ${check.error.message}`;
  if (check.decision?.allowed) return undefined;
  return check.decision?.reason ?? denied;
}
