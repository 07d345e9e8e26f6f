import * as React from 'react';
import { useMemo, useState } from 'react';
import { CodeSnippet } from '@backstage/core-components';
import {
  KubernetesObject,
  ResourceEventSummary,
  ResourceTree,
  TreeGraph,
  TreeNode,
  treePath,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import { stringify } from 'yaml';
import { HealthOriginHint } from '../health/HealthOriginHint';
import { HealthIcon, healthColor } from '../health/healthStyle';
import { KindIcon } from '../graph/KindIcon';
import { kubectlCommands } from '../../view/kubectl';
import { formatAge, statusLine } from '../../view/format';
import { FluxDrawerSection } from '../gitops';
import { useDesiredState } from '../gitops/useDesiredState';
import { CommandList } from '../text/CommandBlock';
import { COMPACT_TABLE_SX } from '../tableStyle';
import { NodeActionsBar } from '../actions/NodeActionsBar';
import { useNodeActions } from '../actions/useNodeActions';
import { useEnvironmentScope } from '../actions/EnvironmentScope';
import { ResourceLogs, hasLogs } from '../logs/ResourceLogs';
import { UsagePanel, USAGE_KINDS } from '../usage';
import { MessageText } from '../text/MessageText';
import { WarningChip } from '../text/WarningChip';
import { GitlabEnvErrorPanel } from '../errors/GitlabEnvErrorPanel';
import {
  EnvironmentObjectState,
  OBJECT_REFRESH_MS,
  useEnvironmentObject,
} from './useEnvironmentObject';

export interface ResourceDrawerProps {
  node?: TreeNode;
  graph: TreeGraph;
  /** The tree the graph view draws (`resourceTree`): the chain follows it. */
  tree: ResourceTree;
  onSelect: (resourceId: string) => void;
  onClose: () => void;
  now: number;
  /** The tab the drawer opens on (the graph menu's Logs opens on logs). */
  initialTab?: DrawerTab;
}

export type DrawerTab = 'summary' | 'events' | 'yaml' | 'logs' | 'usage';

/**
 * Everything about one resource: summary, events, YAML and the kubectl to
 * see it. What the tree holds shows at once; the object, its Events and
 * what GitOps says of it are asked of the backend when the drawer opens.
 */
export function ResourceDrawer(props: ResourceDrawerProps) {
  const { node, onClose } = props;
  return (
    <Drawer
      anchor="right"
      open={Boolean(node)}
      onClose={onClose}
      PaperProps={{
        sx: { width: { xs: '100%', md: 720 } },
        role: 'dialog',
        'aria-label': node ? `${node.kind} ${node.name}` : undefined,
      }}
    >
      {node ? <DrawerBody {...props} node={node} /> : null}
    </Drawer>
  );
}

function DrawerBody({
  node,
  graph,
  tree,
  onSelect,
  onClose,
  now,
  initialTab,
}: ResourceDrawerProps & { node: TreeNode }) {
  const logs = hasLogs(node);
  const scope = useEnvironmentScope();
  // Usage needs the environment (the live tab's scope) and pods to sum.
  const usage = Boolean(scope) && !node.missing && USAGE_KINDS.has(node.kind);
  const [tab, setTab] = useState<DrawerTab>(
    initialTab === 'logs' && !logs ? 'summary' : initialTab ?? 'summary',
  );
  const details = useEnvironmentObject(node, {
    refreshMs: OBJECT_REFRESH_MS,
  });
  const object = details.value?.object;
  const events = details.value?.events;
  const actions = useNodeActions(node, graph, object);
  const repository = useDesiredState(node, graph);
  const yaml = useMemo(
    () => (object ? stringify(object, { lineWidth: 0 }) : ''),
    [object],
  );
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
      {/* Header, actions and tabs keep their height; only the tab's content scrolls. */}
      <Box
        sx={{
          display: 'flex',
          alignItems: 'flex-start',
          gap: 1.5,
          p: 2,
          pr: 1,
          flexShrink: 0,
          borderBottom: 1,
          borderColor: 'divider',
          borderLeft: `6px solid ${healthColor(node.health?.status)}`,
        }}
      >
        <KindIcon kind={node.kind} sx={{ color: 'text.secondary', mt: 2.5 }} />
        <Box sx={{ flexGrow: 1, minWidth: 0 }}>
          <Typography variant="overline" color="text.secondary">
            {node.group ? `${node.kind}.${node.group}` : node.kind}
            {node.namespace ? ` · ${node.namespace}` : ''}
          </Typography>
          {/* The whole name: it wraps at its hyphens rather than being cut. */}
          <Typography
            variant="h6"
            component="h2"
            sx={{ overflowWrap: 'break-word', lineHeight: 1.3 }}
          >
            {node.name}
          </Typography>
          {/* With actions, their bar says why they are disabled. */}
          {node.readOnly && actions.offered.length === 0 ? (
            <Typography variant="caption" color="text.secondary">
              Read-only here: {node.readOnly}
            </Typography>
          ) : null}
        </Box>
        <IconButton
          aria-label="Close"
          onClick={onClose}
          data-testid="drawer-close"
        >
          <CloseIcon />
        </IconButton>
      </Box>
      {actions.offered.length > 0 ? (
        <Box sx={{ px: 2, pt: 1.5, flexShrink: 0 }}>
          <NodeActionsBar offered={actions.offered} onChoose={actions.choose} />
        </Box>
      ) : null}
      {actions.elements}
      <Tabs
        value={tab}
        onChange={(_e, value: DrawerTab) => {
          setTab(value);
          // Events and the YAML are read as they are now, not as at opening.
          if (value === 'events' || value === 'yaml') details.retry();
        }}
        variant="scrollable"
        scrollButtons="auto"
        allowScrollButtonsMobile
        aria-label="Resource details"
        sx={{
          px: 2,
          flexShrink: 0,
          minHeight: 48,
          borderBottom: 1,
          borderColor: 'divider',
        }}
      >
        <Tab label="Summary" value="summary" />
        <Tab
          label={events ? `Events (${events.length})` : 'Events'}
          value="events"
        />
        <Tab label="YAML" value="yaml" disabled={!object} />
        {logs ? <Tab label="Logs" value="logs" /> : null}
        {usage ? <Tab label="Usage" value="usage" /> : null}
      </Tabs>
      <Box sx={{ p: 2, overflow: 'auto', flexGrow: 1 }}>
        {tab !== 'logs' ? <DetailsState details={details} /> : null}
        {tab === 'summary' && details.value ? (
          <Box sx={{ mb: 2.5 }}>
            <FluxDrawerSection
              node={node}
              gitops={details.value.gitops}
              desired={repository.diff}
              desiredNote={repository.note}
              onSelect={onSelect}
              now={now}
            />
          </Box>
        ) : null}
        {tab === 'summary' ? (
          <Summary
            node={node}
            object={object}
            graph={graph}
            tree={tree}
            onSelect={onSelect}
            now={now}
          />
        ) : null}
        {tab === 'events' && events ? (
          <EventList events={events} now={now} />
        ) : null}
        {tab === 'usage' && usage ? (
          <UsagePanel kind={node.kind} name={node.name} />
        ) : null}
        {tab === 'logs' && logs && actions.logs?.allowed === false ? (
          <Alert severity="info" variant="outlined">
            You cannot read these logs: {actions.logs.reason}
          </Alert>
        ) : null}
        {tab === 'logs' && logs && actions.logs?.allowed !== false ? (
          <Box sx={{ height: 'calc(100vh - 220px)', minHeight: 360 }}>
            <ResourceLogs node={node} graph={graph} details={details} />
          </Box>
        ) : null}
        {tab === 'yaml' && object ? (
          <CodeSnippet
            text={yaml}
            language="yaml"
            showCopyCodeButton
            customStyle={{ fontSize: 12, margin: 0 }}
          />
        ) : null}
      </Box>
    </Box>
  );
}

