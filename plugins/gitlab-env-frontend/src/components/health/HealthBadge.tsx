import * as React from 'react';
import {
  HEALTH_STATUSES,
  HealthSummary,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { HealthIcon, healthColor } from './healthStyle';
import { WarningChip } from '../text/WarningChip';

/**
 * The mark next to a health computed from incomplete data: the status may be
 * better than the full data's, so it is never shown bare. The reasons are on
 * hover (and in the accessible name).
 */
function PartialMark({ reasons }: { reasons: string[] }) {
  return (
    <Tooltip
      title={
        <Box component="ul" sx={{ m: 0, pl: 2 }}>
          {reasons.map(reason => (
            <li key={reason}>{reason}</li>
          ))}
        </Box>
      }
    >
      <WarningChip
        variant="outlined"
        label="partial"
        aria-label={`Partial data: ${reasons.join(' ')}`}
        data-testid="health-partial"
      />
    </Tooltip>
  );
}

/**
 * An environment's rolled-up health and how many resources are in each
 * status, worst first, as ArgoCD's application tiles show it.
 */
export function HealthBadge({ summary }: { summary: HealthSummary }) {
  const present = [...HEALTH_STATUSES]
    .reverse()
    .filter(status => summary.counts[status] > 0);
  const description = present
    .map(status => `${summary.counts[status]} ${status}`)
    .join(', ');
  return (
    <Box
      role="status"
      aria-label={`Health: ${summary.status}${
        summary.partial ? ', from partial data' : ''
      }${description ? ` (${description})` : ''}`}
      sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}
    >
      <Chip
        size="small"
        variant="outlined"
        icon={<HealthIcon status={summary.status} />}
        label={summary.status}
        // The colour is the border's and the icon's; the words stay dark
        // enough to read (ArgoCD's light colours fail contrast as text).
        sx={{
          fontWeight: 600,
          borderColor: healthColor(summary.status),
          color: 'text.primary',
        }}
      />
      {summary.partial && <PartialMark reasons={summary.partial.reasons} />}
      {present.map(status => (
        <Tooltip key={status} title={`${summary.counts[status]} ${status}`}>
          <Typography
            component="span"
            variant="caption"
            sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.25 }}
          >
            <HealthIcon status={status} fontSize="inherit" />
            {summary.counts[status]}
          </Typography>
        </Tooltip>
      ))}
      <Typography component="span" variant="caption" color="text.secondary">
        {summary.total} resources
      </Typography>
    </Box>
  );
}
