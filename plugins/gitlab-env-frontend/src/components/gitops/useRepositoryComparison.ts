import { useApi } from '@backstage/core-plugin-api';
import { DesiredStateComparison } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import useAsyncRetry from 'react-use/esm/useAsyncRetry';
import { gitlabEnvApiRef } from '../../api';
import { useEnvironmentScope } from '../actions/EnvironmentScope';

/** The repository comparison as the page has it: being read, failed, or none. */
export interface RepositoryComparison {
  comparison?: DesiredStateComparison;
  /** The backend answered; no `comparison` then means there is none to make. */
  answered: boolean;
  loading: boolean;
  error?: Error;
  retry: () => void;
}

/**
 * Desired vs live for the environment in view, from the backend's one
 * route for it (`…/desired`), asked while `wanted` and again only when
 * `askAgainOn` changes: the panel asks once per opening, the drawer when
 * the object it shows or a Flux object changed — never on every live patch.
 */
export function useRepositoryComparison({
  wanted,
  askAgainOn = '',
}: {
  wanted: boolean;
  askAgainOn?: string;
}): RepositoryComparison {
  const api = useApi(gitlabEnvApiRef);
  const scope = useEnvironmentScope();
  const ask = wanted && scope !== undefined;
  const asked = useAsyncRetry(async () => {
    if (!ask) return undefined;
    return (await api.getDesiredState(scope.entity, scope.environmentSlug))
      .desired;
  }, [ask, api, scope?.entity, scope?.environmentSlug, askAgainOn]);
  return {
    comparison: ask ? asked.value : undefined,
    answered: ask && !asked.loading && !asked.error,
    loading: ask && asked.loading,
    error: ask ? asked.error : undefined,
    retry: asked.retry,
  };
}
