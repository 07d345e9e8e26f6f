import * as React from 'react';
import { Table, TableColumn } from '@backstage/core-components';
import {
  HEALTH_STATUSES,
  HealthOrigin,
  HealthStatus,
  TreeNode,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { HealthIcon } from '../health/healthStyle';
import { HealthOriginHint } from '../health/HealthOriginHint';
import { KindIcon } from '../graph/KindIcon';
import { formatAge } from '../../view/format';

interface Row {
  id: string;
  kind: string;
  name: string;
  health?: HealthStatus;
  healthOrigin?: HealthOrigin;
  healthRank: number;
  message: string;
  status: string;
  age: string;
}

/**
 * The same resources as a table, for keyboard and screen-reader users and
 * for sorting: each name is a button that opens the drawer.
 */
export function ResourceTable({
  nodes,
  onSelect,
  now,
}: {
  nodes: TreeNode[];
  onSelect: (id: string) => void;
  now: number;
}) {
  const rows: Row[] = nodes.map(node => ({
    id: node.id,
    kind: node.kind,
    name: node.name,
    health: node.health?.status,
    healthOrigin: node.health?.origin,
    healthRank: node.health ? HEALTH_STATUSES.indexOf(node.health.status) : -1,
    message: node.health?.message ?? '',
    status: node.status.join(' · '),
    age: formatAge(node.createdAt, now) ?? '',
  }));
  const columns: TableColumn<Row>[] = [
    {
      title: 'Kind',
      field: 'kind',
      render: row => (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <KindIcon kind={row.kind} fontSize="small" />
          {row.kind}
        </Box>
      ),
    },
    {
      title: 'Name',
      field: 'name',
      highlight: true,
      render: row => (
        <Link
          component="button"
          variant="body2"
          onClick={() => onSelect(row.id)}
          sx={{ textAlign: 'left' }}
        >
          {row.name}
        </Link>
      ),
    },
    {
      title: 'Health',
      field: 'healthRank',
      defaultSort: 'desc',
      render: row => (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
          <HealthIcon status={row.health} />
          {row.health ?? '—'}
          <HealthOriginHint origin={row.healthOrigin} />
        </Box>
      ),
    },
    { title: 'Status', field: 'status' },
    { title: 'Message', field: 'message' },
    { title: 'Age', field: 'age' },
  ];
  return (
    <Table<Row>
      title={`${rows.length} resources`}
      columns={columns}
      data={rows}
      options={{
        search: false,
        paging: rows.length > 50,
        pageSize: 50,
        pageSizeOptions: [50, 100, 500],
        padding: 'dense',
      }}
    />
  );
}
