import * as React from 'react';
import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { GitlabEnvErrorPanel } from '../errors/GitlabEnvErrorPanel';

/**
 * The frame of every confirmation that writes: its question as the title,
 * what will happen (the children), Cancel and the confirming button. The
 * write runs once; while it runs nothing closes the dialog, and a failure
 * stays in it with the backend's message and hint.
 */
export function ConfirmDialog({
  title,
  confirmLabel,
  confirmColor = 'primary',
  canConfirm = true,
  failureTitle,
  maxWidth = 'sm',
  onConfirm,
  onClose,
  children,
}: {
  title: React.ReactNode;
  confirmLabel: string;
  confirmColor?: 'primary' | 'error';
  canConfirm?: boolean;
  /** What failed, for errors the backend did not describe. */
  failureTitle: string;
  maxWidth?: 'sm' | 'md';
  /** The write; resolves once done (the caller closes the dialog then). */
  onConfirm: () => Promise<void>;
  onClose: () => void;
  children: React.ReactNode;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error>();
  const titleId = 'gitlab-env-confirm-title';
  const confirm = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await onConfirm();
    } catch (e) {
      setError(e as Error);
      setBusy(false);
    }
  };
  return (
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      aria-labelledby={titleId}
      maxWidth={maxWidth}
      fullWidth
    >
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        {children}
        {error ? (
          <Box sx={{ mt: 2 }}>
            <GitlabEnvErrorPanel error={error} title={failureTitle} />
          </Box>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button
          variant="contained"
          color={confirmColor}
          onClick={confirm}
          disabled={busy || !canConfirm}
        >
          {busy ? 'Working…' : confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
