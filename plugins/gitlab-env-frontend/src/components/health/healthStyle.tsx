import * as React from 'react';
import { HealthStatus } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import FavoriteIcon from '@mui/icons-material/Favorite';
import HeartBrokenIcon from '@mui/icons-material/HeartBroken';
import AutorenewIcon from '@mui/icons-material/Autorenew';
import PauseCircleIcon from '@mui/icons-material/PauseCircle';
import ReportProblemIcon from '@mui/icons-material/ReportProblem';
import HelpIcon from '@mui/icons-material/Help';
import RemoveCircleOutlineIcon from '@mui/icons-material/RemoveCircleOutline';
import { SvgIconProps } from '@mui/material/SvgIcon';

/** ArgoCD's health colours, readable on light and dark backgrounds. */
export const HEALTH_COLORS: Record<HealthStatus, string> = {
  Healthy: '#18be94',
  Progressing: '#0dadea',
  Degraded: '#e96d76',
  Suspended: '#8b7fc7',
  Missing: '#f4c030',
  Unknown: '#8fa4b1',
};

/** For kinds that carry no health of their own. */
export const NO_HEALTH_COLOR = '#9e9e9e';

const ICONS: Record<HealthStatus, React.ComponentType<SvgIconProps>> = {
  Healthy: FavoriteIcon,
  Progressing: AutorenewIcon,
  Degraded: HeartBrokenIcon,
  Suspended: PauseCircleIcon,
  Missing: ReportProblemIcon,
  Unknown: HelpIcon,
};

export function healthColor(status: HealthStatus | undefined): string {
  return status ? HEALTH_COLORS[status] : NO_HEALTH_COLOR;
}

/** The status's icon in its colour, named for screen readers. */
export function HealthIcon({
  status,
  fontSize = 'small',
}: {
  status: HealthStatus | undefined;
  fontSize?: SvgIconProps['fontSize'];
}) {
  const Icon = status ? ICONS[status] : RemoveCircleOutlineIcon;
  return (
    <Icon
      fontSize={fontSize}
      titleAccess={status ?? 'No health'}
      sx={{ color: healthColor(status), verticalAlign: 'middle' }}
    />
  );
}
