import * as React from 'react';
import { TimelineEntry } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import Box from '@mui/material/Box';
import { healthColor } from '../health/healthStyle';
import { TIMELINE_KIND_COLOR } from './historyStyle';

const WIDTH = 1000;
const HEIGHT = 56;
const LANE_Y = 24;
const TICKS = 6;
const DAY = 86_400_000;

function tickLabel(at: number, span: number): string {
  const date = new Date(at);
  const time = date.toLocaleTimeString('en-GB', {
    hour: '2-digit',
    minute: '2-digit',
  });
  if (span <= 2 * DAY) return time;
  const day = date.toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
  });
  // Ticks a day or more apart fall at any hour: the hour says where.
  return span <= 14 * DAY ? `${day} ${time}` : day;
}

/**
 * The entries as marks on one time axis, oldest at the left, now at the
 * right; a health mark in the colour of the state it went to. A mark is a
 * button: it brings its entry into view.
 */
export function TimelineAxis({
  entries,
  from,
  to,
  onPick,
}: {
  entries: TimelineEntry[];
  from: number;
  to: number;
  onPick: (id: string) => void;
}) {
  const span = Math.max(1, to - from);
  const x = (at: number) => ((at - from) / span) * WIDTH;
  const ticks = Array.from(
    { length: TICKS },
    (_, i) => from + (span * i) / (TICKS - 1),
  );
  return (
    <Box
      component="svg"
      viewBox={`-8 0 ${WIDTH + 16} ${HEIGHT}`}
      role="group"
      aria-label={`Time axis from ${new Date(from).toISOString()} to ${new Date(
        to,
      ).toISOString()}`}
      sx={{
        width: '100%',
        height: 'auto',
        display: 'block',
        overflow: 'visible',
      }}
    >
      <line
        x1={0}
        x2={WIDTH}
        y1={LANE_Y}
        y2={LANE_Y}
        stroke="currentColor"
        strokeOpacity={0.3}
      />
      {ticks.map(at => (
        <g key={at}>
          <line
            x1={x(at)}
            x2={x(at)}
            y1={LANE_Y - 4}
            y2={LANE_Y + 4}
            stroke="currentColor"
            strokeOpacity={0.4}
          />
          <text
            x={x(at)}
            y={HEIGHT - 4}
            fontSize={11}
            textAnchor="middle"
            fill="currentColor"
            fillOpacity={0.7}
          >
            {tickLabel(at, span)}
          </text>
        </g>
      ))}
      {entries.map(entry => {
        const at = Date.parse(entry.at);
        if (at < from || at > to) return null;
        const fill =
          entry.kind === 'health' && entry.health
            ? healthColor(entry.health.to)
            : TIMELINE_KIND_COLOR[entry.kind];
        return (
          <circle
            key={entry.id}
            data-kind={entry.kind}
            cx={x(at)}
            cy={LANE_Y}
            r={entry.kind === 'health' || entry.kind === 'deployment' ? 6 : 4}
            fill={fill}
            stroke="#fff"
            strokeWidth={1}
            role="button"
            tabIndex={-1}
            aria-label={`${entry.summary} at ${entry.at}`}
            style={{ cursor: 'pointer' }}
            onClick={() => onPick(entry.id)}
          >
            <title>{`${entry.summary} (${new Date(at).toLocaleString(
              'en-GB',
            )})`}</title>
          </circle>
        );
      })}
    </Box>
  );
}
