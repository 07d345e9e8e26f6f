import * as React from 'react';
import { useMemo, useState } from 'react';
import {
  KubernetesObject,
  PodLogsQuery,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { PodLogsHandlers } from '../../api';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import DownloadIcon from '@mui/icons-material/Download';
import { podContainers } from '../../view/podContainers';
import { GitlabEnvErrorPanel } from '../errors/GitlabEnvErrorPanel';
import { LogLine } from './LogLineStore';
import { LOG_BLOCK_SIZE, LogLinesView } from './LogLinesView';
import { LogSource, useLogStream } from './useLogStream';

/** How the logs are read, for whichever pod and container. */
export type LogQuery = Omit<PodLogsQuery, 'pod' | 'container'>;

export type OpenLogs = (
  source: LogSource,
  query: LogQuery,
  handlers: PodLogsHandlers,
  signal: AbortSignal,
) => Promise<void>;

/** The most lines kept on the page; older ones are dropped in blocks. */
export const MAX_LOG_LINES = 50_000;
const ALL_PODS = '*';
const TAIL_CHOICES = [100, 500, 1000, 5000];
const SINCE_CHOICES: Array<[string, number | undefined]> = [
  ['Any time', undefined],
  ['5 minutes', 300],
  ['1 hour', 3600],
  ['6 hours', 21600],
  ['24 hours', 86400],
];

/**
 * A pod's logs, or a workload's with a pod picker (and all its pods
 * interleaved by time): container, tail, since, previous container, follow,
 * timestamps, search with highlights, wrap and download.
 */
export function LogViewer({
  pods,
  openLogs,
}: {
  /** The pods whose logs can be read, each with its object for the containers. */
  pods: ReadonlyArray<{
    name: string;
    namespace?: string;
    object?: KubernetesObject;
  }>;
  openLogs: OpenLogs;
}) {
  const [pod, setPod] = useState(pods[0]?.name ?? '');
  const chosenPods = pod === ALL_PODS ? pods : pods.filter(p => p.name === pod);
  // A workload's pods share their template: any pod's object names the containers.
  const containers = podContainers(
    (chosenPods.find(p => p.object) ?? pods.find(p => p.object))?.object,
  );
  const [container, setContainer] = useState(containers[0]?.name ?? '');
  const [tailLines, setTailLines] = useState<number | undefined>(500);
  const [sinceSeconds, setSinceSeconds] = useState<number | undefined>();
  const [previous, setPrevious] = useState(false);
  const [follow, setFollow] = useState(true);
  const [timestamps, setTimestamps] = useState(false);
  const [wrap, setWrap] = useState(false);
  const [search, setSearch] = useState('');

  const chosenContainer = containers.some(c => c.name === container)
    ? container
    : containers[0]?.name ?? '';
  const sources = chosenPods.map(p => ({
    pod: p.name,
    namespace: p.namespace,
    container: chosenContainer,
  }));
  // Timestamps are always asked for: they order lines of several pods, and
  // the switch only shows or hides them.
  const query: LogQuery = {
    tailLines,
    sinceSeconds,
    previous,
    follow: follow && !previous,
    timestamps: true,
  };
  const key = JSON.stringify([sources, query]);
  const state = useLogStream(
    sources,
    (source, handlers, signal) => openLogs(source, query, handlers, signal),
    key,
    { maxLines: MAX_LOG_LINES, blockSize: LOG_BLOCK_SIZE },
  );
  const matches = useMemo(
    () => countMatches(state.lines, search),
    [state.lines, search],
  );

  if (pods.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        No pods to read logs from.
      </Typography>
    );
  }
  return (
    <Box
      sx={{
        display: 'flex',
        flexDirection: 'column',
        gap: 1.5,
        height: '100%',
      }}
    >
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        {pods.length > 1 ? (
          <TextField
            select
            size="small"
            label="Pod"
            value={pod}
            onChange={e => setPod(e.target.value)}
            sx={{ minWidth: 200 }}
          >
            <MenuItem value={ALL_PODS}>All pods, interleaved by time</MenuItem>
            {pods.map(p => (
              <MenuItem key={p.name} value={p.name}>
                {p.name}
              </MenuItem>
            ))}
          </TextField>
        ) : null}
        <TextField
          select
          size="small"
          label="Container"
          value={chosenContainer}
          onChange={e => setContainer(e.target.value)}
          sx={{ minWidth: 160 }}
        >
          {containers.map(c => (
            <MenuItem key={c.name} value={c.name}>
              {c.name}
              {c.type === 'container' ? '' : ` (${c.type})`}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label="Tail"
          value={tailLines ?? 0}
          onChange={e => setTailLines(Number(e.target.value) || undefined)}
        >
          {TAIL_CHOICES.map(n => (
            <MenuItem key={n} value={n}>
              last {n} lines
            </MenuItem>
          ))}
          <MenuItem value={0}>all lines</MenuItem>
        </TextField>
        <TextField
          select
          size="small"
          label="Since"
          value={sinceSeconds ?? 0}
          onChange={e => setSinceSeconds(Number(e.target.value) || undefined)}
        >
          {SINCE_CHOICES.map(([label, seconds]) => (
            <MenuItem key={label} value={seconds ?? 0}>
              {label}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          size="small"
          label="Search"
          value={search}
          onChange={e => setSearch(e.target.value)}
          helperText={
            search ? `${matches} matching line${matches === 1 ? '' : 's'}` : ' '
          }
        />
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center' }}>
        <Toggle
          label="Follow"
          checked={follow && !previous}
          disabled={previous}
          onChange={setFollow}
        />
        <Toggle
          label="Previous container"
          checked={previous}
          onChange={setPrevious}
        />
        <Toggle
          label="Timestamps"
          checked={timestamps}
          onChange={setTimestamps}
        />
        <Toggle label="Wrap lines" checked={wrap} onChange={setWrap} />
        <Box sx={{ flexGrow: 1 }} />
        <Button
          size="small"
          startIcon={<DownloadIcon />}
          disabled={state.lines.length === 0}
          onClick={() =>
            download(
              state.lines,
              timestamps,
              `${pod === ALL_PODS ? 'all-pods' : pod}-${chosenContainer}.log`,
            )
          }
        >
          Download
        </Button>
      </Box>
      {chosenPods.length === 0 ? (
        <Alert severity="warning" variant="outlined">
          Pod {pod} is no longer in the environment (deleted or replaced);
          choose another pod.
        </Alert>
      ) : null}
      <LogStatus
        lines={state.lines.length}
        dropped={state.dropped}
        tailLines={tailLines}
        tailCap={state.tailCap}
        open={state.open}
        follow={Boolean(query.follow)}
      />
      {state.error ? (
        <GitlabEnvErrorPanel
          error={state.error}
          title="Could not read the logs"
        />
      ) : null}
      <LogLinesView
        lines={state.lines}
        query={search}
        wrap={wrap}
        timestamps={timestamps}
        showSource={sources.length > 1}
        follow={Boolean(query.follow)}
      />
    </Box>
  );
}

function Toggle({
  label,
  checked,
  disabled,
  onChange,
}: {
  label: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (value: boolean) => void;
}) {
  return (
    <FormControlLabel
      label={label}
      disabled={disabled}
      control={
        <Switch
          size="small"
          checked={checked}
          onChange={e => onChange(e.target.checked)}
        />
      }
    />
  );
}

/** Says which part of the log is on screen, so a capped tail is never taken for the whole. */
function LogStatus({
  lines,
  dropped,
  tailLines,
  tailCap,
  open,
  follow,
}: {
  lines: number;
  dropped: number;
  tailLines?: number;
  tailCap?: number;
  open: number;
  follow: boolean;
}) {
  const notes: string[] = [];
  if (tailCap !== undefined) {
    notes.push(
      `Showing the last ${tailCap.toLocaleString(
        'en-US',
      )} lines: the backend returns no more at once. Narrow with Since, or use kubectl logs for the whole log.`,
    );
  } else if (tailLines !== undefined) {
    notes.push(
      `Showing the last ${tailLines.toLocaleString('en-US')} lines${
        follow ? ', then new lines as they come' : ''
      }.`,
    );
  }
  if (dropped > 0) {
    notes.push(
      `${dropped.toLocaleString(
        'en-US',
      )} older lines were dropped from the page to keep it fast; the page holds the last ${MAX_LOG_LINES.toLocaleString(
        'en-US',
      )}.`,
    );
  }
  return (
    <Box aria-live="polite">
      {notes.map(note => (
        <Alert key={note} severity="info" variant="outlined" sx={{ py: 0 }}>
          {note}
        </Alert>
      ))}
      <Typography variant="caption" color="text.secondary">
        {lines.toLocaleString('en-US')} lines
        {streamState(open, follow)}
      </Typography>
    </Box>
  );
}

function streamState(open: number, follow: boolean): string {
  if (open === 0) return ' · stream ended';
  return follow ? ' · following' : ' · loading';
}

function countMatches(lines: readonly LogLine[], search: string): number {
  if (!search) return 0;
  const needle = search.toLocaleLowerCase('en-US');
  let count = 0;
  for (const line of lines) {
    if (line.text.toLocaleLowerCase('en-US').includes(needle)) count++;
  }
  return count;
}

function download(
  lines: readonly LogLine[],
  timestamps: boolean,
  name: string,
) {
  const text = lines
    .map(line =>
      [timestamps ? line.timestamp : undefined, line.source, line.text]
        .filter(part => part !== undefined)
        .join(' '),
    )
    .join('\n');
  const url = URL.createObjectURL(
    new Blob([`${text}\n`], { type: 'text/plain' }),
  );
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = name.replace(/[^A-Za-z0-9._-]/g, '_');
  anchor.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
