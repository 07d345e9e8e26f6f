import * as React from 'react';
import { CompoundEntityRef } from '@backstage/catalog-model';
import { useCallback, useEffect, useMemo, useState } from 'react';
import {
  EnvironmentTree,
  GitlabEnvironment,
  resourceTree,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useSearchParams } from 'react-router-dom';
import Typography from '@mui/material/Typography';
import { Link } from '@backstage/core-components';
import { Polled } from '../../hooks/usePolledMap';
import {
  NO_FILTERS,
  ResourceFilters,
  buildGraphView,
  resourceMatcher,
} from '../../view/buildGraphView';
import {
  GitlabEnvErrorAlert,
  GitlabEnvErrorPanel,
  PartialErrors,
} from '../errors/GitlabEnvErrorPanel';
import { LiveEnvironmentState } from '../../api';
import { LiveIndicator } from '../live/LiveIndicator';
import { HealthBadge } from '../health/HealthBadge';
import { OptionalLink } from '../text/OptionalLink';
import { ResourceGraphView } from '../graph/ResourceGraphView';
import { DrawerTab, ResourceDrawer } from '../drawer/ResourceDrawer';
import { EnvironmentScopeProvider } from '../actions/EnvironmentScope';
import { NodeContextMenu } from '../actions/NodeContextMenu';
import { ResourceTable } from './ResourceTable';
import { ResourceFiltersBar, ResourceViewMode } from './ResourceFiltersBar';
import { formatAge, shortSha } from '../../view/format';
import { GROUP_PAGE } from '../../view/kinds';
import { TierChip } from '../environments/TierChip';
import { GitOpsPanel, MappingSource, NamespaceMappingDetails } from '../gitops';
import { DeploymentHistory, Timeline, WorkloadRevisions } from '../history';

/** One environment opened: its resources as a graph or a list, and the drawer. */
export function EnvironmentResources({
  entity,
  environment,
  polled,
  live,
  paused = false,
  pollIntervalMs,
  onRetry,
  now,
}: {
  /** The entity whose environment this is: actions and logs act in its name. */
  entity: CompoundEntityRef;
  environment: GitlabEnvironment;
  polled?: Polled<EnvironmentTree>;
  /** How the data is kept current, when it comes from the live stream. */
  live?: LiveEnvironmentState;
  paused?: boolean;
  /** How often the tab polls when streaming does not get through. */
  pollIntervalMs?: number;
  onRetry: () => void;
  now: number;
}) {
  return (
    <Paper
      component="section"
      variant="outlined"
      aria-label={`Resources of ${environment.name}`}
      sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 2 }}
    >
      <Box
        sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}
      >
        <Typography variant="h5" component="h2">
          {environment.name}
        </Typography>
        <TierChip tier={environment.tier} />
        {polled?.value ? <HealthBadge summary={polled.value.health} /> : null}
        <Box sx={{ flexGrow: 1 }} />
        {live ? (
          <LiveIndicator
            connection={live.connection}
            paused={paused}
            upstream={live.upstream}
            kinds={live.kinds}
            dataAt={live.dataAt}
            pollIntervalMs={pollIntervalMs}
          />
        ) : null}
      </Box>
      <EnvironmentFacts
        environment={environment}
        data={polled?.value}
        live={Boolean(live)}
        now={now}
      />
      {polled?.value ? (
        <NamespaceMappingDetails
          mapping={polled.value.environment.namespaceSource}
          narrowed={polled.value.scope.narrowed}
        />
      ) : null}
      {live?.error && polled?.value ? (
        <GitlabEnvErrorAlert error={live.error} />
      ) : null}
      <EnvironmentScopeProvider
        entity={entity}
        environmentSlug={environment.slug}
        refresh={onRetry}
      >
        <EnvironmentPanels
          entity={entity}
          environment={environment}
          resources={
            <ResourcesBody polled={polled} onRetry={onRetry} now={now} />
          }
        />
      </EnvironmentScopeProvider>
    </Paper>
  );
}

const PANELS = ['resources', 'history', 'timeline'] as const;
type Panel = (typeof PANELS)[number];

/**
 * The opened environment's resources (`?panel` unset), its deployments and
 * workload revisions with their rollbacks (`?panel=history`) and its
 * timeline (`?panel=timeline`).
 */
