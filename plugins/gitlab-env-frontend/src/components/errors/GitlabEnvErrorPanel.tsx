import * as React from 'react';
import { ErrorPanel } from '@backstage/core-components';
import { GitlabEnvError } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { gitlabEnvErrorDetail } from '../../api';
import { MessageText } from '../text/MessageText';
import { ERROR_CATALOG } from './errorCatalog';

/**
 * The panel for one failure: what happened and what to do about it, in the
 * words of the backend's hint when it sent one. Errors without a code
 * (network down, a proxy's HTML page) fall back to Backstage's ErrorPanel,
 * with Retry under it: those are the failures another try most often mends.
 */
export function GitlabEnvErrorPanel({
  error,
  onRetry,
  title = 'Could not load environments',
}: {
  error: Error;
  onRetry?: () => void;
  /** What failed, for errors the backend did not describe. */
  title?: string;
}) {
  const detail = gitlabEnvErrorDetail(error);
  if (!detail) {
    return (
      <Box>
        <ErrorPanel error={error} title={title} />
        {onRetry ? (
          <Box mt={1}>
            <Button variant="outlined" size="small" onClick={onRetry}>
              Retry
            </Button>
          </Box>
        ) : null}
      </Box>
    );
  }
  return <GitlabEnvErrorAlert error={detail} onRetry={onRetry} />;
}

export function GitlabEnvErrorAlert({
  error,
  onRetry,
}: {
  error: GitlabEnvError;
  onRetry?: () => void;
}) {
  const entry = ERROR_CATALOG[error.code];
  const advice = adviceBesides(error.message, error.hint ?? entry.advice);
  return (
    <Alert
      severity={entry.severity}
      variant="outlined"
      data-error-code={error.code}
      action={
        onRetry && entry.severity !== 'info' ? (
          <Button color="inherit" size="small" onClick={onRetry}>
            Retry
          </Button>
        ) : undefined
      }
    >
      <AlertTitle>{entry.title}</AlertTitle>
      <Typography variant="body2">
        <MessageText text={error.message} />
      </Typography>
      {advice ? (
        <Box mt={1}>
          <Typography variant="body2">
            <strong>What to do: </strong>
            <MessageText text={advice} />
          </Typography>
        </Box>
      ) : null}
    </Alert>
  );
}

/**
 * Failures that did not stop the rest from loading, above the data: warnings,
 * then, as information, the refusals the agent's RBAC makes on purpose.
 */
export function PartialErrors({ errors }: { errors: GitlabEnvError[] }) {
  const warnings = errors.filter(error => !error.expected);
  const expected = errors.filter(error => error.expected);
  return (
    <>
      {warnings.length > 0 && (
        <Alert severity="warning" variant="outlined" role="alert">
          <AlertTitle>
            Some resources could not be read ({warnings.length}); what did load
            is shown below
          </AlertTitle>
          <ErrorList errors={warnings} />
        </Alert>
      )}
      {expected.length > 0 && (
        <Alert
          severity="info"
          variant="outlined"
          role="status"
          data-expected-refusals
        >
          <AlertTitle>
            Not shown by design: {expected.map(e => e.resource).join(', ')}
          </AlertTitle>
          <Typography variant="body2">
            The agent&apos;s RBAC refuses to list{' '}
            {expected.length === 1 ? 'this kind' : 'these kinds'} on purpose
            (gitlabEnv.expectedForbiddenKinds); nothing else is affected.
          </Typography>
        </Alert>
      )}
    </>
  );
}

/**
 * One line per failure; a hint several failures share is said once, after
 * them, rather than repeated on every line.
 */
function ErrorList({ errors }: { errors: GitlabEnvError[] }) {
  const hintCounts = new Map<string, number>();
  for (const error of errors)
    if (error.hint)
      hintCounts.set(error.hint, (hintCounts.get(error.hint) ?? 0) + 1);
  const shared = [...hintCounts].filter(([, n]) => n > 1).map(([h]) => h);
  return (
    <>
      <Box component="ul" sx={{ m: 0, pl: 2 }}>
        {errors.map((error, index) => {
          const hint =
            error.hint && !shared.includes(error.hint)
              ? adviceBesides(error.message, error.hint)
              : undefined;
          return (
            <li key={`${error.code}-${error.resource ?? index}`}>
              <Typography variant="body2">
                {error.resource ? <strong>{error.resource}: </strong> : null}
                <MessageText text={error.message} />
                {hint ? (
                  <>
                    {' — '}
                    <MessageText text={hint} />
                  </>
                ) : null}
              </Typography>
            </li>
          );
        })}
      </Box>
      {shared.map(hint => (
        <Typography key={hint} variant="body2" sx={{ mt: 1 }}>
          <strong>What to do: </strong>
          <MessageText text={hint} />
        </Typography>
      ))}
    </>
  );
}

/**
 * The advice to show under a message, unless the message already gives it
 * word for word (a backend that put its hint in the message too).
 */
export function adviceBesides(
  message: string,
  advice: string | undefined,
): string | undefined {
  if (!advice) return undefined;
  const words = (text: string) =>
    text
      .toLocaleLowerCase('en-US')
      .replace(/[`.\s]+/g, ' ')
      .trim();
  return words(message).includes(words(advice)) ? undefined : advice;
}
