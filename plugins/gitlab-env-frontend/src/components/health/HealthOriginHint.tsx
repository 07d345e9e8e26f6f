import * as React from 'react';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { HealthOrigin } from '@gitlab-env/backstage-plugin-gitlab-env-common';

const HINTS: Record<HealthOrigin, { label: string; explanation: string }> = {
  generic: {
    label: 'generic rule',
    explanation:
      'No rule knows this kind: its health was read from the status conventions most controllers follow (Ready, Stalled, Reconciling, Available, phase). An Unknown from this rule does not count in the environment’s health. An administrator can add a precise rule under gitlabEnv.health.rules.',
  },
  adopter: {
    label: 'portal rule',
    explanation:
      'This health comes from a rule your portal’s administrators added (app-config gitlabEnv.health.rules or a backend module), not from the built-in ArgoCD-compatible rules.',
  },
};

/**
 * A small note under a health status saying which kind of rule made it,
 * when it was not a built-in ArgoCD-compatible one; nothing otherwise.
 */
export function HealthOriginHint({
  origin,
}: {
  origin: HealthOrigin | undefined;
}) {
  if (!origin || !HINTS[origin]) return null;
  const { label, explanation } = HINTS[origin];
  return (
    <Tooltip title={explanation}>
      <Typography
        variant="caption"
        color="text.secondary"
        component="span"
        aria-label={`Health from the ${label}: ${explanation}`}
        sx={{ fontStyle: 'italic', fontSize: 10, whiteSpace: 'nowrap' }}
      >
        {label}
      </Typography>
    </Tooltip>
  );
}
