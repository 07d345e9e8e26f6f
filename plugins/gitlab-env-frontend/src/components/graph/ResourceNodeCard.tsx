import * as React from 'react';
import { memo } from 'react';
import { NodeProps } from '@xyflow/react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import {
  HealthOrigin,
  HealthStatus,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { HealthIcon, healthColor } from '../health/healthStyle';
import { HealthOriginHint } from '../health/HealthOriginHint';
import { KindIcon } from './KindIcon';
import { NodeFrame } from './NodeFrame';
import { kindShortName } from '../../view/kinds';
import { MiddleEllipsis } from '../text/MiddleEllipsis';

export interface ResourceNodeData extends Record<string, unknown> {
  kind: string;
  name: string;
  health?: HealthStatus;
  healthMessage?: string;
  /** Set when the health did not come from a built-in rule. */
  healthOrigin?: HealthOrigin;
  statusLine: string;
  missing: boolean;
  /** The live object differs from what Flux applied. */
  drifted?: boolean;
  context: boolean;
}

/** A resource in the graph: kind icon, name, health and a kubectl-like status line. */
export const ResourceNodeCard = memo(function ResourceNodeCardView({
  data,
}: NodeProps & { data: ResourceNodeData }) {
  return (
    <NodeFrame
      color={healthColor(data.health)}
      title={`${data.kind} ${data.name}${
        data.health ? ` — ${data.health}` : ''
      }${data.healthMessage ? `: ${data.healthMessage}` : ''}${
        data.healthOrigin === 'generic' ? ' (generic rule)' : ''
      }${data.healthOrigin === 'adopter' ? ' (portal rule)' : ''}${
        data.drifted ? ' — drifted from what Flux applied' : ''
      }`}
      sx={{
        opacity: data.context ? 0.45 : 1,
        borderStyle: data.missing ? 'dashed' : 'solid',
      }}
    >
      <Box
        sx={{
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'center',
          width: 44,
          flexShrink: 0,
          color: 'text.secondary',
        }}
      >
        <KindIcon kind={data.kind} />
        <Typography variant="caption" sx={{ fontSize: 10, lineHeight: 1.2 }}>
          {kindShortName(data.kind)}
        </Typography>
      </Box>
      <Box sx={{ minWidth: 0, flexGrow: 1 }}>
        <Typography
          variant="body2"
          component="div"
          sx={{ fontWeight: 600, lineHeight: 1.3 }}
        >
          <MiddleEllipsis text={data.name} />
        </Typography>
        <Typography
          variant="caption"
          color="text.secondary"
          noWrap
          component="div"
        >
          {data.statusLine}
        </Typography>
      </Box>
      <Box
        sx={{
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'center',
          flexShrink: 0,
        }}
      >
        <HealthIcon status={data.health} />
        <HealthOriginHint origin={data.healthOrigin} />
        {data.drifted ? (
          <Typography
            variant="caption"
            data-testid="drift-badge"
            sx={{
              fontSize: 9,
              fontWeight: 700,
              color: 'warning.contrastText',
              bgcolor: 'warning.main',
              borderRadius: 0.5,
              px: 0.5,
            }}
          >
            DRIFT
          </Typography>
        ) : null}
      </Box>
    </NodeFrame>
  );
});
