import * as React from 'react';
import { Handle, Position } from '@xyflow/react';
import Box from '@mui/material/Box';
import { SxProps, Theme } from '@mui/material/styles';

const HANDLE_STYLE = { opacity: 0, pointerEvents: 'none' } as const;

/**
 * The box every graph node is drawn in: a card with its health colour on
 * the left edge and the invisible handles edges attach to.
 */
export function NodeFrame({
  color,
  title,
  sx,
  children,
}: {
  color: string;
  title: string;
  sx?: SxProps<Theme>;
  children: React.ReactNode;
}) {
  return (
    <Box
      className="gitlab-env-node"
      title={title}
      sx={[
        {
          width: '100%',
          height: '100%',
          display: 'flex',
          alignItems: 'center',
          gap: 1,
          px: 1,
          bgcolor: 'background.paper',
          border: 1,
          borderColor: 'divider',
          borderLeft: `4px solid ${color}`,
          borderRadius: 1,
          boxShadow: 1,
          cursor: 'pointer',
          boxSizing: 'border-box',
        },
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
    >
      <Handle type="target" position={Position.Left} style={HANDLE_STYLE} />
      {children}
      <Handle type="source" position={Position.Right} style={HANDLE_STYLE} />
    </Box>
  );
}
