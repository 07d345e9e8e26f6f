import * as React from 'react';
import {
  TreeGraph,
  TreeNode,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Divider from '@mui/material/Divider';
import { hasLogs } from '../logs/ResourceLogs';
import { ACTION_TEXT } from './actionText';
import { useNodeActions } from './useNodeActions';

/**
 * The menu a right click (or the context-menu key) opens on a graph node:
 * details, logs, and the node's actions — those denied disabled with why.
 * Stays mounted while a chosen action's confirmation is open.
 */
export function NodeContextMenu({
  node,
  position,
  graph,
  onOpenDetails,
  onOpenLogs,
  onClose,
}: {
  node?: TreeNode;
  /** Where the menu opens; undefined once closed. */
  position?: { top: number; left: number };
  graph: TreeGraph;
  onOpenDetails: (id: string) => void;
  onOpenLogs: (id: string) => void;
  onClose: () => void;
}) {
  const actions = useNodeActions(node, graph);
  return (
    <>
      <Menu
        open={Boolean(node && position)}
        onClose={onClose}
        anchorReference="anchorPosition"
        anchorPosition={position}
        MenuListProps={{
          'aria-label': node
            ? `Actions of ${node.kind} ${node.name}`
            : undefined,
        }}
      >
        <MenuItem
          onClick={() => {
            onClose();
            if (node) onOpenDetails(node.id);
          }}
        >
          Details
        </MenuItem>
        {node && hasLogs(node) ? (
          <MenuItem
            onClick={() => {
              onClose();
              if (node) onOpenLogs(node.id);
            }}
          >
            Logs
          </MenuItem>
        ) : null}
        {actions.offered.length > 0 ? <Divider /> : null}
        {actions.offered.map(({ action, allowed, reason }) => (
          <MenuItem
            key={action}
            disabled={!allowed}
            onClick={() => {
              onClose();
              actions.choose(action);
            }}
          >
            <ListItemText
              primary={ACTION_TEXT[action].label}
              secondary={allowed ? undefined : reason}
            />
          </MenuItem>
        ))}
      </Menu>
      {actions.elements}
    </>
  );
}
