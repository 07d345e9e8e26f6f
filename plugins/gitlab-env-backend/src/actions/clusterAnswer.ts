import { GitlabAgentRef } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { failure, GitlabEnvFailure } from '../errors';
import { UpstreamResponse } from '../transport/http';
import { isRecord, statusMessage } from '../validation/json';

/**
 * What the API server's refusal of an action means, as a typed failure
 * with what to do. `what` names the request, e.g. `scale apps/Deployment
 * prod/web`. KAS-level failures were already thrown by KasClient.send.
 */
export function refusalOf(
  response: UpstreamResponse,
  what: string,
  agent: GitlabAgentRef,
): GitlabEnvFailure {
  const { status } = response;
  const said = statusMessage(response.body);
  const because = said ? `: ${said}` : '.';
  const extra = { upstreamStatus: status };
  if (status === 403)
    return failure(
      'ACTION_FORBIDDEN',
      `The cluster refused to ${what}${because}`,
      {
        ...extra,
        hint: `The agent ${agent.name} acts with its service account's RBAC (or, with access_as: user, the impersonated user's): grant it the verb in the message, or run the kubectl command with credentials that have it.`,
      },
    );
  if (status === 404)
    return failure(
      'OBJECT_NOT_FOUND',
      `Could not ${what}: the cluster has no such object${because}`,
      { ...extra, hint: 'It was deleted or replaced; refresh the page.' },
    );
  if (status === 409)
    return failure('OBJECT_CONFLICT', `Could not ${what}${because}`, {
      ...extra,
      hint: 'The object changed at the same time; refresh the page and try again.',
    });
  if (status === 400 || status === 422)
    return failure(
      'ACTION_INVALID',
      `The cluster rejected the request to ${what} as invalid${because}`,
      {
        ...extra,
        hint: 'Check the value given; the message says what the API server expects.',
      },
    );
  if (status === 429 || status >= 500)
    return failure(
      'UPSTREAM_ERROR',
      `The cluster failed to ${what} (HTTP ${status})${because}`,
      {
        ...extra,
        hint: 'The change was not retried (it may or may not have been applied): refresh the page before trying again.',
      },
    );
  return failure(
    'UPSTREAM_ERROR',
    `The cluster answered the request to ${what} with HTTP ${status}${because}`,
    extra,
  );
}

/** The response's body when the API server accepted the request; the typed refusal otherwise. */
export function acceptedBody(
  response: UpstreamResponse,
  what: string,
  agent: GitlabAgentRef,
): Record<string, unknown> {
  if (response.status < 200 || response.status >= 300)
    throw refusalOf(response, what, agent);
  if (!isRecord(response.body))
    throw failure(
      'UPSTREAM_MALFORMED',
      `The cluster accepted the request to ${what} but answered ${
        response.malformed ?? 'a body that is not a JSON object'
      }.`,
      { upstreamStatus: response.status },
    );
  return response.body;
}