function EnvironmentPanels({
  entity,
  environment,
  resources,
}: {
  entity: CompoundEntityRef;
  environment: GitlabEnvironment;
  resources: React.ReactNode;
}) {
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get('panel');
  const panel = PANELS.find(p => p === requested) ?? 'resources';
  const select = (_event: unknown, next: Panel) => {
    const params = new URLSearchParams(searchParams);
    if (next === 'resources') params.delete('panel');
    else params.set('panel', next);
    setSearchParams(params, { replace: true });
  };
  return (
    <>
      <Tabs
        value={panel}
        onChange={select}
        aria-label={`Views of ${environment.name}`}
        sx={{ borderBottom: 1, borderColor: 'divider', minHeight: 40 }}
      >
        <Tab value="resources" label="Resources" sx={{ minHeight: 40 }} />
        <Tab value="history" label="History" sx={{ minHeight: 40 }} />
        <Tab value="timeline" label="Timeline" sx={{ minHeight: 40 }} />
      </Tabs>
      {panel === 'resources' ? resources : null}
      {panel === 'history' ? (
        <>
          <DeploymentHistory
            entity={entity}
            environmentSlug={environment.slug}
            environmentName={environment.name}
          />
          <WorkloadRevisions
            entity={entity}
            environmentSlug={environment.slug}
          />
        </>
      ) : null}
      {panel === 'timeline' ? (
        <Timeline entity={entity} environmentSlug={environment.slug} />
      ) : null}
    </>
  );
}

/**
 * Where the opened environment runs and what it runs: agent, namespace (and
 * where it came from), the last deployment, its URL and its GitLab page.
 */
function EnvironmentFacts({
  environment,
  data,
  live,
  now,
}: {
  environment: GitlabEnvironment;
  data?: EnvironmentTree;
  live: boolean;
  now: number;
}) {
  const { agent, lastDeployment } = environment;
  const deployedAgo = formatAge(lastDeployment?.finishedAt, now);
  const namespace = data?.scope.namespace ?? environment.namespace;
  const facts: Array<[string, React.ReactNode]> = [
    [
      'Agent',
      agent ? (
        <OptionalLink to={agent.webUrl}>{agent.name}</OptionalLink>
      ) : (
        'none'
      ),
    ],
    [
      'Namespace',
      <>
        <code>{namespace ?? 'not set'}</code>
        {data?.scope.labelSelector ? (
          <>
            {' '}
            selector <code>{data.scope.labelSelector}</code>
          </>
        ) : null}{' '}
        <MappingSource
          mapping={(data?.environment ?? environment).namespaceSource}
        />
      </>,
    ],
    [
      'Deployed',
      lastDeployment ? (
        <OptionalLink to={lastDeployment.webUrl}>
          {[
            lastDeployment.ref,
            shortSha(lastDeployment.sha),
            deployedAgo ? `${deployedAgo} ago` : undefined,
          ]
            .filter(Boolean)
            .join(' · ') || `#${lastDeployment.iid}`}
          {lastDeployment.status !== 'success'
            ? ` (${lastDeployment.status})`
            : ''}
        </OptionalLink>
      ) : (
        'never'
      ),
    ],
  ];
  if (environment.externalUrl)
    facts.push([
      'URL',
      <Link to={environment.externalUrl}>
        {environment.externalUrl.replace(/^https?:\/\//, '')}
      </Link>,
    ]);
  if (environment.webUrl)
    facts.push(['GitLab', <Link to={environment.webUrl}>Open in GitLab</Link>]);
  if (data && !live)
    facts.push(['Read', `${formatAge(data.fetchedAt, now) ?? '?'} ago`]);
  return (
    <Box
      component="dl"
      aria-label="Environment details"
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        columnGap: 3,
        rowGap: 0.5,
        m: 0,
        typography: 'body2',
        '& dt': { color: 'text.secondary', mr: 0.75 },
        '& dd': { m: 0 },
      }}
    >
      {facts.map(([term, value]) => (
        <Box key={term} sx={{ display: 'flex', alignItems: 'baseline' }}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </Box>
      ))}
    </Box>
  );
}

function ResourcesBody({
  polled,
  onRetry,
  now,
}: {
  polled?: Polled<EnvironmentTree>;
  onRetry: () => void;
  now: number;
}) {
  if (!polled || polled.loading) return <ResourcesSkeleton />;
  if (!polled.value) {
    return <GitlabEnvErrorPanel error={polled.error!} onRetry={onRetry} />;
  }
  return (
    <>
      {polled.error ? (
        <Alert severity="warning" variant="outlined">
          The last refresh failed ({polled.error.message}); showing the data
          read before.
        </Alert>
      ) : null}
      <PartialErrors errors={polled.value.errors} />
      {polled.value.graph.nodes.length === 0 ? (
        <Alert severity="info" variant="outlined">
          No resources in this environment’s namespace
          {polled.value.scope.labelSelector ? ' match the label selector' : ''}.
          Deploy something, or check the namespace set on the environment in
          GitLab.
        </Alert>
      ) : (
        <ResourceExplorer data={polled.value} now={now} />
      )}
    </>
  );
}

