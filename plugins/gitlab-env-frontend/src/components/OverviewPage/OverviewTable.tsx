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
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import FolderOutlinedIcon from '@mui/icons-material/FolderOutlined';
import { HealthBadge } from '../health/HealthBadge';
import { HealthIcon } from '../health/healthStyle';
import { ERROR_CATALOG } from '../errors/errorCatalog';

const TIER_TITLES: Record<OverviewTierGroup['tier'], string> = {
  production: 'Production',
  staging: 'Staging',
  testing: 'Testing',
  development: 'Development',
  other: 'Other',
};

function shortRef(ref: string | undefined): string {
  if (!ref) return '';
  try {
    return humanizeEntityRef(parseEntityRef(ref), { defaultKind: 'group' });
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

function MaybeLink({
  to,
  children,
}: {
  to?: string;
  children: React.ReactNode;
}) {
  return to ? <Link to={to}>{children}</Link> : <>{children}</>;
}

function RowProblems({ row }: { row: OverviewRow }) {
  if (row.errors.length === 0) return null;
  return (
    <Box component="ul" sx={{ m: 0, pl: 2 }}>
      {row.errors.map((error, index) => (
        <li key={`${error.code}-${index}`}>
          <Tooltip
            title={`${error.message} ${
              error.hint ?? ERROR_CATALOG[error.code].advice
            }`}
          >
            <Typography
              variant="body2"
              data-error-code={error.code}
              aria-label={`${ERROR_CATALOG[error.code].title}: ${
                error.message
              }`}
            >
              {ERROR_CATALOG[error.code].title}
              {error.resource ? ` (${error.resource})` : ''}
            </Typography>
          </Tooltip>
        </li>
      ))}
    </Box>
  );
}

function OverviewTableRow({ row }: { row: OverviewRow }) {
  const entityRoute = useRouteRef(entityRouteRef);
  const entity = parseEntityRef(row.entityRef);
  const environment = row.environment;
  const deployment = environment?.lastDeployment;
  return (
    <TableRow
      hover
      data-testid="overview-row"
      sx={{
        '& > td': { whiteSpace: 'nowrap' },
        '& > td:last-of-type': { whiteSpace: 'normal' },
      }}
    >
      <TableCell sx={{ minWidth: 220 }}>
        {row.health ? (
          <HealthBadge summary={row.health} />
        ) : (
          <Typography variant="body2" component="span">
            <HealthIcon status="Unknown" /> Unknown
          </Typography>
        )}
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
          <Link to={environment.webUrl}>{environment.name}</Link>
        ) : (
          environment?.name ?? '—'
        )}
      </TableCell>
      <TableCell>{shortRef(row.owner)}</TableCell>
      <TableCell>{shortRef(row.system)}</TableCell>
      <TableCell>
        {row.project ? (
          <Link to={row.project.webUrl}>{row.project.fullPath}</Link>
        ) : (
          '—'
        )}
      </TableCell>
      <TableCell>
        <MaybeLink to={environment?.agent?.webUrl}>
          {environment?.agent?.name ?? '—'}
        </MaybeLink>
      </TableCell>
      <TableCell sx={{ fontFamily: 'monospace' }}>
        {environment?.namespace ?? '—'}
      </TableCell>
      <TableCell>
        {deployment ? (
          <Tooltip title={deployment.finishedAt ?? ''}>
            <span>
              {deployment.ref} · {deployment.sha?.slice(0, 8)} ·{' '}
              {since(deployment.finishedAt)}
            </span>
          </Tooltip>
        ) : (
          '—'
        )}
      </TableCell>
      <TableCell sx={{ minWidth: 240 }}>
        <RowProblems row={row} />
      </TableCell>
    </TableRow>
  );
}

const COLUMNS = [
  'Health',
  'Entity',
  'Environment',
  'Owner',
  'System',
  'Project',
  'Agent',
  'Namespace',
  'Last deployment',
  'Problems',
];

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
            <HealthIcon status={group.status} fontSize="medium" />
            {TIER_TITLES[group.tier]}
          </Typography>
          {group.folders.map(folder => (
            <Box
              key={folder.folder}
              sx={{ mb: 2, border: 1, borderColor: 'divider', borderRadius: 1 }}
            >
              <Typography
                variant="subtitle1"
                component="h3"
                sx={{
                  display: 'flex',
                  alignItems: 'center',
                  gap: 1,
                  px: 2,
                  py: 1,
                  bgcolor: 'action.hover',
                }}
              >
                {folder.folder ? (
                  <>
                    <FolderOutlinedIcon fontSize="small" />
                    {folder.folder}/
                  </>
                ) : (
                  'Environments without a folder'
                )}
                <Typography
                  component="span"
                  variant="body2"
                  color="text.secondary"
                >
                  {folder.rows.length} environment
                  {folder.rows.length === 1 ? '' : 's'}
                </Typography>
              </Typography>
              <Box sx={{ overflowX: 'auto' }}>
                <Table
                  size="small"
                  aria-label={`${
                    folder.folder || TIER_TITLES[group.tier]
                  } environments`}
                >
                  <TableHead>
                    <TableRow>
                      {COLUMNS.map(column => (
                        <TableCell key={column}>{column}</TableCell>
                      ))}
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {folder.rows.map(row => (
                      <OverviewTableRow
                        key={`${row.entityRef}|${
                          row.environment?.id ?? 'none'
                        }`}
                        row={row}
                      />
                    ))}
                  </TableBody>
                </Table>
              </Box>
            </Box>
          ))}
        </Box>
      ))}
    </Box>
  );
}
