import * as React from 'react';
import { useState } from 'react';
import { CompoundEntityRef } from '@backstage/catalog-model';
import { useApi } from '@backstage/core-plugin-api';
import {
  EntityVersions,
  EnvironmentVersion,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useAsyncRetry from 'react-use/esm/useAsyncRetry';
import { gitlabEnvHistoryApiRef } from '../../api';
import { formatAge, shortSha } from '../../view/format';
import {
  GitlabEnvErrorPanel,
  PartialErrors,
} from '../errors/GitlabEnvErrorPanel';
import { TierChip } from '../environments/TierChip';
import { OptionalLink } from '../text/OptionalLink';
import { WarningChip } from '../text/WarningChip';
import { WHOLE_WORDS_SX } from '../tableStyle';
import { PromotionDiff } from './PromotionDiff';

/**
 * The entity's versions across its environments (what each runs: ref,
 * commit, images, how far behind the environment below it is) and the
 * promotion diff between two of them.
 */
export function EntityVersionsView({ entity }: { entity: CompoundEntityRef }) {
  const api = useApi(gitlabEnvHistoryApiRef);
  const { value, loading, error, retry } = useAsyncRetry(
    () => api.getVersions(entity),
    [api, entity],
  );
  if (loading && !value)
    return (
      <Skeleton variant="rounded" height={160} aria-label="Loading versions" />
    );
  if (error)
    return (
      <GitlabEnvErrorPanel
        error={error}
        onRetry={retry}
        title="Could not read the versions"
      />
    );
  const versions = value?.entities[0];
  if (!versions) return null;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
      <VersionMatrix versions={versions} />
      {versions.environments.length >= 2 ? (
        <PromotionPicker entity={entity} environments={versions.environments} />
      ) : null}
    </Box>
  );
}

/** Environments × what they run, one row each, highest tier first. */
export function VersionMatrix({
  versions,
  heading = 'Versions across environments',
}: {
  versions: EntityVersions;
  /** The matrix's title, also the table's name. */
  heading?: string;
}) {
  const now = Date.now();
  return (
    <Box
      component="section"
      aria-label={`Versions of ${versions.title ?? versions.entityRef}`}
      sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}
    >
      <Typography variant="h6" component="h3">
        {heading}
      </Typography>
      <PartialErrors errors={versions.errors ?? []} />
      <Table size="small" aria-label={heading} sx={WHOLE_WORDS_SX}>
        <TableHead>
          <TableRow>
            <TableCell>Environment</TableCell>
            <TableCell>Ref</TableCell>
            <TableCell>Commit</TableCell>
            <TableCell>Deployed</TableCell>
            <TableCell>Images</TableCell>
            <TableCell>Compared with the one before</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {versions.environments.map(version => (
            <VersionRow
              key={version.environment.slug}
              version={version}
              projectUrl={versions.project?.webUrl}
              now={now}
            />
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}

function VersionRow({
  version,
  projectUrl,
  now,
}: {
  version: EnvironmentVersion;
  projectUrl?: string;
  now: number;
}) {
  const { environment, comparedWith } = version;
  const ago = formatAge(version.deployedAt, now);
  return (
    <TableRow data-environment={environment.slug}>
      <TableCell>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <OptionalLink to={environment.webUrl}>
            {environment.name}
          </OptionalLink>
          <TierChip tier={environment.tier} />
        </Box>
      </TableCell>
      <TableCell>{version.ref ?? '—'}</TableCell>
      <TableCell>
        {version.sha ? (
          <OptionalLink
            to={
              projectUrl ? `${projectUrl}/-/commit/${version.sha}` : undefined
            }
          >
            <code>{version.shortSha ?? shortSha(version.sha)}</code>
          </OptionalLink>
        ) : (
          '—'
        )}
      </TableCell>
      <TableCell>{ago ? `${ago} ago` : '—'}</TableCell>
      <TableCell>
        {Object.entries(version.images).length === 0
          ? '—'
          : Object.entries(version.images).map(([where, image]) => (
              <div key={where}>
                {where}: <code>{image}</code>
              </div>
            ))}
      </TableCell>
      <TableCell>
        {comparedWith ? (
          <Box
            sx={{
              display: 'flex',
              alignItems: 'center',
              gap: 1,
              flexWrap: 'wrap',
            }}
          >
            {comparedWith.behind > 0 ? (
              <WarningChip
                size="small"
                variant="outlined"
                label={`${comparedWith.behind} commit${
                  comparedWith.behind === 1 ? '' : 's'
                } behind`}
              />
            ) : null}
            <OptionalLink to={comparedWith.compareUrl}>
              {comparedWith.summary}
            </OptionalLink>
          </Box>
        ) : (
          '—'
        )}
        <PartialErrors errors={version.errors ?? []} />
      </TableCell>
    </TableRow>
  );
}

/** Two environments to compare: what promoting `from` to `to` would change. */
function PromotionPicker({
  entity,
  environments,
}: {
  entity: CompoundEntityRef;
  environments: EnvironmentVersion[];
}) {
  // The first pair the backend compared (production with staging), else
  // the two highest tiers, the lower one first.
  const compared = environments.find(e => e.comparedWith);
  const [from, setFrom] = useState(
    compared?.comparedWith?.slug ?? environments[1].environment.slug,
  );
  const [to, setTo] = useState(
    compared?.environment.slug ?? environments[0].environment.slug,
  );
  const [shown, setShown] = useState<{ from: string; to: string }>();
  const select = (
    label: string,
    value: string,
    onChange: (slug: string) => void,
  ) => (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={e => onChange(e.target.value)}
      sx={{ minWidth: 200 }}
    >
      {environments.map(e => (
        <MenuItem key={e.environment.slug} value={e.environment.slug}>
          {e.environment.name}
        </MenuItem>
      ))}
    </TextField>
  );
  return (
    <Box
      component="section"
      aria-label="Promotion diff"
      sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}
    >
      <Typography variant="h6" component="h3">
        What a promotion would change
      </Typography>
      <Box
        sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}
      >
        {select('From', from, setFrom)}
        <span aria-hidden>→</span>
        {select('To', to, setTo)}
        <Button
          variant="outlined"
          disabled={from === to}
          onClick={() => setShown({ from, to })}
        >
          Compare
        </Button>
      </Box>
      {shown ? (
        <PromotionDiff
          key={`${shown.from}→${shown.to}`}
          entity={entity}
          from={shown.from}
          to={shown.to}
        />
      ) : null}
    </Box>
  );
}
