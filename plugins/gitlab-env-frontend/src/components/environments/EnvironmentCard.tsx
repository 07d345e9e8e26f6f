import * as React from 'react';
import {
  EnvironmentTree,
  GitlabEnvironment,
  nameInFolder,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { Polled } from '../../hooks/usePolledMap';
import { HealthBadge } from '../health/HealthBadge';
import { formatAge, shortSha } from '../../view/format';
import { gitlabEnvErrorDetail } from '../../api';
import { ERROR_CATALOG } from '../errors/errorCatalog';
import { TierChip } from './TierChip';
import { WarningChip } from '../text/WarningChip';

export interface EnvironmentCardProps {
  environment: GitlabEnvironment;
  resources?: Polled<EnvironmentTree>;
  selected: boolean;
  onOpen: (slug: string) => void;
  now: number;
}

/**
 * One environment at a glance, and the way to open it: its name, tier,
 * health and what was deployed last. A click anywhere on the card (or
 * Enter on its name) shows its graph below the cards.
 */
export function EnvironmentCard({
  environment,
  resources,
  selected,
  onOpen,
  now,
}: EnvironmentCardProps) {
  const stopped = environment.state === 'stopped';
  const titleId = `gitlab-env-${environment.slug}-title`;
  const { lastDeployment } = environment;
  const deployedAgo = formatAge(lastDeployment?.finishedAt, now);
  return (
    <Card
      component="section"
      aria-labelledby={titleId}
      variant="outlined"
      data-environment={environment.slug}
      data-selected={selected || undefined}
      data-state={environment.state}
      onClick={() => onOpen(environment.slug)}
      sx={{
        width: 280,
        flexShrink: 0,
        p: 1.5,
        display: 'flex',
        flexDirection: 'column',
        gap: 1,
        cursor: 'pointer',
        // The same box selected or not: the border colour changes, not its width.
        borderColor: selected ? 'primary.main' : 'divider',
        boxShadow: theme =>
          selected ? `inset 0 0 0 1px ${theme.palette.primary.main}` : 'none',
        // A stopped card is not greyed out: its words must stay readable.
        borderStyle: stopped ? 'dashed' : 'solid',
        '&:hover': { borderColor: selected ? 'primary.main' : 'text.primary' },
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
        <Typography
          id={titleId}
          variant="subtitle1"
          component="h3"
          sx={{ fontWeight: 600, minWidth: 0, flexShrink: 1 }}
        >
          <ButtonBase
            onClick={event => {
              event.stopPropagation();
              onOpen(environment.slug);
            }}
            aria-current={selected ? 'true' : undefined}
            title={environment.name}
            sx={{
              font: 'inherit',
              maxWidth: '100%',
              display: 'block',
              overflow: 'hidden',
              textOverflow: 'ellipsis',
              whiteSpace: 'nowrap',
              borderRadius: 0.5,
              '&.Mui-focusVisible': {
                outline: theme => `2px solid ${theme.palette.primary.main}`,
                outlineOffset: 2,
              },
            }}
          >
            {nameInFolder(environment)}
          </ButtonBase>
        </Typography>
        <Box sx={{ flexGrow: 1 }} />
        <TierChip tier={environment.tier} />
      </Box>
      <EnvironmentHealth environment={environment} resources={resources} />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
        <Typography
          variant="caption"
          color="text.secondary"
          noWrap
          title={lastDeployment?.finishedAt}
          sx={{ flexGrow: 1, minWidth: 0 }}
        >
          {lastDeployment
            ? [
                lastDeployment.ref,
                shortSha(lastDeployment.sha),
                deployedAgo ? `${deployedAgo} ago` : undefined,
              ]
                .filter(Boolean)
                .join(' · ') || `deployment #${lastDeployment.iid}`
            : 'never deployed'}
          {lastDeployment && lastDeployment.status !== 'success'
            ? ` · ${lastDeployment.status}`
            : ''}
        </Typography>
        <DriftedCount environment={environment} resources={resources} />
        {environment.state === 'available' ? null : (
          <Chip size="small" label={environment.state} variant="outlined" />
        )}
      </Box>
    </Card>
  );
}

/** How many objects drifted from what Flux applied, when any did. */
function DriftedCount({
  environment,
  resources,
}: Pick<EnvironmentCardProps, 'environment' | 'resources'>) {
  // The backend's count: the one the card follows live (patches keep it),
  // else the list's, read with its health.
  const followed = resources?.value;
  const drifted = followed
    ? followed.environment.driftedCount
    : environment.driftedCount;
  if (!drifted) return null;
  return (
    <WarningChip
      variant="outlined"
      label={`${drifted} drifted`}
      title="Objects whose live state differs from what Flux applied"
      data-testid="drifted-count"
    />
  );
}

function EnvironmentHealth({
  environment,
  resources,
}: Pick<EnvironmentCardProps, 'environment' | 'resources'>) {
  const summary = resources?.value?.health ?? environment.health;
  if (summary) return <HealthBadge summary={summary} />;
  if (environment.state === 'stopped') {
    return (
      <Typography variant="body2" color="text.secondary">
        Stopped: nothing deployed.
      </Typography>
    );
  }
  // The list already says why there is no health (a setting GitLab holds
  // that the backend refused, or the failed health read); else the read.
  const refused = resources?.value ? undefined : environment.errors?.[0];
  if (!refused && (!resources || resources.loading)) {
    // The list comes from GitLab alone; each card's cluster data arrives on
    // its own, so a slow agent shows here, on its cards only.
    const agent = environment.agent?.name;
    return (
      <Typography
        variant="body2"
        color="text.secondary"
        role="status"
        data-testid="environment-connecting"
        sx={{
          display: 'inline-flex',
          alignItems: 'center',
          gap: 1,
          minHeight: 24,
        }}
      >
        <CircularProgress size={14} aria-hidden />
        {agent ? `Connecting to agent ${agent}…` : 'Reading…'}
      </Typography>
    );
  }
  const detail = refused ?? gitlabEnvErrorDetail(resources?.error);
  const entry = detail ? ERROR_CATALOG[detail.code] : undefined;
  return (
    <Alert
      severity={entry?.severity ?? 'error'}
      variant="outlined"
      data-error-code={detail?.code}
      title={
        detail
          ? `${detail.message} ${detail.hint ?? entry!.advice}`
          : resources?.error?.message
      }
      sx={{ py: 0, px: 1, typography: 'body2' }}
    >
      {entry?.title ?? 'Health unavailable'}
    </Alert>
  );
}
