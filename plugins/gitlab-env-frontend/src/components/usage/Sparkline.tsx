import * as React from 'react';
import Box from '@mui/material/Box';

/**
 * A small line of values over time (oldest left), with a reference line
 * (the request or limit) when given; described for screen readers.
 */
export function Sparkline({
  values,
  reference,
  label,
  color,
}: {
  values: number[];
  reference?: number;
  label: string;
  color: string;
}) {
  const width = 240;
  const height = 40;
  const max = Math.max(...values, reference ?? 0) || 1;
  const x = (i: number) =>
    values.length > 1 ? (i / (values.length - 1)) * width : width / 2;
  const y = (v: number) => height - 2 - (v / max) * (height - 4);
  const points = values.map((v, i) => `${x(i)},${y(v)}`).join(' ');
  return (
    <Box
      component="svg"
      role="img"
      aria-label={label}
      viewBox={`0 0 ${width} ${height}`}
      sx={{ width: '100%', maxWidth: width, height, display: 'block' }}
    >
      {reference !== undefined ? (
        <line
          x1={0}
          x2={width}
          y1={y(reference)}
          y2={y(reference)}
          stroke="currentColor"
          strokeDasharray="4 3"
          opacity={0.4}
        />
      ) : null}
      {values.length > 1 ? (
        <polyline points={points} fill="none" stroke={color} strokeWidth={2} />
      ) : (
        <circle cx={x(0)} cy={y(values[0] ?? 0)} r={2.5} fill={color} />
      )}
    </Box>
  );
}
