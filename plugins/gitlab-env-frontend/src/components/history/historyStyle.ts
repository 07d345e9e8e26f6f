import { TimelineEntryKind } from '@gitlab-env/backstage-plugin-gitlab-env-common';

type ChipColor = 'success' | 'error' | 'info' | 'warning' | 'default';

/** GitLab's deployment statuses in the theme's colours, as GitLab colours them. */
export function deploymentStatusColor(status: string): ChipColor {
  switch (status) {
    case 'success':
      return 'success';
    case 'failed':
      return 'error';
    case 'running':
      return 'info';
    case 'blocked':
      return 'warning';
    default:
      return 'default';
  }
}

/** One colour per kind of timeline entry, on the axis and on its chip. */
export const TIMELINE_KIND_COLOR: Record<TimelineEntryKind, string> = {
  deployment: '#1565c0',
  rollout: '#6e49cb',
  flux: '#0b7a75',
  health: '#c0392b',
  event: '#b36b00',
  action: '#555555',
};

/** The kinds as the filter and the legend name them. */
export const TIMELINE_KIND_LABEL: Record<TimelineEntryKind, string> = {
  deployment: 'Deployments',
  rollout: 'Rollouts',
  flux: 'Flux',
  health: 'Health',
  event: 'Warning events',
  action: 'Portal actions',
};
