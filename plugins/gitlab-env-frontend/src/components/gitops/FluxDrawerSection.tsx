import * as React from 'react';
import {
  DesiredObjectDiff,
  DriftReport,
  FieldChange,
  FluxHistoryEntry,
  FluxObjectView,
  ObjectGitOps,
  ResourceNode,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { driftCommands, fluxCommands } from '../../view/fluxCommands';
import { formatAge } from '../../view/format';
import { CommandList } from '../text/CommandBlock';
import { COMPACT_TABLE_SX } from '../tableStyle';
import { SyncChip } from './SyncChip';
import { WarningChip } from '../text/WarningChip';

function Title({ children }: { children: React.ReactNode }) {
  return (
    <Typography
      variant="subtitle2"
      component="h3"
      color="text.secondary"
      sx={{ mb: 0.75, textTransform: 'uppercase', letterSpacing: 0.5 }}
    >
      {children}
    </Typography>
  );
}

const shortRevision = (revision: string) =>
  revision.replace(/@(sha1|sha256):([0-9a-f]{8})[0-9a-f]+/, '@$1:$2');

function SyncState({
  flux,
  onSelect,
  now,
}: {
  flux: FluxObjectView;
  onSelect: (id: string) => void;
  now: number;
}) {
  const { sync, source } = flux;
  return (
    <Box component="section" aria-label="Flux sync">
      <Title>Flux sync</Title>
      <Box
        sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}
      >
        <SyncChip status={sync.status} />
        {sync.reason ? (
          <Typography variant="body2" color="text.secondary">
            {sync.reason}
          </Typography>
        ) : null}
      </Box>
      {sync.message ? (
        <Typography variant="body2" sx={{ mt: 0.5 }}>
          {sync.message}
        </Typography>
      ) : null}
      {sync.status === 'suspended' && sync.suspendedBy ? (
        <Typography variant="body2" sx={{ mt: 0.5 }}>
          Suspended by <code>{sync.suspendedBy}</code>
          {sync.suspendedAt
            ? ` ${formatAge(sync.suspendedAt, now) ?? '?'} ago`
            : ''}{' '}
          (the field manager that set <code>spec.suspend</code>)
        </Typography>
      ) : null}
      <Box
        component="dl"
        sx={{
          m: 0,
          mt: 1,
          typography: 'body2',
          '& dt': { color: 'text.secondary' },
          '& dd': { m: 0, mb: 0.5, fontFamily: 'monospace' },
        }}
      >
        {sync.lastAppliedRevision ? (
          <>
            <dt>Applied revision</dt>
            <dd title={sync.lastAppliedRevision}>
              {shortRevision(sync.lastAppliedRevision)}
            </dd>
          </>
        ) : null}
        {source ? (
          <>
            <dt>Source</dt>
            <dd>
              <Link
                component="button"
                variant="body2"
                onClick={() => onSelect(source.nodeId)}
              >
                {source.key.kind}/{source.key.namespace}/{source.key.name}
              </Link>
              {source.found ? null : ' (not found: missing, or not readable)'}
            </dd>
            {source.revision ? (
              <>
                <dt>Source revision</dt>
                <dd title={source.revision}>
                  {shortRevision(source.revision)}{' '}
                  {source.differs ? (
                    <WarningChip label="not applied yet" />
                  ) : (
                    <Chip size="small" variant="outlined" label="applied" />
                  )}
                </dd>
              </>
            ) : null}
          </>
        ) : null}
      </Box>
    </Box>
  );
}

const OUTCOME_COLOR: Record<FluxHistoryEntry['outcome'], string> = {
  succeeded: 'success.main',
  failed: 'error.main',
  progressing: 'info.main',
  unknown: 'text.disabled',
};

function History({
  history,
  now,
}: {
  history: FluxHistoryEntry[];
  now: number;
}) {
  return (
    <Box component="section" aria-label="History">
      <Title>History</Title>
      {history.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          The controller keeps no history for this object, and no event or
          condition transition is left.
        </Typography>
      ) : (
        <Box component="ol" sx={{ m: 0, p: 0 }}>
          {history.map((entry, index) => (
            <Box
              component="li"
              key={`${entry.time}-${index}`}
              sx={{
                listStyle: 'none',
                borderLeft: 3,
                borderColor: OUTCOME_COLOR[entry.outcome],
                pl: 1.5,
                mb: 1,
              }}
            >
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {entry.outcome} · {entry.detail}
              </Typography>
              <Typography
                variant="caption"
                color="text.secondary"
                component="div"
              >
                {entry.revision ? `${shortRevision(entry.revision)} · ` : ''}
                {entry.time
                  ? `${formatAge(entry.time, now) ?? '?'} ago`
                  : 'time unknown'}
                {entry.duration ? ` · took ${entry.duration}` : ''}
                {entry.count && entry.count > 1 ? ` · ×${entry.count}` : ''}
                {` · from ${entry.from}`}
              </Typography>
            </Box>
          ))}
        </Box>
      )}
    </Box>
  );
}

const show = (value: unknown) =>
  value === undefined ? '—' : JSON.stringify(value);

