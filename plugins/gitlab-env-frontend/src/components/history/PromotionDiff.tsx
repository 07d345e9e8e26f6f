import * as React from 'react';
import { CompoundEntityRef } from '@backstage/catalog-model';
import { useApi } from '@backstage/core-plugin-api';
import { PromotionDifference } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import useAsyncRetry from 'react-use/esm/useAsyncRetry';
import { gitlabEnvHistoryApiRef } from '../../api';
import {
  GitlabEnvErrorPanel,
  PartialErrors,
} from '../errors/GitlabEnvErrorPanel';
import { OptionalLink } from '../text/OptionalLink';
import { COMPACT_TABLE_SX } from '../tableStyle';

const ASPECT_LABEL: Record<PromotionDifference['aspect'], string> = {
  workload: 'Workload',
  image: 'Image',
  replicas: 'Replicas',
  config: 'Config key',
};

/** Absent: no value, or the engine's word for a missing key or object (promotionDiff). */
const ABSENT = new Set([undefined, 'absent']);

function shown(value: string | undefined, difference: PromotionDifference) {
  if (difference.secret)
    return ABSENT.has(value) ? 'absent' : 'present (value not compared)';
  return value === undefined ? 'absent' : <code>{value}</code>;
}

/**
 * What promoting one environment's state to another would change: the
 * workloads, their images and replica counts, and the config keys (for
 * Secrets, only whether a key is there).
 */
export function PromotionDiff({
  entity,
  from,
  to,
}: {
  entity: CompoundEntityRef;
  from: string;
  to: string;
}) {
  const api = useApi(gitlabEnvHistoryApiRef);
  const { value, loading, error, retry } = useAsyncRetry(
    () => api.getPromotion(entity, from, to),
    [api, entity, from, to],
  );
  if (loading)
    return (
      <Skeleton
        variant="rounded"
        height={120}
        aria-label="Comparing the environments"
      />
    );
  if (error || !value)
    return (
      <GitlabEnvErrorPanel
        error={error!}
        onRetry={retry}
        title="Could not compare the environments"
      />
    );
  const fromName = value.from.environment.name;
  const toName = value.to.environment.name;
  const compared = value.to.comparedWith;
  return (
    <Box
      role="region"
      aria-label={`From ${fromName} to ${toName}`}
      sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}
    >
      <Typography variant="body2">
        {fromName} runs {value.from.ref ?? '?'}{' '}
        <code>{value.from.shortSha ?? '?'}</code>; {toName} runs{' '}
        {value.to.ref ?? '?'} <code>{value.to.shortSha ?? '?'}</code>.{' '}
        {compared && compared.slug === value.from.environment.slug ? (
          <OptionalLink inText to={compared.compareUrl}>
            {compared.summary}
          </OptionalLink>
        ) : null}
      </Typography>
      <PartialErrors errors={value.errors ?? []} />
      {value.differences.length === 0 ? (
        <Alert severity="success" variant="outlined">
          {toName} runs the same workloads, images, replica counts and config
          keys as {fromName}.
        </Alert>
      ) : (
        <Box
          component="table"
          aria-label={`Differences from ${fromName} to ${toName}`}
          sx={COMPACT_TABLE_SX}
        >
          <thead>
            <tr>
              <th>Object</th>
              <th>What</th>
              <th>In {fromName}</th>
              <th>In {toName}</th>
            </tr>
          </thead>
          <tbody>
            {value.differences.map(difference => (
              <tr
                key={`${difference.object.kind}/${difference.object.name}/${
                  difference.aspect
                }/${difference.what ?? ''}`}
                data-aspect={difference.aspect}
              >
                <td>
                  {difference.object.kind} {difference.object.name}
                </td>
                <td>
                  {ASPECT_LABEL[difference.aspect]}
                  {difference.what ? ` · ${difference.what}` : ''}
                </td>
                <td>{shown(difference.from, difference)}</td>
                <td>{shown(difference.to, difference)}</td>
              </tr>
            ))}
          </tbody>
        </Box>
      )}
    </Box>
  );
}
