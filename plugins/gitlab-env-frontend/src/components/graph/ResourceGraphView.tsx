import * as React from 'react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  Background,
  Controls,
  Edge,
  MarkerType,
  MiniMap,
  Node,
  NodeHandle,
  NodeMouseHandler,
  Position,
  ReactFlow,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import { RESOURCE_EDGE_TYPES } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import {
  GraphView,
  SiblingGroupViewNode,
  ViewNode,
} from '../../view/buildGraphView';
import {
  NODE_HEIGHT,
  NODE_WIDTH,
  ResourceGraphLayout,
  relayoutKeepingPlaces,
  routeEdges,
} from '../../layout';
import { statusLine } from '../../view/format';
import { healthColor } from '../health/healthStyle';
import { ResourceNodeCard, ResourceNodeData } from './ResourceNodeCard';
import {
  SiblingGroupNodeCard,
  SiblingGroupNodeData,
  siblingGroupTitle,
} from './SiblingGroupNodeCard';
import { EDGE_STYLES } from './edgeStyles';
import { RoutedEdge } from './RoutedEdge';

const NODE_TYPES = {
  resource: ResourceNodeCard,
  siblings: SiblingGroupNodeCard,
};
const EDGE_TYPES = { routed: RoutedEdge };
// Declared up front: React Flow otherwise renders every node once to measure
// its handles, which for a 1,000-node environment costs seconds.
const HANDLES: NodeHandle[] = [
  {
    type: 'target',
    position: Position.Left,
    x: 0,
    y: NODE_HEIGHT / 2,
    width: 1,
    height: 1,
  },
  {
    type: 'source',
    position: Position.Right,
    x: NODE_WIDTH - 1,
    y: NODE_HEIGHT / 2,
    width: 1,
    height: 1,
  },
];
// Above this, graphs open at a readable zoom instead of fitted, and render
// only what is in the viewport.
const LARGE_GRAPH = 80;

export interface ResourceGraphViewProps {
  view: GraphView;
  selectedId?: string;
  onSelect: (resourceId: string) => void;
  /** Shows more of a sibling group's members (its id). */
  onExpandGroup: (groupId: string) => void;
  /** A right click, or the context-menu key, on a resource node. */
  onNodeMenu?: (
    resourceId: string,
    position: { top: number; left: number },
  ) => void;
  now: number;
  /**
   * While this stays the same, a new view (a live change) keeps the nodes
   * it did not touch in place; a new key (the user changed the filters or
   * grouping) lays the view out from scratch.
   */
  layoutKey?: string;
}

/**
 * The ArgoCD-style tree: owners left of what they own, the other relations
 * drawn over it. Nodes and edges are derived from the view only, so
 * selecting a node (highlighted through CSS) does not rebuild or re-lay
 * anything out.
 */
