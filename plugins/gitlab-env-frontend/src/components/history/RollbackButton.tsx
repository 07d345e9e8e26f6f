import * as React from 'react';
import Button from '@mui/material/Button';
import Tooltip from '@mui/material/Tooltip';

/**
 * A row's "Roll back…": disabled with the reason shown on hover and given
 * to screen readers when it cannot be done.
 */
export function RollbackButton({
  label,
  reason,
  onClick,
}: {
  /** The accessible name, naming what it rolls back to; starts with the visible "Roll back". */
  label: string;
  /** Why not; enabled when absent. */
  reason?: string;
  onClick: () => void;
}) {
  const button = (
    <Button
      size="small"
      sx={{ whiteSpace: 'nowrap' }}
      disabled={Boolean(reason)}
      onClick={onClick}
      aria-label={label}
    >
      Roll back…
    </Button>
  );
  if (!reason) return button;
  return (
    <Tooltip title={reason}>
      {/* A disabled button gets no pointer events: its wrapper shows why. */}
      <span>{button}</span>
    </Tooltip>
  );
}
