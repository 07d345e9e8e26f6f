import * as React from 'react';
import Chip from '@mui/material/Chip';

const TIER_COLORS: Record<string, 'error' | 'warning' | 'info' | undefined> = {
  production: 'error',
  staging: 'warning',
  testing: 'info',
};

/**
 * An environment's tier: production red, staging orange, testing blue, as
 * GitLab colours them, on the chip's border; the word in the text colour,
 * which reads on any background.
 */
export function TierChip({ tier }: { tier: string }) {
  const color = TIER_COLORS[tier];
  return (
    <Chip
      size="small"
      label={tier}
      variant="outlined"
      sx={{
        color: 'text.primary',
        borderColor: color ? `${color}.main` : undefined,
        borderWidth: color ? 1.5 : 1,
      }}
    />
  );
}
