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

export interface PodGroupNodeData extends Record<string, unknown> {
  count: number;
  counts: HealthCounts;
  health?: HealthStatus;
}

/** Many pods of one owner, as one node with counts per status; a click expands it. */
export const PodGroupNodeCard = memo(function PodGroupNodeCardView({
  data,
}: NodeProps & { data: PodGroupNodeData }) {
  const present = [...HEALTH_STATUSES]
    .reverse()
    .filter(status => data.counts[status] > 0);
  return (
    <NodeFrame
      color={healthColor(data.health)}
      title="Click to show every pod"
      sx={{
        // Stacked cards: reads as "many of these".
        boxShadow: theme =>
          `3px 3px 0 -1px ${theme.palette.background.paper}, 3px 3px 0 0 ${theme.palette.divider}, 6px 6px 0 -1px ${theme.palette.background.paper}, 6px 6px 0 0 ${theme.palette.divider}`,
      }}
    >
      <Box sx={{ width: 44, display: 'flex', justifyContent: 'center' }}>
        <KindIcon kind="Pod" sx={{ color: 'text.secondary' }} />
      </Box>
      <Box sx={{ minWidth: 0, flexGrow: 1 }}>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {data.count} pods
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
        expand
      </Typography>
    </NodeFrame>
  );
});
