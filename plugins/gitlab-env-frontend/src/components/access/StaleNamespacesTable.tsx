import * as React from 'react';
import { useState } from 'react';
import { parseEntityRef } from '@backstage/catalog-model';
import {
  gitlabEnvNamespaceDeletePermission,
  StaleNamespace,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { EntityRefLink } from '@backstage/plugin-catalog-react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import { VISUALLY_HIDDEN_SX } from '../text/visuallyHidden';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import { useAuthorized } from '../../hooks/useAuthorized';
import { WHOLE_WORDS_SX } from '../tableStyle';
import { formatAge } from '../../view/format';
import { DeleteNamespaceDialog } from './DeleteNamespaceDialog';
import { CREATOR_LABEL, describeContents, describeReason } from './describe';

export type DeleteStaleNamespace = (
  entity: ReturnType<typeof parseEntityRef>,
  agentId: string,
  name: string,
) => Promise<unknown>;

function DeleteButton({
  namespace,
  onAsk,
}: {
  namespace: StaleNamespace;
  onAsk: () => void;
}) {
  const { allowed, loading, error } = useAuthorized({
    permission: gitlabEnvNamespaceDeletePermission,
    resourceRef: namespace.entityRef,
  });
  return (
    <Button
      size="small"
      color="error"
      variant="outlined"
      disabled={loading || !allowed}
      title={deleteTitle({ allowed, loading, error })}
      onClick={onAsk}
      aria-label={`Delete namespace ${namespace.name}`}
    >
      Delete
    </Button>
  );
}

/** Stale namespaces with what they hold and who made them; deletion behind a confirmation. */
export function StaleNamespacesTable({
  namespaces,
  now,
  showEntity = false,
  onDelete,
}: {
  namespaces: StaleNamespace[];
  now: number;
  showEntity?: boolean;
  onDelete: DeleteStaleNamespace;
}) {
  const [asking, setAsking] = useState<StaleNamespace>();
  const [deleted, setDeleted] = useState<string>();
  return (
    <>
      {deleted ? (
        <Alert
          severity="success"
          variant="outlined"
          onClose={() => setDeleted(undefined)}
        >
          {deleted}
        </Alert>
      ) : null}
      {namespaces.length === 0 ? (
        <Alert severity="success" variant="outlined">
          No namespace left behind by stopped or deleted environments.
        </Alert>
      ) : (
        <Table
          size="small"
          aria-label="Stale namespaces"
          // Short columns keep their words on one line; the long ones
          // (why, contents) wrap between words.
          sx={{
            ...WHOLE_WORDS_SX,
            '& .gitlab-env-nowrap': { whiteSpace: 'nowrap' },
          }}
        >
          <TableHead>
            <TableRow>
              <TableCell>Namespace</TableCell>
              {showEntity ? <TableCell>Entity</TableCell> : null}
              <TableCell>Why it is stale</TableCell>
              <TableCell className="gitlab-env-nowrap">Age</TableCell>
              <TableCell className="gitlab-env-nowrap">Created by</TableCell>
              <TableCell>Contents</TableCell>
              <TableCell>
                <Box component="span" sx={VISUALLY_HIDDEN_SX}>
                  Actions
                </Box>
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {namespaces.map(ns => (
              <TableRow key={`${ns.agent.id}|${ns.name}`}>
                <TableCell component="th" scope="row">
                  <Typography variant="body2" fontWeight={600}>
                    {ns.name}
                  </Typography>
                  <Typography variant="caption" color="text.secondary">
                    agent {ns.agent.name}
                  </Typography>
                </TableCell>
                {showEntity ? (
                  <TableCell className="gitlab-env-nowrap">
                    <EntityRefLink
                      entityRef={ns.entityRef}
                      defaultKind="component"
                    />
                  </TableCell>
                ) : null}
                <TableCell>
                  {ns.reasons.map(describeReason).join('; ')}
                </TableCell>
                <TableCell className="gitlab-env-nowrap">
                  {formatAge(ns.createdAt, now) ?? '—'}
                </TableCell>
                <TableCell className="gitlab-env-nowrap">
                  {CREATOR_LABEL[ns.creator]}
                  {ns.gitlabDeletes ? (
                    <Chip
                      size="small"
                      sx={{ ml: 1 }}
                      label="GitLab's to delete (on_stop)"
                    />
                  ) : null}
                </TableCell>
                <TableCell>
                  {describeContents(ns.contents)}
                  {ns.contents.runningWorkloads > 0 ? (
                    <Typography
                      variant="caption"
                      sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}
                    >
                      <WarningAmberIcon fontSize="inherit" color="warning" />
                      {ns.contents.runningWorkloads} workload(s) still running,{' '}
                      {ns.contents.runningPods} pod(s)
                    </Typography>
                  ) : null}
                  {ns.contents.uncounted.length > 0 ? (
                    <Typography
                      variant="caption"
                      display="block"
                      color="text.secondary"
                    >
                      not counted: {ns.contents.uncounted.join(', ')}
                    </Typography>
                  ) : null}
                </TableCell>
                <TableCell className="gitlab-env-nowrap">
                  <DeleteButton namespace={ns} onAsk={() => setAsking(ns)} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {asking ? (
        <DeleteNamespaceDialog
          namespace={asking}
          onCancel={() => setAsking(undefined)}
          onDelete={async () => {
            await onDelete(
              parseEntityRef(asking.entityRef),
              asking.agent.id,
              asking.name,
            );
            setDeleted(
              `Namespace ${asking.name} is being deleted (Terminating).`,
            );
            setAsking(undefined);
          }}
        />
      ) : null}
    </>
  );
}

/** Why Delete is disabled: still checking, the check failed, or a denial. */
function deleteTitle(check: {
  allowed: boolean;
  loading: boolean;
  error?: Error;
}): string | undefined {
  if (check.loading) return 'Checking whether you may delete this namespace';
  if (check.error)
    return `Could not check whether you may delete this namespace: ${check.error.message}. Reload the page to try again.`;
  return check.allowed
    ? undefined
    : 'You may not delete namespaces of this entity';
}
