import * as React from 'react';
import {
  isFluxApplier,
  ResourceNode,
  TreeNode,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { unmanagedCommands } from '../../view/fluxCommands';
import { GitlabEnvErrorPanel } from '../errors/GitlabEnvErrorPanel';
import { CommandList } from '../text/CommandBlock';
import { SyncChip } from './SyncChip';
import {
  NO_FLUX_RESOURCE_WORDS,
  differingCount,
  notRenderedWords,
  unavailableWords,
} from './comparisonWords';
import {
  RepositoryComparison,
  useRepositoryComparison,
} from './useRepositoryComparison';
import { WarningChip } from '../text/WarningChip';

function NodeLinks({
  ids,
  nodes,
  onSelect,
  label,
}: {
  ids: readonly string[];
  nodes: ReadonlyMap<string, ResourceNode>;
  onSelect: (id: string) => void;
  label: string;
}) {
  return (
    <Box
      component="ul"
      aria-label={label}
      sx={{ m: 0, p: 0, display: 'flex', flexWrap: 'wrap', gap: 1 }}
    >
      {ids.map(id => {
        const node = nodes.get(id);
        return (
          <Box component="li" key={id} sx={{ listStyle: 'none' }}>
            <Link
              component="button"
              variant="body2"
              onClick={() => onSelect(id)}
            >
              {node ? `${node.kind}/${node.name}` : id}
            </Link>
          </Box>
        );
      })}
    </Box>
  );
}

/** The repository comparison in one line, or why there is none. */
function DesiredSummary({ repository }: { repository: RepositoryComparison }) {
  const { comparison: desired, answered, loading, error, retry } = repository;
  if (loading)
    return (
      <Typography
        variant="body2"
        color="text.secondary"
        role="status"
        data-testid="desired-summary"
      >
        Reading the repository's manifests…
      </Typography>
    );
  if (error)
    return (
      <GitlabEnvErrorPanel
        error={error}
        onRetry={retry}
        title="Could not compare with the repository"
      />
    );
  if (!desired)
    return answered ? (
      <Typography
        variant="body2"
        color="text.secondary"
        data-testid="desired-summary"
      >
        {NO_FLUX_RESOURCE_WORDS}
      </Typography>
    ) : null;
  const unavailable = unavailableWords(desired);
  const notRendered = notRenderedWords(desired);
  return (
    <Box data-testid="desired-summary">
      {desired.source ? (
        <Typography variant="body2">
          Repository <code>{desired.source.project}</code> at{' '}
          <code>{desired.source.ref.slice(0, 8)}</code>,{' '}
          <code>{desired.source.path}</code>
          {/* Where it looked, without counts that would read as a comparison. */}
          {unavailable
            ? null
            : `: ${desired.objects.length} manifests, ${differingCount(
                desired,
              )} differ from the cluster`}
        </Typography>
      ) : null}
      {unavailable ? (
        <Typography variant="body2" color="text.secondary">
          {unavailable}
        </Typography>
      ) : null}
      {notRendered ? (
        <Typography variant="body2" color="text.secondary">
          {notRendered}
        </Typography>
      ) : null}
    </Box>
  );
}

/**
 * The environment's GitOps at a glance, above its resources: each Flux
 * applier's sync state and whether its source is ahead, the objects that
 * drifted (counted as the engine counted them: the environment's
 * `driftedCount`, the number its card shows), and the objects no inventory
 * names (shown apart), as the engine marked the tree's nodes. Nothing
 * when the environment has none of these.
 * With a Flux object, the repository comparison, asked of the backend
 * once when the panel opens.
 */
export function GitOpsPanel({
  graphNodes,
  driftedCount,
  namespace,
  onSelect,
}: {
  graphNodes: readonly TreeNode[];
  /** The engine's count of drifted objects (the tree's environment's). */
  driftedCount: number;
  namespace?: string;
  onSelect: (id: string) => void;
}) {
  const { nodes, appliers, drifted, unmanaged } = React.useMemo(() => {
    const marked = {
      nodes: new Map<string, ResourceNode>(),
      appliers: [] as TreeNode[],
      drifted: [] as string[],
      unmanaged: [] as string[],
    };
    for (const node of graphNodes) {
      marked.nodes.set(node.id, node);
      if (node.flux && isFluxApplier(node.group, node.kind))
        marked.appliers.push(node);
      if (node.drifted) marked.drifted.push(node.id);
      if (node.unmanaged) marked.unmanaged.push(node.id);
    }
    return marked;
  }, [graphNodes]);
  const repository = useRepositoryComparison({
    wanted: appliers.length > 0,
  });
  if (appliers.length === 0 && driftedCount === 0 && unmanaged.length === 0)
    return null;
  return (
    <Box
      component="section"
      aria-label="GitOps"
      sx={{
        display: 'flex',
        flexDirection: 'column',
        gap: 1.5,
        p: 1.5,
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
      }}
    >
      {appliers.map(node => {
        const flux = node.flux!;
        return (
          <Box
            key={node.id}
            sx={{
              display: 'flex',
              gap: 1,
              alignItems: 'center',
              flexWrap: 'wrap',
            }}
          >
            <Link
              component="button"
              variant="body2"
              sx={{ fontWeight: 600 }}
              onClick={() => onSelect(node.id)}
            >
              {node.kind}/{node.name}
            </Link>
            <SyncChip status={flux.sync} />
            {flux.sourceDiffers ? (
              <WarningChip label="source has a newer revision" />
            ) : null}
            {flux.message ? (
              <Typography
                variant="caption"
                color="text.secondary"
                noWrap
                sx={{ maxWidth: 480 }}
                title={flux.message}
              >
                {flux.message}
              </Typography>
            ) : null}
          </Box>
        );
      })}
      {appliers.length > 0 ? <DesiredSummary repository={repository} /> : null}
      {driftedCount > 0 ? (
        <Box>
          <Typography
            variant="subtitle2"
            component="h3"
            data-testid="drift-count"
          >
            {driftedCount} drifted {driftedCount === 1 ? 'object' : 'objects'}
          </Typography>
          <NodeLinks
            ids={drifted}
            nodes={nodes}
            onSelect={onSelect}
            label="Drifted objects"
          />
        </Box>
      ) : null}
      {unmanaged.length > 0 ? (
        <Box>
          <Typography variant="subtitle2" component="h3">
            Unmanaged: {unmanaged.length} in the namespace no inventory names
          </Typography>
          <NodeLinks
            ids={unmanaged}
            nodes={nodes}
            onSelect={onSelect}
            label="Unmanaged objects"
          />
          {namespace ? (
            <CommandList
              commands={unmanagedCommands(namespace)}
              label="Unmanaged commands"
            />
          ) : null}
        </Box>
      ) : null}
    </Box>
  );
}