function ResourceExplorer({
  data,
  now,
}: {
  data: EnvironmentTree;
  now: number;
}) {
  const [filters, setFilters] = useState<ResourceFilters>(NO_FILTERS);
  const [expanded, setExpanded] = useState<ReadonlyMap<string, number>>(
    new Map(),
  );
  const [mode, setMode] = useState<ResourceViewMode>('graph');
  // A link (the timeline's) may name an object to open: `?object=<id>`.
  const [searchParams] = useSearchParams();
  const addressed = searchParams.get('object') ?? undefined;
  const [drawer, setDrawer] = useState<
    { id: string; tab?: DrawerTab } | undefined
  >(addressed ? { id: addressed } : undefined);
  useEffect(() => {
    if (addressed) setDrawer({ id: addressed });
  }, [addressed]);
  const selectedId = drawer?.id;
  const setSelectedId = useCallback(
    (id: string | undefined) => setDrawer(id ? { id } : undefined),
    [],
  );
  const [menu, setMenu] = useState<{
    id: string;
    position?: { top: number; left: number };
  }>();
  const { graph } = data;
  // The tree the graph is drawn as, from the engine: shared by the graph,
  // the list and the drawer.
  const tree = useMemo(() => resourceTree(graph), [graph]);
  const namespace = data.scope.namespace;

  const view = useMemo(
    () => buildGraphView(graph, { filters, expanded }, tree),
    [graph, tree, filters, expanded],
  );
  const kinds = useMemo(
    () => [...new Set(graph.nodes.map(node => node.kind))].sort(),
    [graph],
  );
  const listed = useMemo(() => {
    const { kindShown, matches } = resourceMatcher(filters);
    return graph.nodes.filter(node => kindShown(node) && matches(node));
  }, [graph, filters]);
  const selected = useMemo(
    () => graph.nodes.find(node => node.id === selectedId),
    [graph, selectedId],
  );
  const menuNode = useMemo(
    () => graph.nodes.find(node => node.id === menu?.id),
    [graph, menu?.id],
  );
  const openMenu = useCallback(
    (id: string, position: { top: number; left: number }) =>
      setMenu({ id, position }),
    [],
  );
  // Live changes keep node places; a change of what the user shows re-lays.
  const layoutKey = useMemo(
    () => JSON.stringify([filters, [...expanded].sort()]),
    [filters, expanded],
  );
  // A group shows the next page of its siblings.
  const expandGroup = useCallback(
    (groupId: string) =>
      setExpanded(previous =>
        new Map(previous).set(
          groupId,
          (previous.get(groupId) ?? 0) + GROUP_PAGE,
        ),
      ),
    [],
  );

  return (
    <>
      <GitOpsPanel
        graphNodes={graph.nodes}
        driftedCount={data.environment.driftedCount ?? 0}
        namespace={namespace}
        onSelect={setSelectedId}
      />
      <ResourceFiltersBar
        filters={filters}
        onChange={setFilters}
        kinds={kinds}
        hiddenCount={view.hiddenCount}
        mode={mode}
        onModeChange={setMode}
      />
      {expanded.size > 0 && mode === 'graph' ? (
        <Box>
          <Button size="small" onClick={() => setExpanded(new Map())}>
            Collapse groups
          </Button>
        </Box>
      ) : null}
      {view.matchCount === 0 ? (
        <Alert severity="info" variant="outlined">
          No resource matches the filters.
        </Alert>
      ) : null}
      {mode === 'graph' && view.matchCount > 0 ? (
        <ResourceGraphView
          view={view}
          selectedId={selectedId}
          onSelect={setSelectedId}
          onExpandGroup={expandGroup}
          onNodeMenu={openMenu}
          now={now}
          layoutKey={layoutKey}
        />
      ) : null}
      {mode === 'list' && view.matchCount > 0 ? (
        <ResourceTable nodes={listed} onSelect={setSelectedId} now={now} />
      ) : null}
      <NodeContextMenu
        node={menuNode}
        position={menu?.position}
        graph={graph}
        onOpenDetails={id => setDrawer({ id })}
        onOpenLogs={id => setDrawer({ id, tab: 'logs' })}
        onClose={() => setMenu(previous => previous && { id: previous.id })}
      />
      <ResourceDrawer
        key={`${selectedId}:${drawer?.tab}`}
        initialTab={drawer?.tab}
        node={selected}
        graph={graph}
        tree={tree}
        onSelect={setSelectedId}
        onClose={() => setSelectedId(undefined)}
        now={now}
      />
    </>
  );
}

function ResourcesSkeleton() {
  return (
    <Box aria-busy="true" aria-label="Loading resources">
      <Box sx={{ display: 'flex', gap: 1.5, mb: 2 }}>
        <Skeleton variant="rounded" width={200} height={40} />
        <Skeleton variant="rounded" width={200} height={40} />
        <Skeleton variant="rounded" width={240} height={40} />
      </Box>
      <Skeleton
        variant="rounded"
        height={420}
        data-testid="resources-skeleton"
      />
    </Box>
  );
}
