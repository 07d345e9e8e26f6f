import * as React from 'react';
import { FluxSyncStatus } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import Chip from '@mui/material/Chip';

const LOOK: Record<
  FluxSyncStatus,
  { label: string; color: 'success' | 'info' | 'warning' | 'error' | 'default' }
> = {
  ready: { label: 'Ready', color: 'success' },
  reconciling: { label: 'Reconciling', color: 'info' },
  stalled: { label: 'Stalled', color: 'error' },
  failed: { label: 'Failed', color: 'error' },
  suspended: { label: 'Suspended', color: 'default' },
  unknown: { label: 'Unknown', color: 'default' },
};

/** A Flux object's sync state, as `flux get` names it. */
export function SyncChip({ status }: { status: FluxSyncStatus }) {
  const look = LOOK[status];
  return (
    <Chip
      size="small"
      color={look.color}
      label={`Sync: ${look.label}`}
      data-testid="flux-sync"
    />
  );
}
