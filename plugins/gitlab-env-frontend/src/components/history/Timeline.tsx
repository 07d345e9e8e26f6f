import * as React from 'react';
import { useMemo, useState } from 'react';
import { CompoundEntityRef } from '@backstage/catalog-model';
import { Link } from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import {
  TIMELINE_ENTRY_KINDS,
  TimelineEntry,
  TimelineEntryKind,
  TimelineLink,
  groupOfApiVersion,
  resourceId,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { gitlabEnvHistoryApiRef } from '../../api';
import { useCursorPages } from '../../hooks/useCursorPages';
import { formatTime } from '../../view/format';
import { GitlabEnvErrorPanel } from '../errors/GitlabEnvErrorPanel';
import { HealthIcon } from '../health/healthStyle';
import { MessageText } from '../text/MessageText';
import { TIMELINE_KIND_COLOR, TIMELINE_KIND_LABEL } from './historyStyle';
import { TimelineAxis } from './TimelineAxis';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The zoom levels: how far back the axis reaches from now. */
const ZOOMS = [
  { key: '1h', label: '1 hour', span: HOUR },
  { key: '6h', label: '6 hours', span: 6 * HOUR },
  { key: '1d', label: '1 day', span: DAY },
  { key: '7d', label: '7 days', span: 7 * DAY },
  { key: '30d', label: '30 days', span: 30 * DAY },
] as const;
type ZoomKey = (typeof ZOOMS)[number]['key'] | 'all';
const PAGE_SIZE = 100;

/**
 * What happened to an environment (or to every environment of the entity)
 * on one time axis, from the plugin's own database: deployments, rollouts,
 * Flux, health transitions with their cause, warning Events and actions
 * taken through the portal. Filtered by kind, zoomed by how far back it
 * reaches; each entry links to its object, deployment or job.
 */
export function Timeline({
  entity,
  environmentSlug,
}: {
  entity: CompoundEntityRef;
  /** One environment; every environment of the entity when left out. */
  environmentSlug?: string;
}) {
  const api = useApi(gitlabEnvHistoryApiRef);
  const [kinds, setKinds] = useState<TimelineEntryKind[]>([
    ...TIMELINE_ENTRY_KINDS,
  ]);
  const [zoom, setZoom] = useState<ZoomKey>('7d');
  const [reads, setReads] = useState(0);
  const [focused, setFocused] = useState<string>();

  // The window ends now at each read: a newer read reaches newer entries.
  const window = useMemo(() => {
    const to = Date.now();
    const span = ZOOMS.find(z => z.key === zoom)?.span;
    return { from: span ? to - span : undefined, to };
    // `reads` moves the window's end to now.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [zoom, reads]);

  const pages = useCursorPages(
    (cursor, signal) =>
      api.getTimeline(
        entity,
        {
          environment: environmentSlug,
          kinds:
            kinds.length === TIMELINE_ENTRY_KINDS.length ? undefined : kinds,
          from: window.from,
          cursor,
          limit: PAGE_SIZE,
        },
        { signal },
      ),
    page => page.entries,
    [api, entity, environmentSlug, kinds, window],
  );
  const { response, items: entries, loading, error } = pages;

  const oldestShown = entries.length
    ? Date.parse(entries[entries.length - 1].at)
    : undefined;
  const axisFrom =
    window.from ??
    (oldestShown !== undefined
      ? Math.min(oldestShown, window.to - HOUR)
      : window.to - (response?.retentionDays ?? 30) * DAY);

  return (
    <Box
      component="section"
      aria-label={
        environmentSlug ? 'Timeline' : 'Timeline of every environment'
      }
      sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}
    >
      <Box
        sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}
      >
        <Box
          role="group"
          aria-label="Kinds of entries"
          sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}
        >
          {TIMELINE_ENTRY_KINDS.map(kind => {
            const on = kinds.includes(kind);
            return (
              <Chip
                key={kind}
                label={TIMELINE_KIND_LABEL[kind]}
                size="small"
                variant={on ? 'filled' : 'outlined'}
                aria-pressed={on}
                // The last kind shown stays on: no kind would mean no filter to the API.
                disabled={on && kinds.length === 1}
                onClick={() =>
                  setKinds(previous =>
                    on
                      ? previous.filter(k => k !== kind)
                      : TIMELINE_ENTRY_KINDS.filter(
                          k => k === kind || previous.includes(k),
                        ),
                  )
                }
                sx={
                  on
                    ? { bgcolor: TIMELINE_KIND_COLOR[kind], color: '#fff' }
                    : { borderColor: TIMELINE_KIND_COLOR[kind] }
                }
              />
            );
          })}
        </Box>
        <Box sx={{ flexGrow: 1 }} />
        <ToggleButtonGroup
          size="small"
          exclusive
          value={zoom}
          onChange={(_e, next: ZoomKey | null) => {
            if (next) setZoom(next);
          }}
          aria-label="How far back"
        >
          {ZOOMS.map(z => (
            <ToggleButton
              key={z.key}
              value={z.key}
              title={`The last ${z.label}`}
            >
              {z.key}
            </ToggleButton>
          ))}
          <ToggleButton value="all" title="Everything kept">
            all
          </ToggleButton>
        </ToggleButtonGroup>
        <Button
          size="small"
          onClick={() => setReads(n => n + 1)}
          disabled={loading}
        >
          Refresh
        </Button>
      </Box>
      <TimelineAxis
        entries={entries}
        from={axisFrom}
        to={window.to}
        onPick={id => {
          setFocused(id);
          document
            .getElementById(entryElementId(id))
            ?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
        }}
      />
      {loading && !response ? (
        <Skeleton
          variant="rounded"
          height={120}
          aria-label="Loading the timeline"
        />
      ) : null}
      {error ? (
        <GitlabEnvErrorPanel
          error={error}
          onRetry={pages.retry}
          title={
            pages.olderFailed
              ? 'Could not read older entries'
              : 'Could not read the timeline'
          }
        />
      ) : null}
      {response && entries.length === 0 ? (
        <Alert severity="info" variant="outlined">
          Nothing recorded{' '}
          {zoom === 'all'
            ? 'yet'
            : `in the last ${ZOOMS.find(z => z.key === zoom)?.label}`}
          {kinds.length < TIMELINE_ENTRY_KINDS.length
            ? ' of the kinds chosen'
            : ''}
          .
        </Alert>
      ) : null}
      {entries.length > 0 ? (
        <TimelineList
          entries={entries}
          showEnvironment={!environmentSlug}
          focused={focused}
        />
      ) : null}
      {response?.nextCursor ? (
        <Box>
          <Button
            size="small"
            variant="outlined"
            disabled={loading}
            onClick={pages.loadOlder}
          >
            {loading ? 'Loading…' : 'Older entries'}
          </Button>
        </Box>
      ) : null}
      {response ? (
        <Typography variant="caption" color="text.secondary">
          Kept for {response.retentionDays} days.{' '}
          <MessageText text={response.recording} />
        </Typography>
      ) : null}
    </Box>
  );
}

