import * as React from 'react';
import { memo } from 'react';
import { NodeProps } from '@xyflow/react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import {
  HEALTH_STATUSES,
  HealthCounts,
  HealthStatus,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { HealthIcon, healthColor } from '../health/healthStyle';
import { KindIcon } from './KindIcon';
import { NodeFrame } from './NodeFrame';
import { GROUP_PAGE } from '../../view/kinds';

export interface SiblingGroupNodeData extends Record<string, unknown> {
  kind: string;
  /** Siblings the group stands for. */
  count: number;
  /** Siblings of the kind already shown beside it. */
  shown: number;
  counts: HealthCounts;
  health?: HealthStatus;
}

/** `Deployment` → `Deployments`, `Ingress` → `Ingresses`, `NetworkPolicy` → `NetworkPolicies`. */
export function kindPlural(kind: string, count: number): string {
  if (count === 1) return kind;
  if (/(s|x|ch|sh)$/.test(kind)) return `${kind}es`;
  if (/[^aeiou]y$/.test(kind)) return `${kind.slice(0, -1)}ies`;
  return `${kind}s`;
}

/** What a group node says, for its box and for screen readers. */
export function siblingGroupTitle(data: SiblingGroupNodeData): string {
  return `${data.count}${data.shown > 0 ? ' more' : ''} ${kindPlural(
    data.kind,
    data.count,
  )}`;
}

/**
 * Siblings of one kind (a ReplicaSet's pods, a Kustomization's
 * Deployments), subtrees and all, as one node with counts per status; a
 * click (or Enter) shows the next of them.
 */
export const SiblingGroupNodeCard = memo(function SiblingGroupNodeCardView({
  data,
}: NodeProps & { data: SiblingGroupNodeData }) {
  const present = [...HEALTH_STATUSES]
    .reverse()
    .filter(status => data.counts[status] > 0);
  const next = Math.min(GROUP_PAGE, data.count);
  return (
    <NodeFrame
      color={healthColor(data.health)}
      title={`Click to show ${
        next === data.count ? 'them' : `${next} of them`
      }`}
      sx={{
        // Stacked cards: reads as "many of these".
        boxShadow: theme =>
          `3px 3px 0 -1px ${theme.palette.background.paper}, 3px 3px 0 0 ${theme.palette.divider}, 6px 6px 0 -1px ${theme.palette.background.paper}, 6px 6px 0 0 ${theme.palette.divider}`,
      }}
    >
      <Box sx={{ width: 44, display: 'flex', justifyContent: 'center' }}>
        <KindIcon kind={data.kind} sx={{ color: 'text.secondary' }} />
      </Box>
      <Box sx={{ minWidth: 0, flexGrow: 1 }}>
        {/* A long kind (HorizontalPodAutoscalers) is cut, whole on hover. */}
        <Typography
          variant="body2"
          noWrap
          title={siblingGroupTitle(data)}
          sx={{ fontWeight: 600 }}
        >
          {siblingGroupTitle(data)}
        </Typography>
        <Box sx={{ display: 'flex', gap: 1 }}>
          {present.map(status => (
            <Typography
              key={status}
              variant="caption"
              sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.25 }}
              aria-label={`${data.counts[status]} ${status}`}
            >
              <HealthIcon status={status} fontSize="inherit" />
              {data.counts[status]}
            </Typography>
          ))}
        </Box>
      </Box>
      <Typography variant="caption" color="primary">
        show
      </Typography>
    </NodeFrame>
  );
});
