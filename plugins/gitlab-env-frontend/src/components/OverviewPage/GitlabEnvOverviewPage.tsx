import * as React from 'react';
import {
  Content,
  ContentHeader,
  EmptyState,
  Header,
  Page,
  Progress,
  SupportButton,
} from '@backstage/core-components';
import {
  gitlabEnvDiagnosticsReadPermission,
  HealthStatus,
  OverviewRow,
  countOverviewRows,
  filterOverviewRows,
  groupOverviewRows,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Skeleton from '@mui/material/Skeleton';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useAuthorized } from '../../hooks/useAuthorized';
import { StaleNamespacesOverview } from '../access';
import { SystemVersions } from '../history';
import { GitlabEnvErrorPanel } from '../errors/GitlabEnvErrorPanel';
import { OverviewFiltersBar } from './OverviewFiltersBar';
import { OverviewHealthCounts } from './OverviewHealthCounts';
import { OverviewTable } from './OverviewTable';
import { useOverviewFilters } from './useOverviewFilters';
import { useOverviewStream } from './useOverviewStream';
import { useLiveOverviewRows } from './useLiveOverviewRows';
import { LiveIndicator } from '../live/LiveIndicator';

/**
 * First the entities whose environments are listed, then the environments
 * whose resources are read: the two phases of the backend's stream.
 */
function LoadingProgress({
  entitiesLoaded,
  entitiesTotal,
  rows,
}: {
  entitiesLoaded: number;
  entitiesTotal?: number;
  rows: OverviewRow[];
}) {
  // Rows settled by a health line are `pending: false`; rows that never
  // needed a read (listing failed, no agent) leave it unset.
  const read = rows.filter(row => row.pending === false).length;
  const toRead = read + rows.filter(row => row.pending).length;
  let text = 'Finding the catalog entities with GitLab environments…';
  let percent: number | undefined;
  if (entitiesTotal !== undefined && entitiesLoaded < entitiesTotal) {
    text = `Loaded ${entitiesLoaded} of ${entitiesTotal} entities`;
    percent = (100 * entitiesLoaded) / Math.max(entitiesTotal, 1);
  } else if (entitiesTotal !== undefined) {
    text = `Read the health of ${read} of ${toRead} environments`;
    percent = (100 * read) / Math.max(toRead, 1);
  }
  return (
    <Box role="status" aria-live="polite" sx={{ my: 1 }}>
      <Typography variant="body2" color="text.secondary" gutterBottom>
        {text}
      </Typography>
      <LinearProgress
        variant={percent === undefined ? 'indeterminate' : 'determinate'}
        value={percent}
        aria-label="Loading environments"
      />
    </Box>
  );
}

// Admins only: loaded when the tab is opened.
const DiagnosticsView = React.lazy(() =>
  import('../DiagnosticsView').then(m => ({ default: m.DiagnosticsView })),
);

/**
 * Every GitLab environment of every catalog entity that carries the
 * plugin's annotations, grouped by tier and folder, worst health first.
 */
export function GitlabEnvOverviewPage() {
  // Admins get a second tab: what the backend sees of each GitLab instance.
  const diagnostics = useAuthorized({
    permission: gitlabEnvDiagnosticsReadPermission,
  });
  const [view, setView] = React.useState<'environments' | 'diagnostics'>(
    'environments',
  );
  return (
    <Page themeId="tool">
      <Header
        title="Deployments"
        subtitle="Every GitLab environment of the catalog, worst health first"
      />
      <Content>
        {diagnostics.allowed && (
          <Tabs
            value={view}
            onChange={(_, value) => setView(value)}
            sx={{ mb: 2 }}
          >
            <Tab value="environments" label="Environments" />
            <Tab value="diagnostics" label="GitLab diagnostics" />
          </Tabs>
        )}
        {view === 'diagnostics' && diagnostics.allowed ? (
          <React.Suspense fallback={<Progress />}>
            <DiagnosticsView />
          </React.Suspense>
        ) : (
          <EnvironmentsOverview />
        )}
      </Content>
    </Page>
  );
}

function EnvironmentsOverview() {
  const stream = useOverviewStream();
  const [filters, setFilters] = useOverviewFilters();
  const live = useLiveOverviewRows(stream.rows, filters);
  const rows = live.rows;
  const visible = React.useMemo(
    () => filterOverviewRows(rows, filters),
    [rows, filters],
  );
  const groups = React.useMemo(() => groupOverviewRows(visible), [visible]);
  // The counts ignore the health filter, so they still show what it hides.
  const counts = React.useMemo(
    () =>
      countOverviewRows(
        filterOverviewRows(rows, { ...filters, health: undefined }),
      ),
    [rows, filters],
  );
  const toggleHealth = (status: HealthStatus) => {
    const selected = filters.health ?? [];
    setFilters({
      ...filters,
      health: selected.includes(status)
        ? selected.filter(s => s !== status)
        : [...selected, status],
    });
  };

  return (
    <>
      <ContentHeader title="Environments">
        <SupportButton>
          Health is ArgoCD's assessment of each environment's Kubernetes
          resources, read through the GitLab agent for Kubernetes.
        </SupportButton>
      </ContentHeader>
      {stream.error ? (
        <GitlabEnvErrorPanel error={stream.error} onRetry={stream.reload} />
      ) : (
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          <OverviewHealthCounts
            counts={counts}
            selected={filters.health ?? []}
            onToggle={toggleHealth}
          />
          <OverviewFiltersBar
            rows={rows}
            filters={filters}
            onChange={setFilters}
          />
          {!stream.done && (
            <LoadingProgress
              entitiesLoaded={stream.entitiesLoaded}
              entitiesTotal={stream.entitiesTotal}
              rows={rows}
            />
          )}
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
            <Typography variant="body2" color="text.secondary">
              Showing {visible.length} of {rows.length} environments
            </Typography>
            {live.followed > 0 ? (
              <LiveIndicator connection={live.connection} paused={false} />
            ) : null}
          </Box>
          {groups.length > 0 && <OverviewTable groups={groups} />}
          {groups.length === 0 && !stream.done && (
            <Box aria-hidden>
              {[0, 1, 2, 3].map(i => (
                <Skeleton
                  key={i}
                  variant="rectangular"
                  height={48}
                  sx={{ mb: 1 }}
                />
              ))}
            </Box>
          )}
          {groups.length === 0 && stream.done && (
            <EmptyState
              missing="data"
              title={
                stream.rows.length === 0
                  ? 'No GitLab environments in the catalog'
                  : 'No environment matches these filters'
              }
              description={
                stream.rows.length === 0
                  ? 'Annotate components with gitlab.com/project-slug (or gitlab.com/project-id) and their GitLab environments appear here.'
                  : 'Clear or change the filters to see more environments.'
              }
            />
          )}
          {filters.systems?.length === 1 ? (
            <SystemVersions systemRef={filters.systems[0]} />
          ) : null}
          <StaleNamespacesOverview />
        </Box>
      )}
    </>
  );
}