/** While the object loads, or why it did not: as the rest of the page says it. */
function DetailsState({ details }: { details: EnvironmentObjectState }) {
  if (details.loading)
    return (
      <Box
        aria-busy="true"
        aria-label="Loading the object"
        sx={{ mb: 2, display: 'flex', flexDirection: 'column', gap: 1 }}
      >
        <Skeleton variant="text" width="40%" />
        <Skeleton variant="rounded" height={64} />
      </Box>
    );
  if (details.error && !details.value)
    return (
      <Box sx={{ mb: 2 }}>
        <GitlabEnvErrorPanel
          error={details.error}
          onRetry={details.retry}
          title="Could not read this object"
        />
      </Box>
    );
  if (details.error)
    return (
      <Alert severity="warning" variant="outlined" sx={{ mb: 2 }}>
        Reading the object again failed ({details.error.message}); showing what
        was read before.
      </Alert>
    );
  return null;
}

function Summary({
  node,
  object,
  graph,
  tree,
  onSelect,
  now,
}: {
  node: TreeNode;
  object?: KubernetesObject;
  graph: TreeGraph;
  tree: ResourceTree;
  onSelect: (id: string) => void;
  now: number;
}) {
  const owners = useMemo(() => chainOf(node, graph, tree), [node, graph, tree]);
  const commands = kubectlCommands(node);
  const conditions: any[] = Array.isArray(object?.status?.conditions)
    ? object!.status.conditions
    : [];
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2.5 }}>
      <Section title="Health">
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <HealthIcon status={node.health?.status} />
          <Typography variant="body1" sx={{ fontWeight: 600 }}>
            {node.health?.status ?? 'No health for this kind'}
          </Typography>
          <HealthOriginHint origin={node.health?.origin} />
          {node.missing ? <WarningChip label="not in cluster" /> : null}
        </Box>
        {node.health?.message ? (
          <Typography variant="body2" sx={{ mt: 0.5 }}>
            <MessageText text={node.health.message} />
          </Typography>
        ) : null}
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          {statusLine(node, now)}
        </Typography>
      </Section>

      {owners.length > 0 ? (
        <Section title="Owner chain">
          <Box
            component="ol"
            aria-label="Owner chain"
            sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, m: 0, p: 0 }}
          >
            {owners.map(({ node: owner, via }) => (
              <Box
                component="li"
                key={owner.id}
                sx={{ listStyle: 'none', display: 'flex', gap: 0.5 }}
              >
                <Link
                  component="button"
                  variant="body2"
                  onClick={() => onSelect(owner.id)}
                >
                  {owner.kind}/{owner.name}
                </Link>
                <Typography variant="body2" color="text.secondary">
                  {via === 'owns' ? '›' : `${via} ›`}
                </Typography>
              </Box>
            ))}
            <Box component="li" sx={{ listStyle: 'none' }}>
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {node.kind}/{node.name}
              </Typography>
            </Box>
          </Box>
        </Section>
      ) : null}

      {conditions.length > 0 ? (
        <Section title="Conditions">
          <Box component="table" sx={COMPACT_TABLE_SX}>
            <thead>
              <tr>
                <th>Type</th>
                <th>Status</th>
                <th>Reason</th>
                <th>Message</th>
              </tr>
            </thead>
            <tbody>
              {conditions.map((condition, index) => (
                <tr key={`${condition?.type}-${index}`}>
                  <td>{String(condition?.type ?? '')}</td>
                  <td>{String(condition?.status ?? '')}</td>
                  <td>{String(condition?.reason ?? '')}</td>
                  <td>
                    <MessageText text={String(condition?.message ?? '')} />
                  </td>
                </tr>
              ))}
            </tbody>
          </Box>
        </Section>
      ) : null}

      <Section title="kubectl">
        <CommandList
          commands={[commands.get, commands.describe, commands.events]}
          label="kubectl commands"
        />
      </Section>

      <KeyValues title="Labels" values={object?.metadata?.labels} />
      <KeyValues title="Annotations" values={object?.metadata?.annotations} />
    </Box>
  );
}

