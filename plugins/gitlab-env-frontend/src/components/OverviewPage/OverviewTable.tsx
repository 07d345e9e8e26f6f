import * as React from 'react';
import { Link } from '@backstage/core-components';
import { useRouteRef } from '@backstage/core-plugin-api';
import { parseEntityRef } from '@backstage/catalog-model';
import {
  entityRouteRef,
  humanizeEntityRef,
} from '@backstage/plugin-catalog-react';
import {
  OverviewRow,
  OverviewTierGroup,
  overviewRowKey,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import FolderOutlinedIcon from '@mui/icons-material/FolderOutlined';
import { HealthBadge } from '../health/HealthBadge';
import { OptionalLink } from '../text/OptionalLink';
import { Path } from '../text/Path';
import { WHOLE_WORDS_SX } from '../tableStyle';
import { HealthIcon } from '../health/healthStyle';
import { ERROR_CATALOG } from '../errors/errorCatalog';

const TIER_TITLES: Record<OverviewTierGroup['tier'], string> = {
  production: 'Production',
  staging: 'Staging',
  testing: 'Testing',
  development: 'Development',
  other: 'Other',
};

/** `group:default/team-web` as `team-web`, `system:default/shop` as `shop`. */
function shortRef(ref: string | undefined, defaultKind: string): string {
  if (!ref) return '—';
  try {
    return humanizeEntityRef(parseEntityRef(ref), { defaultKind });
  } catch {
    return ref;
  }
}

function since(iso: string | undefined): string {
  if (!iso) return '';
  const minutes = Math.round((Date.now() - Date.parse(iso)) / 60_000);
  if (!Number.isFinite(minutes)) return '';
  if (minutes < 60) return `${Math.max(minutes, 0)}m ago`;
  if (minutes < 48 * 60) return `${Math.round(minutes / 60)}h ago`;
  return `${Math.round(minutes / 1440)}d ago`;
}

/** A row's failures; refusals the agent's RBAC makes on purpose are the tab's information, not the row's warning. */
function RowProblems({ row }: { row: OverviewRow }) {
  const problems = row.errors.filter(error => !error.expected);
  if (problems.length === 0) return null;
  return (
    <Box
      component="ul"
      sx={{
        m: 0,
        mt: 0.5,
        pl: 0,
        listStyle: 'none',
        // With health, the problems are gaps in the read; without, the
        // reason there is none. Orange text would not read: dark words,
        // an orange icon.
        color: row.health ? 'text.primary' : 'error.main',
        '& svg': { color: row.health ? 'warning.main' : 'inherit' },
      }}
    >
      {problems.map((error, index) => (
        <li key={`${error.code}-${index}`}>
          <Tooltip
            title={`${error.message} ${
              error.hint ?? ERROR_CATALOG[error.code].advice
            }`}
          >
            <Typography
              variant="caption"
              component="span"
              sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
              data-error-code={error.code}
              aria-label={`${ERROR_CATALOG[error.code].title}: ${
                error.message
              }`}
            >
              <ErrorOutlineIcon fontSize="inherit" />
              {ERROR_CATALOG[error.code].title}
              {error.resource ? ` (${error.resource})` : ''}
            </Typography>
          </Tooltip>
        </li>
      ))}
    </Box>
  );
}

/** The second line of a cell: what the first line belongs to or where it runs. */
function Secondary({
  children,
  monospace,
}: {
  children: React.ReactNode;
  monospace?: boolean;
}) {
  return (
    <Typography
      variant="caption"
      color="text.secondary"
      sx={{ display: 'block', fontFamily: monospace ? 'monospace' : undefined }}
    >
      {children}
    </Typography>
  );
}

function RowHealth({ row }: { row: OverviewRow }) {
  if (row.pending) {
    return (
      <Typography
        variant="body2"
        color="text.secondary"
        sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}
      >
        <CircularProgress size={14} aria-hidden />
        Reading resources…
      </Typography>
    );
  }
  if (row.health) return <HealthBadge summary={row.health} />;
  return (
    <Typography
      variant="body2"
      sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
    >
      <HealthIcon status="Unknown" /> Unknown
    </Typography>
  );
}

