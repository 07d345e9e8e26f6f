import * as React from 'react';
import {
  CiAccessCell,
  CiAccessMatrixResponse,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { describeEntry, describeRule } from './describe';
import { Path } from '../text/Path';
import { WHOLE_WORDS_SX } from '../tableStyle';

function CellView({ cell }: { cell?: CiAccessCell }) {
  if (!cell) {
    return (
      <Typography variant="body2" color="text.secondary">
        configuration not read
      </Typography>
    );
  }
  const { decision } = cell;
  const ns = decision.namespace;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 0.5 }}>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
        <Chip
          size="small"
          color={decision.authorized ? 'success' : 'default'}
          label={decision.authorized ? 'Authorized' : 'Denied'}
        />
        <Typography variant="body2">
          <Path text={describeEntry(decision.entry)} /> ·{' '}
          {describeRule(decision)}
        </Typography>
      </Box>
      {ns ? (
        <Typography variant="body2" data-testid="namespace">
          namespace <code>{ns.final}</code>
          {ns.truncated ? (
            <>
              {' '}
              (full name <code>{ns.full}</code>, truncated)
            </>
          ) : null}
        </Typography>
      ) : null}
      <Typography variant="caption" color="text.secondary">
        {decision.message}
      </Typography>
    </Box>
  );
}

/** Environments × agents: the ci_access entry and rule that decide, and the namespace. */
export function AccessMatrix({ matrix }: { matrix: CiAccessMatrixResponse }) {
  const agents = matrix.agents;
  return (
    <Table
      size="small"
      aria-label="Access by environment and agent"
      sx={WHOLE_WORDS_SX}
    >
      <TableHead>
        <TableRow>
          <TableCell>Environment</TableCell>
          {agents.map(agent => (
            <TableCell key={agent.id}>Agent {agent.name}</TableCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>
        {matrix.environments.map(environment => (
          <TableRow key={environment.name}>
            <TableCell component="th" scope="row">
              <Typography variant="body2" fontWeight={600}>
                {environment.name}
              </Typography>
              <Typography variant="caption" color="text.secondary">
                {environment.tier} · branch {environment.ref}
                {environment.namespace
                  ? ` · GitLab namespace ${environment.namespace}`
                  : ''}
              </Typography>
            </TableCell>
            {agents.map(agent => (
              <TableCell key={agent.id}>
                <CellView
                  cell={matrix.cells.find(
                    c =>
                      c.environment === environment.name &&
                      c.agentId === agent.id,
                  )}
                />
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
