import * as React from 'react';
import { useState } from 'react';
import { Link } from '@backstage/core-components';
import {
  EnvironmentResourcesResponse,
  GitlabEnvironment,
  nameInFolder,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Collapse from '@mui/material/Collapse';
import IconButton from '@mui/material/IconButton';
import Skeleton from '@mui/material/Skeleton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import AccountTreeIcon from '@mui/icons-material/AccountTree';
import { Polled } from '../../hooks/usePolledMap';
import { HealthBadge } from '../health/HealthBadge';
import { formatAge, shortSha } from '../../view/format';

import { gitlabEnvErrorDetail } from '../../api';
import { ERROR_CATALOG } from '../errors/errorCatalog';
import { NamespaceOrigin } from '../gitops';

const TIER_COLORS: Record<string, 'error' | 'warning' | 'info' | 'default'> = {
  production: 'error',
  staging: 'warning',
  testing: 'info',
};

export interface EnvironmentCardProps {
  environment: GitlabEnvironment;
  resources?: Polled<EnvironmentResourcesResponse>;
  selected: boolean;
  onOpen: (slug: string) => void;
  now: number;
}

/**
 * One environment at a glance: where it runs, what was deployed last and
 * how healthy it is. Stopped environments start collapsed.
 */
export function EnvironmentCard({
  environment,
  resources,
  selected,
  onOpen,
  now,
}: EnvironmentCardProps) {
  const stopped = environment.state === 'stopped';
  const [expanded, setExpanded] = useState(!stopped);
  const titleId = `gitlab-env-${environment.slug}-title`;
  return (
    <Card
      component="section"
      aria-labelledby={titleId}
      variant="outlined"
      data-environment={environment.slug}
      sx={{
        height: '100%',
        display: 'flex',
        flexDirection: 'column',
        borderWidth: selected ? 2 : 1,
        borderColor: selected ? 'primary.main' : 'divider',
        opacity: stopped ? 0.8 : 1,
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'flex-start', p: 2, pb: 1 }}>
        <Box sx={{ flexGrow: 1, minWidth: 0 }}>
          <Typography
            id={titleId}
            variant="h6"
            component="h3"
            noWrap
            title={environment.name}
          >
            {nameInFolder(environment)}
          </Typography>
          <Box sx={{ display: 'flex', gap: 0.5, mt: 0.5, flexWrap: 'wrap' }}>
            <Chip
              size="small"
              label={environment.tier}
              color={TIER_COLORS[environment.tier] ?? 'default'}
              variant="outlined"
            />
            <Chip
              size="small"
              label={environment.state}
              variant={
                environment.state === 'available' ? 'filled' : 'outlined'
              }
            />
          </Box>
        </Box>
        <Tooltip title={expanded ? 'Collapse' : 'Expand'}>
          <IconButton
            aria-expanded={expanded}
            aria-label={`${expanded ? 'Collapse' : 'Expand'} ${
              environment.name
            }`}
            onClick={() => setExpanded(!expanded)}
            size="small"
          >
            <ExpandMoreIcon
              sx={{
                transform: expanded ? 'rotate(180deg)' : 'none',
                transition: 'transform 150ms',
              }}
            />
          </IconButton>
        </Tooltip>
      </Box>
      <Box sx={{ px: 2, pb: expanded ? 0 : 2 }}>
        <EnvironmentHealth environment={environment} resources={resources} />
      </Box>
      <Collapse in={expanded} timeout="auto" sx={{ flexGrow: 1 }}>
        <CardContent sx={{ pt: 1.5 }}>
          <EnvironmentDetails environment={environment} now={now} />
        </CardContent>
        <CardActions sx={{ px: 2, pb: 2 }}>
          <Button
            variant={selected ? 'contained' : 'outlined'}
            size="small"
            startIcon={<AccountTreeIcon />}
            onClick={() => onOpen(environment.slug)}
            aria-label={`Show resources of ${environment.name}`}
          >
            Resources
          </Button>
        </CardActions>
      </Collapse>
    </Card>
  );
}

function EnvironmentHealth({
  environment,
  resources,
}: Pick<EnvironmentCardProps, 'environment' | 'resources'>) {
  const summary = resources?.value?.health ?? environment.health;
  // The backend's count: the one the card follows live (patches keep it),
  // else the list's, read with its health.
  const followed = resources?.value;
  const drifted = followed
    ? followed.environment.driftedCount
    : environment.driftedCount;
  if (summary)
    return (
      <Box
        sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}
      >
        <HealthBadge summary={summary} />
        {drifted ? (
          <Chip
            size="small"
            color="warning"
            variant="outlined"
            label={`${drifted} drifted`}
            title="Objects whose live state differs from what Flux applied"
            data-testid="drifted-count"
          />
        ) : null}
      </Box>
    );
  if (environment.state === 'stopped') {
    return (
      <Typography variant="body2" color="text.secondary">
        Stopped: nothing deployed.
      </Typography>
    );
  }
  const refused = environment.errors?.[0];
  if (refused && !resources?.value) {
    // The list already says why there is no health (a setting GitLab holds
    // that the backend refused, or the failed health read).
    return (
      <Typography
        variant="body2"
        color="text.secondary"
        title={`${refused.message} ${
          refused.hint ?? ERROR_CATALOG[refused.code].advice
        }`}
        data-error-code={refused.code}
      >
        {ERROR_CATALOG[refused.code].title}
      </Typography>
    );
  }
  if (!resources || resources.loading) {
    return <Skeleton variant="rounded" width="70%" height={24} />;
  }
  const error = resources.error;
  const code = gitlabEnvErrorDetail(error)?.code;
  const title = code ? ERROR_CATALOG[code].title : 'Health unavailable';
  return (
    <Typography variant="body2" color="text.secondary" title={error?.message}>
      {title}
    </Typography>
  );
}

