import * as React from 'react';
import { useEffect, useState } from 'react';
import { LiveKindState } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import FiberManualRecordIcon from '@mui/icons-material/FiberManualRecord';
import { LiveConnection } from '../../api';
import { formatAge } from '../../view/format';
import { liveIndicatorMode, polledKindsByCause } from './liveIndicatorState';

const LABELS = {
  live: 'Live',
  connecting: 'Connecting…',
  reconnecting: 'Reconnecting…',
  paused: 'Paused',
  // A page that does not poll itself (the overview) keeps what it read.
  polling: 'Not live',
} as const;

const COLORS = {
  live: 'success',
  connecting: 'default',
  reconnecting: 'warning',
  paused: 'default',
  polling: 'info',
} as const;

/**
 * How the data on screen is kept current (live, reconnecting, paused or
 * polling, with why), and how old it is: the age of the newest upstream
 * data (`dataAt`), not of the last message.
 */
export function LiveIndicator({
  connection,
  paused,
  upstream,
  kinds,
  dataAt,
  pollIntervalMs,
}: {
  connection?: LiveConnection;
  paused: boolean;
  upstream?: 'live' | 'reconnecting';
  kinds?: readonly LiveKindState[];
  dataAt?: string;
  pollIntervalMs?: number;
}) {
  const mode = liveIndicatorMode(connection, paused, upstream);
  let reason: string | undefined;
  if (mode === 'polling') reason = connection?.reason;
  else if (mode === 'reconnecting')
    reason =
      connection?.mode === 'reconnecting'
        ? connection.reason
        : 'the backend lost its watch on the cluster and is reconnecting';
  const label =
    mode === 'polling' && pollIntervalMs
      ? `Polling every ${Math.round(pollIntervalMs / 1000)} s`
      : LABELS[mode];
  const polled = polledKindsByCause(mode === 'live' ? kinds : []);
  return (
    <Box
      role="status"
      aria-label={`Updates: ${label}`}
      data-live-mode={mode}
      sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}
    >
      <Tooltip title={reason ? `Because ${reason}.` : ''}>
        <Chip
          size="small"
          variant="outlined"
          color={COLORS[mode]}
          icon={<FiberManualRecordIcon sx={{ fontSize: 10 }} />}
          label={label}
        />
      </Tooltip>
      {reason ? (
        <Typography variant="caption" color="text.secondary">
          {reason[0].toUpperCase()}
          {reason.slice(1)}.
        </Typography>
      ) : null}
      {dataAt ? <DataAge dataAt={dataAt} live={mode === 'live'} /> : null}
      {[...polled].map(([cause, group]) => (
        <PolledKinds key={cause} cause={cause} kinds={group} />
      ))}
    </Box>
  );
}

const KINDS_SHOWN = 6;

/**
 * Kinds the backend lists again instead of watching for one cause (the
 * watch cap; no objects yet), the cause in full, each kind's own reason
 * on hover.
 */
function PolledKinds({
  cause,
  kinds,
}: {
  cause: string;
  kinds: readonly LiveKindState[];
}) {
  const names = kinds.map(kind => kind.resource.split('/').pop());
  const shown = names.slice(0, KINDS_SHOWN).join(', ');
  const more =
    names.length > KINDS_SHOWN ? ` and ${names.length - KINDS_SHOWN} more` : '';
  return (
    <Tooltip
      title={kinds
        .map(kind => `${kind.resource}: ${kind.reason ?? 'polled'}`)
        .join(' · ')}
    >
      <Typography
        variant="caption"
        color="text.secondary"
        tabIndex={0}
        data-testid="polled-kinds"
      >
        Polled instead of watched: {shown}
        {more}
        {cause ? ` (${cause})` : ''}
      </Typography>
    </Tooltip>
  );
}

/**
 * How old the data is, ticking every second without re-rendering the page.
 * While live, the data is current and the age is that of the newest change
 * the cluster reported: said as such ("last change 104 s ago"); otherwise
 * it is how stale what is shown may be ("data 2 m old").
 */
function DataAge({ dataAt, live }: { dataAt: string; live: boolean }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const age = formatAge(dataAt, now);
  if (!age) return null;
  const spaced = age.replace(/^(\d+)/, '$1 ');
  return (
    <Typography
      variant="caption"
      color="text.secondary"
      title={`${
        live ? 'The newest change the cluster reported' : 'Data read'
      } at ${new Date(dataAt).toLocaleString()}`}
      data-testid="data-age"
    >
      {live ? `last change ${spaced} ago` : `data ${spaced} old`}
    </Typography>
  );
}
