import * as React from 'react';
import {
  PodUsage,
  ResourceFigures,
  UsageFigures,
  UsageTrend,
  USAGE_WORKLOAD_KINDS,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { CommandList } from '../text/CommandBlock';
import { MessageText } from '../text/MessageText';
import { VISUALLY_HIDDEN_SX } from '../text/visuallyHidden';
import { WarningChip } from '../text/WarningChip';
import { COMPACT_TABLE_SX } from '../tableStyle';
import { formatBytes, formatCpu } from '../../view/format';
import { Sparkline } from './Sparkline';
import { useEnvironmentUsage } from './useEnvironmentUsage';

/** Kinds whose pods the usage sums: the drawer shows a Usage tab for them. */
export const USAGE_KINDS: ReadonlySet<string> = new Set([
  'Pod',
  ...USAGE_WORKLOAD_KINDS,
]);

type Resource = 'cpu' | 'memory';
const FORMAT: Record<Resource, (v: number | undefined) => string> = {
  cpu: formatCpu,
  memory: formatBytes,
};
const TITLE: Record<Resource, string> = { cpu: 'CPU', memory: 'Memory' };

/** The marks a person acts on: over its limit, no request set. */
function Marks({ figures }: { figures: UsageFigures }) {
  const over = (['cpu', 'memory'] as Resource[]).filter(
    r => figures[r].overLimit,
  );
  const missing = (['cpu', 'memory'] as Resource[]).filter(
    r => figures[r].requestMissing,
  );
  return (
    <>
      {over.length ? (
        <Chip
          size="small"
          color="error"
          label={`Over limit: ${over.map(r => TITLE[r]).join(', ')}`}
        />
      ) : null}
      {missing.length ? (
        <WarningChip
          variant="outlined"
          label={`No requests set: ${missing.map(r => TITLE[r]).join(', ')}`}
        />
      ) : null}
    </>
  );
}

function FigureRow({
  resource,
  figures,
}: {
  resource: Resource;
  figures: ResourceFigures;
}) {
  const format = FORMAT[resource];
  const against = figures.limit ?? figures.request;
  const share =
    figures.usage !== undefined && against
      ? Math.min(100, (figures.usage / against) * 100)
      : undefined;
  return (
    <tr>
      <th scope="row">{TITLE[resource]}</th>
      <td>{format(figures.usage)}</td>
      <td>
        {figures.request === undefined ? 'not set' : format(figures.request)}
      </td>
      <td>{figures.limit === undefined ? 'not set' : format(figures.limit)}</td>
      <td style={{ width: 120 }}>
        {share !== undefined ? (
          <LinearProgress
            variant="determinate"
            value={share}
            color={figures.overLimit ? 'error' : 'primary'}
            aria-label={`${TITLE[resource]} ${Math.round(
              (figures.usage! / against!) * 100,
            )}% of its ${figures.limit !== undefined ? 'limit' : 'request'}`}
          />
        ) : null}
      </td>
    </tr>
  );
}

function FiguresTable({ figures }: { figures: UsageFigures }) {
  return (
    <Box component="table" sx={COMPACT_TABLE_SX} aria-label="Usage now">
      <thead>
        <tr>
          <th>
            <Box component="span" sx={VISUALLY_HIDDEN_SX}>
              Resource
            </Box>
          </th>
          <th>Now</th>
          <th>Request</th>
          <th>Limit</th>
          <th>
            <Box component="span" sx={VISUALLY_HIDDEN_SX}>
              Share of the limit (or request)
            </Box>
          </th>
        </tr>
      </thead>
      <tbody>
        <FigureRow resource="cpu" figures={figures.cpu} />
        <FigureRow resource="memory" figures={figures.memory} />
      </tbody>
    </Box>
  );
}

function TrendView({
  trend,
  figures,
}: {
  trend: UsageTrend;
  figures: UsageFigures;
}) {
  const source =
    trend.source === 'prometheus'
      ? `From the cluster's Prometheus (${
          trend.prometheus
        }), the last ${Math.round(
          (trend.points.length * trend.stepSeconds) / 3600,
        )} h at ${trend.stepSeconds} s steps.`
      : `Sampled every ${trend.stepSeconds} s while this page is open (${
          trend.points.length
        } sample${
          trend.points.length === 1 ? '' : 's'
        }); the cluster has no Prometheus the backend could find.`;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
      <Typography variant="body2" color="text.secondary">
        {source}
      </Typography>
      {(['cpu', 'memory'] as Resource[]).map(resource => {
        const values = trend.points
          .map(p => p[resource])
          .filter((v): v is number => v !== undefined);
        if (values.length === 0) return null;
        const format = FORMAT[resource];
        return (
          <Box key={resource}>
            <Typography variant="caption" color="text.secondary">
              {TITLE[resource]}: {format(Math.min(...values))} to{' '}
              {format(Math.max(...values))}, now{' '}
              {format(values[values.length - 1])}
            </Typography>
            <Sparkline
              values={values}
              reference={figures[resource].limit ?? figures[resource].request}
              label={`${TITLE[resource]} trend from ${format(
                values[0],
              )} to ${format(values[values.length - 1])}`}
              color={resource === 'cpu' ? '#1976d2' : '#7b1fa2'}
            />
          </Box>
        );
      })}
      {trend.queries ? (
        <CommandList
          commands={[trend.queries.cpu, trend.queries.memory]}
          label="PromQL"
        />
      ) : null}
    </Box>
  );
}