function EnvironmentDetails({
  environment,
  now,
}: {
  environment: GitlabEnvironment;
  now: number;
}) {
  const { agent, lastDeployment } = environment;
  const deployedAgo = formatAge(lastDeployment?.finishedAt, now);
  return (
    <Box
      component="dl"
      sx={{
        display: 'grid',
        gridTemplateColumns: 'max-content 1fr',
        columnGap: 2,
        rowGap: 0.75,
        m: 0,
        '& dt': { color: 'text.secondary', typography: 'body2' },
        '& dd': { m: 0, typography: 'body2', minWidth: 0 },
      }}
    >
      <dt>Agent</dt>
      <dd>
        {agent ? (
          <OptionalLink to={agent.webUrl}>{agent.name}</OptionalLink>
        ) : (
          'none'
        )}
      </dd>
      <dt>Namespace</dt>
      <dd>
        <code>{environment.namespace ?? 'not set'}</code>
        <NamespaceOrigin mapping={environment.namespaceSource} />
      </dd>
      <dt>Deployed</dt>
      <dd>
        {lastDeployment ? (
          <OptionalLink to={lastDeployment.webUrl}>
            {[
              lastDeployment.ref,
              shortSha(lastDeployment.sha),
              deployedAgo ? `${deployedAgo} ago` : undefined,
            ]
              .filter(Boolean)
              .join(' · ') || `#${lastDeployment.iid}`}
          </OptionalLink>
        ) : (
          'never'
        )}
        {lastDeployment && lastDeployment.status !== 'success' ? (
          <Chip
            size="small"
            label={lastDeployment.status}
            sx={{ ml: 1, height: 18 }}
          />
        ) : null}
      </dd>
      <dt>URL</dt>
      <dd>
        {environment.externalUrl ? (
          <Link to={environment.externalUrl}>
            {environment.externalUrl.replace(/^https?:\/\//, '')}
          </Link>
        ) : (
          'none'
        )}
      </dd>
      {environment.webUrl ? (
        <>
          <dt>GitLab</dt>
          <dd>
            <Link to={environment.webUrl}>Open in GitLab</Link>
          </dd>
        </>
      ) : null}
    </Box>
  );
}

function OptionalLink({
  to,
  children,
}: {
  to?: string;
  children: React.ReactNode;
}) {
  return to ? <Link to={to}>{children}</Link> : <>{children}</>;
}