export function ResourceGraphView({
  view,
  selectedId,
  onSelect,
  onExpandGroup,
  onNodeMenu,
  now,
  layoutKey = '',
}: ResourceGraphViewProps) {
  const theme = useTheme();
  const large = view.nodes.length > LARGE_GRAPH;
  const laidOut = useRef<{ key: string; layout?: ResourceGraphLayout }>({
    key: layoutKey,
  });
  const { nodes, edges, height } = useMemo(
    () => {
      const previous =
        laidOut.current.key === layoutKey ? laidOut.current.layout : undefined;
      const layout = relayoutKeepingPlaces(view, previous, {
        nodeWidth: NODE_WIDTH,
        nodeHeight: NODE_HEIGHT,
      });
      laidOut.current = { key: layoutKey, layout };
      return toFlow(view, layout, now);
    },
    // Ages in status lines move with the data's refresh, not with every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [view, layoutKey],
  );
  const byId = useMemo(
    () => new Map(view.nodes.map(node => [node.id, node])),
    [view],
  );
  const activate = useCallback(
    (id: string) => {
      const viewNode = byId.get(id);
      if (viewNode?.type === 'siblings') onExpandGroup(viewNode.id);
      else if (viewNode) onSelect(viewNode.id);
    },
    [byId, onExpandGroup, onSelect],
  );
  const onNodeClick: NodeMouseHandler = useCallback(
    (_event, node) => activate(node.id),
    [activate],
  );
  const openMenu = useCallback(
    (id: string, position: { top: number; left: number }) => {
      if (byId.get(id)?.type === 'resource') onNodeMenu?.(id, position);
    },
    [byId, onNodeMenu],
  );
  const onNodeContextMenu: NodeMouseHandler = useCallback(
    (event, node) => {
      if (!onNodeMenu) return;
      event.preventDefault();
      openMenu(node.id, { top: event.clientY, left: event.clientX });
    },
    [onNodeMenu, openMenu],
  );
  // Nodes are focusable (Tab); Enter or Space opens them like a click, the
  // context-menu key or Shift+F10 opens their menu.
  const onKeyDown = useCallback(
    (event: React.KeyboardEvent<HTMLElement>) => {
      const menu =
        event.key === 'ContextMenu' || (event.key === 'F10' && event.shiftKey);
      if (event.key !== 'Enter' && event.key !== ' ' && !menu) return;
      const element = (event.target as HTMLElement).closest(
        '.react-flow__node',
      );
      const id = element?.getAttribute('data-id');
      if (!id) return;
      event.preventDefault();
      if (menu) {
        const box = element!.getBoundingClientRect();
        openMenu(id, { top: box.bottom, left: box.left });
      } else activate(id);
    },
    [activate, openMenu],
  );

  const wheel = useWheelActivation();

  return (
    <Box>
      <Box
        data-testid="resource-graph"
        onKeyDown={onKeyDown}
        {...wheel.handlers}
        sx={{
          position: 'relative',
          height: Math.min(Math.max(height + 80, 360), 720),
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
          bgcolor: theme.palette.mode === 'dark' ? 'grey.900' : 'grey.50',
          ...(selectedId && {
            [`& .react-flow__node[data-id="${cssEscape(
              selectedId,
            )}"] .gitlab-env-node`]: {
              outline: `2px solid ${theme.palette.primary.main}`,
              outlineOffset: 2,
            },
          }),
        }}
      >
        <ReactFlow
          nodes={nodes}
          edges={edges}
          nodeTypes={NODE_TYPES}
          edgeTypes={EDGE_TYPES}
          onNodeClick={onNodeClick}
          onNodeContextMenu={onNodeContextMenu}
          colorMode={theme.palette.mode}
          // A whole large environment fitted is too small to read: open it
          // at a readable zoom at the top-left, like ArgoCD's tree, and let
          // the wheel scroll through it.
          fitView={!large}
          fitViewOptions={{ padding: 0.1, maxZoom: 1 }}
          defaultViewport={{ x: 24, y: 24, zoom: 0.8 }}
          // The wheel scrolls the page until the graph is clicked or
          // focused, as map widgets do; Ctrl+wheel (and a pinch) always zooms.
          zoomOnScroll={wheel.active}
          preventScrolling={wheel.active}
          panOnScroll={large && wheel.active}
          minZoom={0.05}
          maxZoom={2}
          nodesDraggable={false}
          nodesConnectable={false}
          elementsSelectable={false}
          onlyRenderVisibleElements={large}
          proOptions={{ hideAttribution: true }}
        >
          <Background gap={24} />
          <Controls showInteractive={false} position="top-left" />
          {view.nodes.length > 30 ? (
            <MiniMap
              pannable
              zoomable
              nodeColor={node => minimapColor(node)}
              position="bottom-right"
            />
          ) : null}
        </ReactFlow>
        {wheel.hint ? (
          <Box
            role="status"
            sx={{
              position: 'absolute',
              inset: 0,
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'center',
              pointerEvents: 'none',
              bgcolor: 'rgba(0, 0, 0, 0.45)',
              color: 'common.white',
              zIndex: 10,
            }}
          >
            <Typography variant="body1">
              Use Ctrl + scroll to zoom, or click the graph first
            </Typography>
          </Box>
        ) : null}
      </Box>
      <EdgeLegend />
    </Box>
  );
}

/** How long the hint stays after a plain wheel over an inactive graph. */
const HINT_MS = 1500;

/**
 * Whether the wheel zooms (or pans) the graph: once it is clicked or holds
 * the focus, until the pointer and the focus leave it. A plain wheel over
 * it before that scrolls the page, and a hint says how to zoom.
 */
