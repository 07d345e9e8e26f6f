import * as React from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { ACTION_TEXT } from './actionText';
import { OfferedAction } from './useNodeActions';

/**
 * The drawer's action buttons: those denied are disabled, with the reason
 * beside them (once for the actions one reason denies).
 */
export function NodeActionsBar({
  offered,
  onChoose,
}: {
  offered: OfferedAction[];
  onChoose: (action: OfferedAction['action']) => void;
}) {
  if (offered.length === 0) return null;
  const denied = new Map<string, string[]>();
  for (const { action, allowed, reason } of offered) {
    if (allowed || !reason) continue;
    denied.set(reason, [
      ...(denied.get(reason) ?? []),
      ACTION_TEXT[action].label,
    ]);
  }
  return (
    <Box component="section" aria-label="Actions">
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        {offered.map(({ action, allowed }) => (
          <Button
            key={action}
            size="small"
            variant="outlined"
            color={action === 'pod.delete' ? 'error' : 'primary'}
            disabled={!allowed}
            onClick={() => onChoose(action)}
          >
            {ACTION_TEXT[action].label}
          </Button>
        ))}
      </Box>
      {denied.size > 0 ? (
        <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 2 }}>
          {[...denied].map(([reason, labels]) => (
            <Typography
              component="li"
              variant="caption"
              color="text.secondary"
              key={reason}
            >
              {labels.join(', ')}: {reason}
            </Typography>
          ))}
        </Box>
      ) : null}
    </Box>
  );
}
