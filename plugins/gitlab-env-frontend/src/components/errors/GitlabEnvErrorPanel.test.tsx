// The classic JSX transform of this repository's tsconfig needs React in scope.
// eslint-disable-next-line no-restricted-syntax
import * as React from 'react';
import { fireEvent, screen } from '@testing-library/react';
import { renderInTestApp } from '@backstage/test-utils';
import { ResponseError } from '@backstage/errors';
import { GitlabEnvApiError } from '../../api';
import { GitlabEnvErrorPanel } from './GitlabEnvErrorPanel';

describe('GitlabEnvErrorPanel', () => {
  it('offers Retry under a failure the backend did not describe (the network, a proxy page)', async () => {
    const onRetry = jest.fn();
    await renderInTestApp(
      <GitlabEnvErrorPanel
        error={new TypeError('Failed to fetch')}
        title="Could not load the timeline"
        onRetry={onRetry}
      />,
    );
    expect(screen.getByText(/Could not load the timeline/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('offers no Retry where the caller has none to give', async () => {
    await renderInTestApp(
      <GitlabEnvErrorPanel error={new TypeError('Failed to fetch')} />,
    );
    expect(screen.getByText(/Could not load environments/)).toBeInTheDocument();
    expect(
      screen.queryByRole('button', { name: 'Retry' }),
    ).not.toBeInTheDocument();
  });

  it("shows the backend's typed failure with its advice and Retry", async () => {
    const onRetry = jest.fn();
    const response = new Response('{}', {
      status: 504,
      statusText: 'Gateway Timeout',
    });
    const error = new GitlabEnvApiError(
      await ResponseError.fromResponse(response),
      {
        code: 'UPSTREAM_TIMEOUT',
        message: 'KAS did not answer within 20000 ms.',
        hint: 'Try again later.',
      },
    );
    await renderInTestApp(
      <GitlabEnvErrorPanel error={error} onRetry={onRetry} />,
    );
    expect(
      screen.getByText('KAS did not answer within 20000 ms.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Try again later.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });
});
