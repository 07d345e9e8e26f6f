import { useEffect, useState } from 'react';
import { useApi } from '@backstage/core-plugin-api';
import { EnvironmentUsageResponse } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { gitlabEnvApiRef } from '../../api';
import { useEnvironmentScope } from '../actions/EnvironmentScope';

export interface UsageState {
  usage?: EnvironmentUsageResponse;
  error?: Error;
  loading: boolean;
}

/**
 * The environment's usage with one pod's or workload's trend, asked again
 * every sample interval the backend names while the component is mounted
 * (the backend samples once for every viewer: asking costs no upstream
 * request).
 */
export function useEnvironmentUsage(target: {
  pod?: string;
  workload?: string;
}): UsageState {
  const api = useApi(gitlabEnvApiRef);
  const scope = useEnvironmentScope();
  const [state, setState] = useState<UsageState>({ loading: true });
  const { pod, workload } = target;
  useEffect(() => {
    if (!scope) return undefined;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async () => {
      let delaySeconds = 15;
      try {
        const usage = await api.getEnvironmentUsage(
          scope.entity,
          scope.environmentSlug,
          { pod, workload },
          { signal: controller.signal },
        );
        delaySeconds = usage.intervalSeconds;
        setState({ usage, loading: false });
      } catch (error) {
        if (controller.signal.aborted) return;
        setState(previous => ({
          usage: previous.usage,
          error: error as Error,
          loading: false,
        }));
      }
      if (!controller.signal.aborted)
        timer = setTimeout(ask, Math.max(1, delaySeconds) * 1000);
    };
    setState({ loading: true });
    ask();
    return () => {
      controller.abort();
      if (timer) clearTimeout(timer);
    };
  }, [api, scope, pod, workload]);
  return state;
}
