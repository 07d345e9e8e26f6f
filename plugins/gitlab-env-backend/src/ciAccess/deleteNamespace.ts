import {
  DeleteNamespaceResponse,
  GitlabAgentRef,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { failure } from '../errors';
import { KasClient } from '../transport/kasClient';
import { isRecord, statusMessage } from '../validation/json';
import { objectPath } from '../validation';

/**
 * Deletes one namespace through the agent, once (KasClient.send never
 * retries a write; a connection that drops after it was sent answers
 * WRITE_OUTCOME_UNKNOWN with the kubectl command to check).
 */
export async function deleteNamespace(
  kas: KasClient,
  agent: GitlabAgentRef,
  name: string,
): Promise<DeleteNamespaceResponse> {
  const response = await kas.send({
    method: 'DELETE',
    path: objectPath(
      { group: '', version: 'v1', plural: 'namespaces' },
      undefined,
      name,
      'The namespace to delete',
    ),
    checkWith: `kubectl get namespace ${name}`,
  });
  if (response.status < 200 || response.status >= 300) {
    const message = statusMessage(response.body);
    throw failure(
      'NAMESPACE_DELETE_FAILED',
      `Deleting namespace ${name} through agent ${
        agent.name
      } failed with HTTP ${response.status}${message ? `: ${message}` : ''}.`,
      {
        upstreamStatus: response.status,
        hint: `Check that the agent may delete namespaces, or run: kubectl delete namespace ${name}`,
      },
    );
  }
  const phase =
    isRecord(response.body) && isRecord(response.body.status)
      ? String(response.body.status.phase ?? '')
      : '';
  return {
    name,
    agentId: agent.id,
    phase: phase || 'Terminating',
    upstreamStatus: response.status,
  };
}
