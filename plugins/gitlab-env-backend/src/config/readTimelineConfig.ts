import { Config } from '@backstage/config';

/** `gitlabEnv.timeline`: what the plugin's database keeps. */
export interface TimelineSettings {
  enabled: boolean;
  retentionDays: number;
  maxEntriesPerEnvironment: number;
  pruneIntervalMinutes: number;
}

function positiveInteger(
  config: Config | undefined,
  key: string,
  fallback: number,
): number {
  const value = config?.getOptionalNumber(key) ?? fallback;
  if (!Number.isSafeInteger(value) || value < 1)
    throw new Error(
      `gitlabEnv.timeline.${key} must be a whole number of at least 1, got ${value}`,
    );
  return value;
}

/** Reads and checks `gitlabEnv.timeline` at start-up. */
export function readTimelineConfig(root: Config): TimelineSettings {
  const config = root.getOptionalConfig('gitlabEnv.timeline');
  return {
    enabled: config?.getOptionalBoolean('enabled') ?? true,
    retentionDays: positiveInteger(config, 'retentionDays', 400),
    maxEntriesPerEnvironment: positiveInteger(
      config,
      'maxEntriesPerEnvironment',
      100_000,
    ),
    pruneIntervalMinutes: positiveInteger(config, 'pruneIntervalMinutes', 60),
  };
}