function entryElementId(id: string): string {
  return `gitlab-env-timeline-${id.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

function dayOf(at: string): string {
  return new Date(at).toLocaleDateString('en-GB', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  });
}

/** Newest first, under a heading per day. */
function TimelineList({
  entries,
  showEnvironment,
  focused,
}: {
  entries: TimelineEntry[];
  showEnvironment: boolean;
  focused?: string;
}) {
  const days: Array<{ day: string; entries: TimelineEntry[] }> = [];
  for (const entry of entries) {
    const day = dayOf(entry.at);
    if (days[days.length - 1]?.day !== day) days.push({ day, entries: [] });
    days[days.length - 1].entries.push(entry);
  }
  return (
    <Box>
      {days.map(({ day, entries: ofDay }) => (
        <Box key={day} component="section" aria-label={day} sx={{ mb: 1 }}>
          <Typography variant="overline" component="h4" color="text.secondary">
            {day}
          </Typography>
          <Box
            component="ol"
            aria-label={`Entries of ${day}`}
            sx={{ m: 0, p: 0 }}
          >
            {ofDay.map(entry => (
              <TimelineItem
                key={entry.id}
                entry={entry}
                showEnvironment={showEnvironment}
                focused={entry.id === focused}
              />
            ))}
          </Box>
        </Box>
      ))}
    </Box>
  );
}

function TimelineItem({
  entry,
  showEnvironment,
  focused,
}: {
  entry: TimelineEntry;
  showEnvironment: boolean;
  focused: boolean;
}) {
  const color = TIMELINE_KIND_COLOR[entry.kind];
  return (
    <Box
      component="li"
      id={entryElementId(entry.id)}
      data-kind={entry.kind}
      sx={{
        listStyle: 'none',
        display: 'grid',
        gridTemplateColumns: '56px 1fr',
        gap: 1.5,
        py: 0.75,
        pl: 1,
        borderLeft: 3,
        borderColor: color,
        bgcolor: focused ? 'action.selected' : undefined,
      }}
    >
      <Typography
        variant="body2"
        color="text.secondary"
        component="time"
        dateTime={entry.at}
        title={formatTime(entry.at)}
      >
        {new Date(entry.at).toLocaleTimeString('en-GB', {
          hour: '2-digit',
          minute: '2-digit',
        })}
      </Typography>
      <Box sx={{ minWidth: 0 }}>
        <Box
          sx={{
            display: 'flex',
            alignItems: 'center',
            gap: 1,
            flexWrap: 'wrap',
          }}
        >
          <Typography
            variant="caption"
            sx={{ color, fontWeight: 700, textTransform: 'uppercase' }}
          >
            {entry.kind}
          </Typography>
          {showEnvironment ? (
            <Chip size="small" variant="outlined" label={entry.environment} />
          ) : null}
          {entry.health ? (
            <Box
              component="span"
              sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
            >
              {entry.health.from ? (
                <HealthIcon status={entry.health.from} />
              ) : null}
              {entry.health.from ? '→' : null}
              <HealthIcon status={entry.health.to} />
            </Box>
          ) : null}
          <Typography
            variant="body2"
            sx={{ fontWeight: entry.severity === 'error' ? 700 : 500 }}
          >
            {entry.summary}
          </Typography>
        </Box>
        {entry.detail ? (
          <Typography variant="body2" color="text.secondary">
            <MessageText text={entry.detail} />
          </Typography>
        ) : null}
        {entry.links.length > 0 ? (
          <Box
            sx={{
              display: 'flex',
              flexWrap: 'wrap',
              columnGap: 2,
              typography: 'body2',
            }}
          >
            {entry.links.map(link => (
              <EntryLink
                key={`${link.label}${link.url ?? ''}`}
                link={link}
                environment={entry.environment}
              />
            ))}
          </Box>
        ) : null}
      </Box>
    </Box>
  );
}

/** A GitLab page, or the object opened in the tab's resources. */
function EntryLink({
  link,
  environment,
}: {
  link: TimelineLink;
  environment: string;
}) {
  if (link.url) return <Link to={link.url}>{link.label}</Link>;
  if (!link.object) return <span>{link.label}</span>;
  const id = resourceId({
    group: groupOfApiVersion(link.object.apiVersion),
    kind: link.object.kind,
    namespace: link.object.namespace,
    name: link.object.name,
  });
  return (
    <Link to={`?${new URLSearchParams({ env: environment, object: id })}`}>
      {link.label}
    </Link>
  );
}