function PodsTable({ pods }: { pods: PodUsage[] }) {
  return (
    <Box component="table" sx={COMPACT_TABLE_SX} aria-label="Pods">
      <thead>
        <tr>
          <th>Pod</th>
          <th>CPU</th>
          <th>Memory</th>
          <th>
            <Box component="span" sx={VISUALLY_HIDDEN_SX}>
              Marks
            </Box>
          </th>
        </tr>
      </thead>
      <tbody>
        {pods.map(pod => (
          <tr key={pod.name}>
            <td>{pod.name}</td>
            <td>
              {pod.measured ? formatCpu(pod.cpu.usage) : 'no metrics yet'}
            </td>
            <td>{pod.measured ? formatBytes(pod.memory.usage) : ''}</td>
            <td>
              <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
                <Marks figures={pod} />
              </Box>
            </td>
          </tr>
        ))}
      </tbody>
    </Box>
  );
}

/**
 * A pod's or workload's CPU and memory: now, against requests and limits,
 * with the marks, the trend (Prometheus's over hours, or sampled while the
 * page is open), a workload's pods, and the kubectl command that shows the
 * same. When the cluster has no metrics API, says so once.
 */
export function UsagePanel({ kind, name }: { kind: string; name: string }) {
  const target =
    kind === 'Pod' ? { pod: name } : { workload: `${kind}/${name}` };
  const { usage, error, loading } = useEnvironmentUsage(target);
  if (loading && !usage) return <LinearProgress aria-label="Loading usage" />;
  if (!usage)
    return (
      <Alert severity="error">
        The usage could not be read: {error?.message ?? 'no answer'}
      </Alert>
    );
  const figures: (UsageFigures & { pods?: PodUsage[] }) | undefined =
    kind === 'Pod'
      ? usage.pods.find(p => p.name === name)
      : (() => {
          const workload = usage.workloads.find(
            w => w.kind === kind && w.name === name,
          );
          return (
            workload && {
              ...workload,
              pods: usage.pods.filter(
                p => p.workload?.kind === kind && p.workload.name === name,
              ),
            }
          );
        })();
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      {!usage.metrics.available ? (
        <Alert severity="info" variant="outlined">
          <MessageText text={usage.metrics.reason} />
        </Alert>
      ) : null}
      {error ? (
        <Alert severity="warning" variant="outlined">
          The latest refresh failed: {error.message}
        </Alert>
      ) : null}
      {figures ? (
        <>
          <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
            <Marks figures={figures} />
          </Box>
          <FiguresTable figures={figures} />
          {usage.trend && usage.trend.points.length > 0 ? (
            <TrendView trend={usage.trend} figures={figures} />
          ) : null}
          {figures.pods && figures.pods.length > 0 ? (
            <PodsTable pods={figures.pods} />
          ) : null}
        </>
      ) : (
        <Typography variant="body2" color="text.secondary">
          No pods of this {kind} in the environment right now.
        </Typography>
      )}
      {usage.prometheus?.error ? (
        <Typography variant="body2" color="text.secondary">
          The cluster's Prometheus ({usage.prometheus.service}) did not answer:{' '}
          {usage.prometheus.error}
        </Typography>
      ) : null}
      <CommandList commands={[usage.kubectl]} label="kubectl top" />
    </Box>
  );
}
