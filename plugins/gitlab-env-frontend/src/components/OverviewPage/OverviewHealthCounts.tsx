import * as React from 'react';
import {
  HEALTH_STATUSES,
  HealthStatus,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import { HealthIcon, healthColor } from '../health/healthStyle';

/**
 * Environments per health, worst first; each count toggles a filter on
 * that status.
 */
export function OverviewHealthCounts({
  counts,
  selected,
  onToggle,
}: {
  counts: Record<HealthStatus, number>;
  selected: HealthStatus[];
  onToggle: (status: HealthStatus) => void;
}) {
  return (
    <Box
      role="group"
      aria-label="Environments per health"
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}
    >
      {[...HEALTH_STATUSES].reverse().map(status => {
        const active = selected.includes(status);
        return (
          <Chip
            key={status}
            icon={<HealthIcon status={status} />}
            label={`${counts[status]} ${status}`}
            aria-label={`${counts[status]} ${status}`}
            aria-pressed={active}
            variant={active ? 'filled' : 'outlined'}
            onClick={() => onToggle(status)}
            sx={{
              fontWeight: 600,
              borderColor: healthColor(status),
              opacity: counts[status] === 0 && !active ? 0.55 : 1,
            }}
          />
        );
      })}
    </Box>
  );
}