function changeLabel(change: FieldChange): string {
  if (change.change === 'added') return 'added';
  if (change.change === 'removed') return 'removed';
  return 'changed';
}

const SIGNAL_NAMES: Record<DriftReport['signals'][number]['signal'], string> = {
  managedFields: 'Server-side apply',
  lastApplied: 'kubectl last-applied',
  fluxEvent: 'Flux drift detection',
  fluxCondition: 'Flux drift condition',
};

/** Fields that differ, one a row: path, kind of change, applied, live, and who wrote the live value. */
function FieldChangeTable({
  changes,
  label,
}: {
  changes: FieldChange[];
  label: string;
}) {
  if (changes.length === 0) return null;
  return (
    <Box
      component="table"
      aria-label={label}
      sx={{
        ...COMPACT_TABLE_SX,
        '& td': { fontFamily: 'monospace', wordBreak: 'break-all' },
      }}
    >
      <thead>
        <tr>
          <th>Field</th>
          <th>Change</th>
          <th>Applied</th>
          <th>Live</th>
          <th>By</th>
        </tr>
      </thead>
      <tbody>
        {changes.map(change => (
          <tr key={`${change.path}-${change.by ?? ''}`}>
            <td>{change.path}</td>
            <td>{changeLabel(change)}</td>
            <td>{show(change.desired)}</td>
            <td>{show(change.live)}</td>
            <td>{change.by ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </Box>
  );
}

/** The drift of one object: each signal, and the fields that differ. */
export function DriftDiff({ drift }: { drift: DriftReport }) {
  return (
    <Box component="section" aria-label="Drift">
      <Title>Drift</Title>
      <Box component="ul" sx={{ m: 0, pl: 2, mb: 1 }}>
        {drift.signals.map((signal, index) => (
          <Typography component="li" variant="body2" key={index}>
            {SIGNAL_NAMES[signal.signal]}: {signal.detail}
          </Typography>
        ))}
      </Box>
      <FieldChangeTable changes={drift.changes} label="Drifted fields" />
    </Box>
  );
}

/**
 * What GitOps knows of one node, at the top of the drawer: a Flux object's
 * sync state, source and history; an object's drift; that it is unmanaged
 * or a ResourceSet's. Nothing for objects GitOps says nothing about.
 */
export function FluxDrawerSection({
  node,
  gitops,
  desired,
  desiredNote,
  onSelect,
  now,
}: {
  node: ResourceNode;
  /** What GitOps says of this object (the object route's answer). */
  gitops: ObjectGitOps;
  /** The repository's manifest of this object against the live one. */
  desired?: DesiredObjectDiff;
  /** What the repository comparison says of this object besides a diff (why none, what was not rendered). */
  desiredNote?: string;
  onSelect: (id: string) => void;
  now: number;
}) {
  const { flux, drift, unmanaged, fromResourceSet } = gitops;
  if (
    !flux &&
    !drift &&
    !unmanaged &&
    !fromResourceSet &&
    !desired &&
    !desiredNote
  )
    return null;
  const commands = [
    ...(flux ? fluxCommands(node) : []),
    ...(drift ? driftCommands(node) : []),
  ];
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2.5 }}>
      {unmanaged ? (
        <Typography variant="body2" role="note">
          <WarningChip variant="outlined" label="unmanaged" sx={{ mr: 1 }} />
          No Flux inventory names this object: it was created outside GitOps.
        </Typography>
      ) : null}
      {fromResourceSet ? (
        <Typography variant="body2" role="note">
          <Chip
            size="small"
            variant="outlined"
            label="ResourceSet"
            sx={{ mr: 1 }}
          />
          Applied by a Flux Operator ResourceSet.
        </Typography>
      ) : null}
      {flux ? <SyncState flux={flux} onSelect={onSelect} now={now} /> : null}
      {flux ? <History history={flux.history} now={now} /> : null}
      {drift ? <DriftDiff drift={drift} /> : null}
      {desired || desiredNote ? (
        <Box component="section" aria-label="Desired vs live">
          <Title>Desired (repository) vs live</Title>
          {desired ? (
            <Typography variant="body2" sx={{ mb: 1 }}>
              {desired.state === 'same'
                ? `The live object matches ${desired.file}.`
                : null}
              {desired.state === 'missing'
                ? `${desired.file} has it; the cluster does not.`
                : null}
              {desired.state === 'differs'
                ? `The live object differs from ${desired.file}:`
                : null}
            </Typography>
          ) : null}
          {desired ? (
            <FieldChangeTable
              changes={desired.changes}
              label="Fields that differ from the repository"
            />
          ) : null}
          {desiredNote ? (
            <Typography variant="body2" role="note" sx={{ mt: 1 }}>
              {desiredNote}
            </Typography>
          ) : null}
        </Box>
      ) : null}
      {commands.length > 0 ? (
        <Box component="section">
          <Title>GitOps with kubectl and flux</Title>
          <CommandList commands={commands} label="GitOps commands" />
        </Box>
      ) : null}
    </Box>
  );
}
