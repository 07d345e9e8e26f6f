import * as React from 'react';
import { CopyTextButton } from '@backstage/core-components';
import Box from '@mui/material/Box';

/** kubectl / flux commands, one a line, each with a copy button. */
export function CommandList({
  commands,
  label,
}: {
  commands: string[];
  label: string;
}) {
  return (
    <Box component="ul" aria-label={label} sx={{ m: 0, p: 0 }}>
      {commands.map(command => (
        <Box
          component="li"
          key={command}
          sx={{
            listStyle: 'none',
            display: 'flex',
            alignItems: 'center',
            gap: 1,
            fontFamily: 'monospace',
            fontSize: 13,
            bgcolor: 'action.hover',
            borderRadius: 1,
            px: 1,
            mb: 0.5,
          }}
        >
          <Box component="code" sx={{ flexGrow: 1, overflowX: 'auto' }}>
            {command}
          </Box>
          <CopyTextButton text={command} />
        </Box>
      ))}
    </Box>
  );
}