function useWheelActivation() {
  const [active, setActive] = useState(false);
  const [hint, setHint] = useState(false);
  const hintTimer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(hintTimer.current), []);
  const activate = useCallback(() => {
    setActive(true);
    setHint(false);
  }, []);
  const handlers = {
    onPointerDown: activate,
    onFocus: activate,
    onPointerLeave: (event: React.PointerEvent<HTMLElement>) => {
      if (!event.currentTarget.contains(document.activeElement))
        setActive(false);
    },
    onBlur: (event: React.FocusEvent<HTMLElement>) => {
      if (!event.currentTarget.contains(event.relatedTarget as Element | null))
        setActive(false);
    },
    onWheel: (event: React.WheelEvent<HTMLElement>) => {
      if (active || event.ctrlKey || event.metaKey) return;
      setHint(true);
      clearTimeout(hintTimer.current);
      hintTimer.current = setTimeout(() => setHint(false), HINT_MS);
    },
  };
  return { active, hint, handlers };
}

function toFlow(view: GraphView, layout: ResourceGraphLayout, now: number) {
  const nodes: Node[] = view.nodes.map(viewNode => {
    const position = layout.positions.get(viewNode.id) ?? { x: 0, y: 0 };
    return {
      id: viewNode.id,
      type: viewNode.type,
      position: { x: position.x, y: position.y },
      width: NODE_WIDTH,
      height: NODE_HEIGHT,
      handles: HANDLES,
      data: nodeData(viewNode, now),
      ariaLabel: nodeLabel(viewNode),
    };
  });
  // The tree's edges go from a column to the next; the others are routed
  // around the boxes they would otherwise cross.
  const routes = routeEdges(
    layout,
    view.edges.filter(edge => !edge.tree),
  );
  const edges: Edge[] = view.edges.map(edge => {
    const style = EDGE_STYLES[edge.type];
    const points = routes.get(edge.id);
    return {
      id: edge.id,
      source: edge.source,
      target: edge.target,
      type: edgeType(edge.tree, Boolean(points)),
      data: points ? { points } : undefined,
      animated: style.animated,
      style: {
        stroke: style.color,
        strokeWidth: edge.tree ? 1.5 : 1.25,
        strokeDasharray: style.dash,
      },
      markerEnd: edge.tree
        ? undefined
        : { type: MarkerType.ArrowClosed, color: style.color },
      ariaLabel: `${edge.source} ${edge.type} ${edge.target}`,
    };
  });
  return { nodes, edges, height: layout.height };
}

/** The tree's edges step from a column to the next; the others follow their route. */
function edgeType(tree: boolean, routed: boolean) {
  if (tree) return 'smoothstep';
  return routed ? 'routed' : 'default';
}

function groupData(node: SiblingGroupViewNode): SiblingGroupNodeData {
  return {
    kind: node.kind,
    count: node.memberIds.length,
    shown: node.total - node.memberIds.length,
    counts: node.counts,
    health: node.status,
  };
}

function nodeData(
  node: ViewNode,
  now: number,
): ResourceNodeData | SiblingGroupNodeData {
  if (node.type === 'siblings') return groupData(node);
  const { resource } = node;
  return {
    kind: resource.kind,
    name: resource.name,
    health: resource.health?.status,
    healthMessage: resource.health?.message,
    healthOrigin: resource.health?.origin,
    statusLine: statusLine(resource, now),
    missing: Boolean(resource.missing),
    drifted: Boolean(resource.drifted),
    context: node.context,
  };
}

function nodeLabel(node: ViewNode): string {
  if (node.type === 'siblings') {
    return `${siblingGroupTitle(groupData(node))}, ${
      node.status ?? 'no health'
    }: press Enter to show them`;
  }
  const { kind, name, health } = node.resource;
  return `${kind} ${name}, ${health?.status ?? 'no health'}`;
}

function minimapColor(node: Node): string {
  return healthColor((node.data as { health?: any }).health);
}

function cssEscape(value: string): string {
  return typeof CSS !== 'undefined' && CSS.escape
    ? CSS.escape(value)
    : value.replace(/["\\]/g, '\\$&');
}

function EdgeLegend() {
  return (
    <Box
      aria-label="Edge legend"
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, mt: 1 }}
    >
      {RESOURCE_EDGE_TYPES.map(type => {
        const style = EDGE_STYLES[type];
        return (
          <Box
            key={type}
            sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}
          >
            <svg width="28" height="8" aria-hidden>
              <line
                x1="0"
                y1="4"
                x2="28"
                y2="4"
                stroke={style.color}
                strokeWidth="2"
                strokeDasharray={style.dash}
              />
            </svg>
            <Typography variant="caption" color="text.secondary">
              {style.label}
            </Typography>
          </Box>
        );
      })}
    </Box>
  );
}
