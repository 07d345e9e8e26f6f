import * as React from 'react';
import { CompoundEntityRef } from '@backstage/catalog-model';
import { useApi } from '@backstage/core-plugin-api';
import {
  MergeRequestEnvironmentPreview,
  MergeRequestPreview,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import useAsyncRetry from 'react-use/esm/useAsyncRetry';
import { gitlabEnvHistoryApiRef } from '../../api';
import {
  GitlabEnvErrorPanel,
  PartialErrors,
} from '../errors/GitlabEnvErrorPanel';
import { fieldValueText, shortSha } from '../../view/format';
import { OptionalLink } from '../text/OptionalLink';
import { COMPACT_TABLE_SX } from '../tableStyle';

/**
 * What each open merge request would change in the Flux environments it
 * reaches: the objects added, changed (which fields) and removed at its
 * head against what the cluster runs, and what cannot be compared.
 */
export function MergeRequestPreviews({
  entity,
}: {
  entity: CompoundEntityRef;
}) {
  const api = useApi(gitlabEnvHistoryApiRef);
  const { value, loading, error, retry } = useAsyncRetry(
    () => api.getMergeRequestPreviews(entity),
    [api, entity],
  );
  if (loading)
    return (
      <Skeleton
        variant="rounded"
        height={160}
        aria-label="Loading merge requests"
      />
    );
  if (error || !value)
    return (
      <GitlabEnvErrorPanel
        error={error!}
        onRetry={retry}
        title="Could not preview the merge requests"
      />
    );
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <PartialErrors errors={value.errors ?? []} />
      {value.mergeRequests.length === 0 ? (
        <Alert severity="info" variant="outlined">
          No open merge request changes the manifests a Flux environment of this
          entity applies
          {value.untouched
            ? ` (${value.untouched} open merge requests change other files)`
            : ''}
          .
        </Alert>
      ) : (
        value.mergeRequests.map(mr => <MergeRequestCard key={mr.iid} mr={mr} />)
      )}
      {value.mergeRequests.length > 0 && value.untouched > 0 ? (
        <Typography variant="caption" color="text.secondary">
          {value.untouched} more open merge request
          {value.untouched === 1 ? ' changes' : 's change'} no manifest an
          environment applies.
        </Typography>
      ) : null}
    </Box>
  );
}

function MergeRequestCard({ mr }: { mr: MergeRequestPreview }) {
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-label={`Merge request !${mr.iid}`}
      sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 1 }}
    >
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        <OptionalLink inText to={mr.webUrl}>
          !{mr.iid}
        </OptionalLink>{' '}
        {mr.title}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {[
          mr.authorName,
          mr.sourceBranch && mr.targetBranch
            ? `${mr.sourceBranch} → ${mr.targetBranch}`
            : undefined,
          `head ${shortSha(mr.headSha)}`,
        ]
          .filter(Boolean)
          .join(' · ')}
      </Typography>
      <Typography variant="body2">
        Changes {mr.touchedFiles.length} manifest file
        {mr.touchedFiles.length === 1 ? '' : 's'}:{' '}
        {mr.touchedFiles.map((file, index) => (
          <React.Fragment key={file}>
            {index > 0 ? ', ' : null}
            <code>{file}</code>
          </React.Fragment>
        ))}
      </Typography>
      {mr.environments.map(env => (
        <EnvironmentPreview key={env.environment.slug} preview={env} />
      ))}
    </Paper>
  );
}

function EnvironmentPreview({
  preview,
}: {
  preview: MergeRequestEnvironmentPreview;
}) {
  const name = preview.environment.name;
  const counts = `${preview.added.length} added, ${preview.changed.length} changed, ${preview.removed.length} removed`;
  return (
    <Box
      role="group"
      aria-label={`In ${name}`}
      sx={{ display: 'flex', flexDirection: 'column', gap: 0.5 }}
    >
      <Typography variant="subtitle2" component="h4">
        In {name}
        {preview.fluxObject ? ` (applied by ${preview.fluxObject}` : ''}
        {preview.fluxObject && preview.path ? ` from ${preview.path}` : ''}
        {preview.fluxObject ? ')' : ''}:{' '}
        {preview.unavailable ? 'no comparison' : counts}
      </Typography>
      {preview.unavailable ? (
        <Alert severity="info" variant="outlined">
          {preview.unavailable}
        </Alert>
      ) : (
        <Box
          component="table"
          aria-label={`Changes in ${name}`}
          sx={COMPACT_TABLE_SX}
        >
          <thead>
            <tr>
              <th>Object</th>
              <th>Change</th>
              <th>Fields</th>
            </tr>
          </thead>
          <tbody>
            {preview.added.map(o => (
              <tr key={`+${o.id}`} data-change="added">
                <td>
                  <code>{o.id}</code>
                </td>
                <td>added</td>
                <td>
                  from <code>{o.file}</code>
                </td>
              </tr>
            ))}
            {preview.changed.map(o => (
              <tr key={`~${o.id}`} data-change="changed">
                <td>
                  <code>{o.id}</code>
                </td>
                <td>changed</td>
                <td>
                  {o.changes.map(change => (
                    <div key={change.path}>
                      <code>{change.path}</code>: {fieldValueText(change.live)}{' '}
                      → {fieldValueText(change.desired)}
                    </div>
                  ))}
                </td>
              </tr>
            ))}
            {preview.removed.map(o => (
              <tr key={`-${o.id}`} data-change="removed">
                <td>
                  <code>{o.id}</code>
                </td>
                <td>removed</td>
                <td>
                  {o.pruned
                    ? 'Flux deletes it (the Kustomization prunes)'
                    : 'left in the cluster (the Kustomization does not prune)'}
                </td>
              </tr>
            ))}
          </tbody>
        </Box>
      )}
      {preview.alreadyDrifted > 0 ? (
        <Typography variant="body2" color="text.secondary">
          {preview.alreadyDrifted} object
          {preview.alreadyDrifted === 1
            ? ' already differs'
            : 's already differ'}{' '}
          from the deployed revision: drift, not this merge request’s doing.
        </Typography>
      ) : null}
      {preview.notCompared.map(reason => (
        <Alert key={reason} severity="warning" variant="outlined">
          Not compared: {reason}
        </Alert>
      ))}
    </Box>
  );
}