function OverviewTableRow({ row }: { row: OverviewRow }) {
  const entityRoute = useRouteRef(entityRouteRef);
  const entity = parseEntityRef(row.entityRef);
  const environment = row.environment;
  const deployment = environment?.lastDeployment;
  return (
    <TableRow hover data-testid="overview-row" sx={{ verticalAlign: 'top' }}>
      <TableCell>
        <RowHealth row={row} />
        <RowProblems row={row} />
      </TableCell>
      <TableCell>
        <Link
          to={`${entityRoute({
            namespace: entity.namespace,
            kind: entity.kind.toLocaleLowerCase('en-US'),
            name: entity.name,
          })}/gitlab-env`}
        >
          {row.entityTitle ?? entity.name}
        </Link>
      </TableCell>
      <TableCell>
        {environment?.webUrl ? (
          <Link to={environment.webUrl}>
            <Path text={environment.name} />
          </Link>
        ) : (
          <Path text={environment?.name ?? '—'} />
        )}
        {row.project && (
          <Secondary>
            <Link to={row.project.webUrl} color="inherit">
              <Path text={row.project.fullPath} />
            </Link>
          </Secondary>
        )}
      </TableCell>
      <TableCell>{shortRef(row.owner, 'group')}</TableCell>
      <TableCell>{shortRef(row.system, 'system')}</TableCell>
      <TableCell>
        <OptionalLink to={environment?.agent?.webUrl}>
          {environment?.agent?.name ?? '—'}
        </OptionalLink>
        {environment?.namespace && (
          <Secondary monospace>{environment.namespace}</Secondary>
        )}
      </TableCell>
      <TableCell>
        {deployment ? (
          <Tooltip title={deployment.finishedAt ?? ''}>
            <span>
              {deployment.ref} · {deployment.sha?.slice(0, 8)}
              <Secondary>{since(deployment.finishedAt)}</Secondary>
            </span>
          </Tooltip>
        ) : (
          '—'
        )}
      </TableCell>
    </TableRow>
  );
}

// One set of widths for every tier's table, so their columns line up; the
// cells wrap between words (and after the slashes of paths) to fit them.
const COLUMNS: Array<[title: string, width: string]> = [
  ['Health', '20%'],
  ['Entity', '11%'],
  ['Environment · project', '18%'],
  ['Owner', '10%'],
  ['System', '8%'],
  ['Agent · namespace', '18%'],
  ['Last deployment', '15%'],
];

function FolderHeading({
  folder,
  status,
  count,
}: {
  folder: string;
  status?: OverviewTierGroup['status'];
  count: number;
}) {
  return (
    <TableRow>
      <TableCell
        colSpan={COLUMNS.length}
        component="th"
        scope="rowgroup"
        sx={{ bgcolor: 'action.hover', py: 0.75 }}
      >
        <Typography
          variant="subtitle2"
          component="h3"
          sx={{ display: 'flex', alignItems: 'center', gap: 1 }}
        >
          {folder ? (
            <>
              <FolderOutlinedIcon fontSize="small" />
              {folder}
            </>
          ) : (
            'Environments without a folder'
          )}
          {status && <HealthIcon status={status} />}
          <Typography component="span" variant="body2" color="text.secondary">
            {count} environment{count === 1 ? '' : 's'}
          </Typography>
        </Typography>
      </TableCell>
    </TableRow>
  );
}

/** Environments grouped by tier, then folder, worst health first. */
export function OverviewTable({ groups }: { groups: OverviewTierGroup[] }) {
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
      {groups.map(group => (
        <Box
          component="section"
          key={group.tier}
          aria-label={`${TIER_TITLES[group.tier]} environments`}
        >
          <Typography
            variant="h5"
            component="h2"
            sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}
          >
            {group.status ? (
              <HealthIcon status={group.status} fontSize="medium" />
            ) : (
              <CircularProgress size={20} aria-label="Reading health" />
            )}
            {TIER_TITLES[group.tier]}
          </Typography>
          <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
            <Table
              size="small"
              aria-label={`${TIER_TITLES[group.tier]} environments`}
              sx={{
                tableLayout: 'fixed',
                width: '100%',
                // Narrower than this, the card scrolls rather than crush words.
                minWidth: 960,
                ...WHOLE_WORDS_SX,
              }}
            >
              <colgroup>
                {COLUMNS.map(([title, width]) => (
                  <col key={title} style={{ width }} />
                ))}
              </colgroup>
              <TableHead>
                <TableRow>
                  {COLUMNS.map(([title]) => (
                    <TableCell key={title} sx={{ fontWeight: 600 }}>
                      {title}
                    </TableCell>
                  ))}
                </TableRow>
              </TableHead>
              {group.folders.map(folder => (
                <TableBody
                  key={folder.folder}
                  aria-label={
                    folder.folder
                      ? `Folder ${folder.folder}`
                      : 'Environments without a folder'
                  }
                >
                  <FolderHeading
                    folder={folder.folder}
                    status={folder.status}
                    count={folder.rows.length}
                  />
                  {folder.rows.map(row => (
                    <OverviewTableRow key={overviewRowKey(row)} row={row} />
                  ))}
                </TableBody>
              ))}
            </Table>
          </Paper>
        </Box>
      ))}
    </Box>
  );
}
