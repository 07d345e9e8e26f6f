import * as React from 'react';
import {
  EnvironmentTree,
  GitlabEnvironment,
  groupEnvironments,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import FolderOutlinedIcon from '@mui/icons-material/FolderOutlined';
import { Polled } from '../../hooks/usePolledMap';

import { EnvironmentCard } from './EnvironmentCard';

// Cards of one width side by side; a folder's cards stay together in its box.
const ROW_SX = {
  display: 'flex',
  flexWrap: 'wrap',
  gap: 1.5,
  alignItems: 'flex-end',
} as const;

/**
 * The cards, ordered, with each folder's environments gathered under its
 * name: compact, so the opened environment's graph below them is in view.
 */
export function EnvironmentGrid({
  environments,
  resources,
  selectedSlug,
  onOpen,
  now,
}: {
  environments: GitlabEnvironment[];
  resources: ReadonlyMap<string, Polled<EnvironmentTree>>;
  selectedSlug?: string;
  onOpen: (slug: string) => void;
  now: number;
}) {
  const groups = groupEnvironments(environments);
  const card = (environment: GitlabEnvironment) => (
    <EnvironmentCard
      key={environment.slug}
      environment={environment}
      resources={resources.get(environment.slug)}
      selected={environment.slug === selectedSlug}
      onOpen={onOpen}
      now={now}
    />
  );
  return (
    <Box sx={ROW_SX}>
      {groups.map(group =>
        group.folder ? (
          <Box
            key={`folder:${group.folder}`}
            component="section"
            aria-label={`Folder ${group.folder}`}
            sx={{
              border: 1,
              borderColor: 'divider',
              borderStyle: 'dashed',
              borderRadius: 1,
              p: 1,
              pt: 0.5,
            }}
          >
            <Typography
              variant="subtitle2"
              component="h3"
              sx={{ display: 'flex', alignItems: 'center', gap: 0.5, mb: 0.5 }}
            >
              <FolderOutlinedIcon fontSize="small" />
              {group.folder}
              <Typography
                component="span"
                variant="caption"
                color="text.secondary"
              >
                ({group.environments.length})
              </Typography>
            </Typography>
            <Box sx={ROW_SX}>{group.environments.map(card)}</Box>
          </Box>
        ) : (
          card(group.environments[0])
        ),
      )}
    </Box>
  );
}
