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
  const api = useApi(gitlabEnvApiRef);
  const scope = useEnvironmentScope();
  const key = target ? JSON.stringify(target) : '';
  const { value, loading, error } = useAsync(async () => {
    if (!scope || !target) return undefined;
    const answer = await api.getAllowedActions(
      scope.entity,
      scope.environmentSlug,
      { targets: [target] },
    );
    return answer.targets[0]?.decisions ?? {};
    // The target is a new object each render; its JSON is what it names.
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
