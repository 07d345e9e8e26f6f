import { Config } from '@backstage/config';

/** `gitlabEnv.actions` (see config.d.ts). */
export interface ActionsConfig {
  /** How long the cluster's answers on what the agent may do are kept. */
  accessReviewTtlMs: number;
  logs: {
    maxTailLines: number;
    maxBytes: number;
    maxFollowMs: number;
    /** Logs one user may follow at once. */
    maxFollowedPerUser: number;
  };
}

const DEFAULTS = {
  accessReviewCacheSeconds: 30,
  maxTailLines: 5000,
  maxBytes: 10 * 1024 * 1024,
  maxFollowSeconds: 3600,
  maxFollowedPerUser: 10,
};

function positiveInteger(
  config: Config | undefined,
  key: string,
  fallback: number,
): number {
  const value = config?.getOptionalNumber(key);
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(
      `gitlabEnv.actions.${key} must be a whole number above 0, got ${value}`,
    );
  return value;
}

export function readActionsConfig(root: Config): ActionsConfig {
  const config = root.getOptionalConfig('gitlabEnv.actions');
  return {
    accessReviewTtlMs:
      positiveInteger(
        config,
        'accessReviewCacheSeconds',
        DEFAULTS.accessReviewCacheSeconds,
      ) * 1000,
    logs: {
      maxTailLines: positiveInteger(
        config,
        'logs.maxTailLines',
        DEFAULTS.maxTailLines,
      ),
      maxBytes: positiveInteger(config, 'logs.maxBytes', DEFAULTS.maxBytes),
      maxFollowMs:
        positiveInteger(
          config,
          'logs.maxFollowSeconds',
          DEFAULTS.maxFollowSeconds,
        ) * 1000,
      maxFollowedPerUser: positiveInteger(
        config,
        'logs.maxFollowedPerUser',
        DEFAULTS.maxFollowedPerUser,
      ),
    },
  };
}
