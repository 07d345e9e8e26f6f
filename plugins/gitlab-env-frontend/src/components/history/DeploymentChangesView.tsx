import * as React from 'react';
import { CompoundEntityRef } from '@backstage/catalog-model';
import { useApi } from '@backstage/core-plugin-api';
import { DeploymentRecord } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import useAsyncRetry from 'react-use/esm/useAsyncRetry';
import { gitlabEnvHistoryApiRef } from '../../api';
import { formatTime } from '../../view/format';
import {
  GitlabEnvErrorPanel,
  PartialErrors,
} from '../errors/GitlabEnvErrorPanel';
import { OptionalLink } from '../text/OptionalLink';
import { COMPACT_TABLE_SX } from '../tableStyle';

/**
 * What one deployment brought since the previous successful one: its
 * commits, the merge requests they came from and the images that changed,
 * read when the row is opened.
 */
export function DeploymentChangesView({
  entity,
  environmentSlug,
  deployment,
}: {
  entity: CompoundEntityRef;
  environmentSlug: string;
  deployment: DeploymentRecord;
}) {
  const api = useApi(gitlabEnvHistoryApiRef);
  const { value, loading, error, retry } = useAsyncRetry(
    () => api.getDeploymentChanges(entity, environmentSlug, deployment.id),
    [api, entity, environmentSlug, deployment.id],
  );
  if (loading)
    return (
      <Skeleton
        variant="rounded"
        height={80}
        aria-label={`Loading what deployment #${deployment.iid} brought`}
      />
    );
  if (error || !value)
    return <GitlabEnvErrorPanel error={error!} onRetry={retry} />;
  const back = value.direction === 'back';
  return (
    <Box
      aria-label={`What deployment #${deployment.iid} brought`}
      role="region"
      sx={{ display: 'flex', flexDirection: 'column', gap: 1.5, py: 1 }}
    >
      <Typography variant="body2">
        {value.since
          ? `${back ? 'Went back from' : 'Since'} deployment #${
              value.since.iid
            }${value.since.ref ? ` (${value.since.ref})` : ''}: ${
              value.commits.length
            } commit${value.commits.length === 1 ? '' : 's'}${
              back ? ' taken back' : ''
            }${value.commitsTruncated ? ' (GitLab cut the list short)' : ''}.`
          : 'The first successful deployment of this environment.'}{' '}
        {value.compareUrl ? (
          <OptionalLink inText to={value.compareUrl}>
            Compare in GitLab
          </OptionalLink>
        ) : null}
      </Typography>
      {value.commits.length > 0 ? (
        <Box component="table" aria-label="Commits" sx={COMPACT_TABLE_SX}>
          <thead>
            <tr>
              <th>Commit</th>
              <th>Title</th>
              <th>Author</th>
              <th>Committed</th>
            </tr>
          </thead>
          <tbody>
            {value.commits.map(commit => (
              <tr key={commit.sha}>
                <td>
                  <OptionalLink to={commit.webUrl}>
                    <code>{commit.shortSha}</code>
                  </OptionalLink>
                </td>
                <td>{commit.title}</td>
                <td>{commit.authorName ?? '—'}</td>
                <td>{formatTime(commit.createdAt) ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </Box>
      ) : null}
      {value.mergeRequests.length > 0 ? (
        <Box>
          <Typography variant="subtitle2" component="h4">
            Merge requests
            {value.mergeRequestsFrom === 'commits'
              ? ' (found from each commit)'
              : ''}
          </Typography>
          <Box component="ul" aria-label="Merge requests" sx={{ m: 0, pl: 3 }}>
            {value.mergeRequests.map(mr => (
              <li key={mr.iid}>
                <OptionalLink inText to={mr.webUrl}>
                  !{mr.iid}
                </OptionalLink>{' '}
                {mr.title}
                {mr.authorName ? ` · ${mr.authorName}` : ''}
                {mr.state && mr.state !== 'merged' ? ` · ${mr.state}` : ''}
              </li>
            ))}
          </Box>
        </Box>
      ) : null}
      {value.images.length > 0 ? (
        <Box
          component="table"
          aria-label="Changed images"
          sx={COMPACT_TABLE_SX}
        >
          <thead>
            <tr>
              <th>Workload</th>
              <th>Container</th>
              <th>Image before</th>
              <th>Image after</th>
              <th>Seen in</th>
            </tr>
          </thead>
          <tbody>
            {value.images.map(image => (
              <tr key={`${image.workload}/${image.container}`}>
                <td>{image.workload}</td>
                <td>{image.container}</td>
                <td>
                  <code>{image.from ?? '—'}</code>
                </td>
                <td>
                  <code>{image.to}</code>
                </td>
                <td>
                  {image.source}
                  {image.revision !== undefined
                    ? ` revision ${image.revision}`
                    : ''}
                </td>
              </tr>
            ))}
          </tbody>
        </Box>
      ) : (
        <Typography variant="body2" color="text.secondary">
          No changed image found in what the cluster still keeps (its
          ReplicaSets, ControllerRevisions and Flux’s history).
        </Typography>
      )}
      {value.notes?.map(note => (
        <Alert key={note} severity="info" variant="outlined">
          {note}
        </Alert>
      ))}
      <PartialErrors errors={value.errors ?? []} />
    </Box>
  );
}
