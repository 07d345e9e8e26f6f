import * as React from 'react';
import { CopyTextButton } from '@backstage/core-components';
import Box from '@mui/material/Box';

/**
 * One shell command, ready to copy: it wraps only at the spaces between
 * its arguments (an argument longer than the line scrolls sideways, never
 * breaks), so what is read is what is pasted.
 */
export function CommandBlock({
  command,
  label = 'Command',
}: {
  command: string;
  /** The accessible name of the command (e.g. "kubectl command"). */
  label?: string;
}) {
  const words = command.split(' ');
  return (
    <Box
      data-command-block
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 1,
        bgcolor: 'action.hover',
        borderRadius: 1,
        pl: 1,
        minWidth: 0,
      }}
    >
      <Box
        component="code"
        aria-label={label}
        // Scrollable content must be reachable by keyboard (axe's
        // scrollable-region-focusable).
        tabIndex={0}
        sx={{
          flexGrow: 1,
          minWidth: 0,
          overflowX: 'auto',
          py: 0.75,
          fontFamily: 'monospace',
          fontSize: 13,
          lineHeight: 1.6,
        }}
      >
        {words.map((word, index) => (
          // eslint-disable-next-line react/no-array-index-key
          <React.Fragment key={index}>
            {index > 0 ? ' ' : null}
            <Box component="span" sx={{ whiteSpace: 'pre' }}>
              {word}
            </Box>
          </React.Fragment>
        ))}
      </Box>
      <CopyTextButton
        text={command}
        tooltipText="Command copied"
        aria-label={`Copy ${label.toLocaleLowerCase('en-US')}`}
      />
    </Box>
  );
}

/** Commands one under the other, each with its copy button. */
export function CommandList({
  commands,
  label,
}: {
  commands: string[];
  label: string;
}) {
  return (
    <Box
      component="ul"
      aria-label={label}
      sx={{
        m: 0,
        p: 0,
        display: 'flex',
        flexDirection: 'column',
        gap: 0.5,
      }}
    >
      {commands.map(command => (
        <Box component="li" key={command} sx={{ listStyle: 'none' }}>
          <CommandBlock command={command} />
        </Box>
      ))}
    </Box>
  );
}