/**
 * The nodes above one, top first, as the graph draws them (the engine's
 * tree): owners, and the Ingress or HPA a node nothing owns is drawn under,
 * each with how it relates to the next.
 */
function chainOf(
  node: TreeNode,
  graph: TreeGraph,
  tree: ResourceTree,
): Array<{ node: TreeNode; via: string }> {
  const byId = new Map(graph.nodes.map(n => [n.id, n]));
  return treePath(tree, node.id).flatMap(place => {
    const above = byId.get(place.parentId);
    return above ? [{ node: above, via: place.via }] : [];
  });
}

function KeyValues({
  title,
  values,
}: {
  title: string;
  values?: Record<string, string>;
}) {
  const entries = Object.entries(values ?? {});
  if (entries.length === 0) return null;
  return (
    <Section title={title}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
        {entries.map(([key, value]) => (
          <Chip
            key={key}
            size="small"
            variant="outlined"
            label={`${key}=${value}`}
            title={`${key}=${value}`}
            sx={{ maxWidth: '100%', fontFamily: 'monospace' }}
          />
        ))}
      </Box>
    </Section>
  );
}

function EventList({
  events,
  now,
}: {
  events: ResourceEventSummary[];
  now: number;
}) {
  if (events.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        No events for this object. Kubernetes keeps events for about an hour.
      </Typography>
    );
  }
  return (
    <Box
      component="ul"
      aria-label="Events"
      sx={{ m: 0, p: 0, display: 'flex', flexDirection: 'column', gap: 1 }}
    >
      {events.map((event, index) => (
        <Box
          component="li"
          key={`${event.reason}-${index}`}
          sx={{
            listStyle: 'none',
            borderLeft: 3,
            borderColor:
              event.type === 'Warning' ? 'warning.main' : 'success.main',
            pl: 1.5,
          }}
        >
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {event.type === 'Warning' ? '⚠ ' : ''}
            {event.reason}
            <Typography
              component="span"
              variant="caption"
              color="text.secondary"
              sx={{ ml: 1 }}
            >
              {event.count > 1 ? `×${event.count} · ` : ''}
              {formatAge(event.lastSeen, now) ?? ''} ago
            </Typography>
          </Typography>
          <Typography variant="body2">
            <MessageText text={event.message} />
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

function Section({
  title,
  children,
}: {
  title: string;
  children: React.ReactNode;
}) {
  return (
    <Box component="section">
      <Typography
        variant="subtitle2"
        component="h3"
        color="text.secondary"
        sx={{ mb: 0.75, textTransform: 'uppercase', letterSpacing: 0.5 }}
      >
        {title}
      </Typography>
      {children}
    </Box>
  );
}
