import * as React from 'react';
import { Link } from '@backstage/core-components';
import { GitlabProjectRef } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Switch from '@mui/material/Switch';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import RefreshIcon from '@mui/icons-material/Refresh';

/**
 * Where the data comes from, how it is kept current (the live indicator),
 * and the switch that pauses updates.
 */
export function RefreshBar({
  updatedAt,
  refreshing,
  paused,
  onPausedChange,
  onRefresh,
  intervalMs,
  project,
  live,
  indicator,
}: {
  updatedAt?: number;
  refreshing: boolean;
  paused: boolean;
  onPausedChange: (paused: boolean) => void;
  onRefresh: () => void;
  intervalMs: number;
  project?: GitlabProjectRef;
  /** True while the resources stream live: the switch pauses the stream. */
  live?: boolean;
  indicator?: React.ReactNode;
}) {
  return (
    <Box
      sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}
    >
      {project ? (
        <Typography variant="body2" color="text.secondary">
          GitLab project <Link to={project.webUrl}>{project.fullPath}</Link>
        </Typography>
      ) : null}
      <Box sx={{ flexGrow: 1 }} />
      {indicator}
      <Typography variant="caption" color="text.secondary" aria-live="polite">
        {refreshStatus(refreshing, updatedAt)}
      </Typography>
      <FormControlLabel
        control={
          <Switch
            size="small"
            checked={!paused}
            onChange={e => onPausedChange(!e.target.checked)}
          />
        }
        label={
          live
            ? 'Live updates'
            : `Auto-refresh (${Math.round(intervalMs / 1000)} s)`
        }
      />
      <Tooltip title="Refresh now">
        <IconButton aria-label="Refresh now" onClick={onRefresh} size="small">
          <RefreshIcon />
        </IconButton>
      </Tooltip>
    </Box>
  );
}

function refreshStatus(refreshing: boolean, updatedAt?: number): string {
  if (refreshing) return 'Refreshing…';
  if (!updatedAt) return '';
  return `Environments read ${new Date(updatedAt).toLocaleTimeString()}`;
}
