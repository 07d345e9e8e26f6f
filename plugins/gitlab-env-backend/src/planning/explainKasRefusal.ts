import { GitlabAgentRef } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { GitlabInstanceConfig } from '../config';
import { GitlabEnvFailure } from '../errors';
import { tokenFailure } from '../transport/InstanceProbe';
import { GitlabEnvTransport } from '../transport/SharedTransport';
import {
  connectionRefusal,
  connectionStateOf,
} from '../locating/agentConnection';

/**
 * KAS answers one 401 for many causes. Before calling it "not shared", rule
 * out what the instance check and GitLab's view of the agent can tell:
 * the token (expired, revoked, no k8s_proxy: agent_helpers.rb
 * validate_and_save_access_token!) and an agent that never connected, for
 * which GitLab holds no authorization yet (refresh_service.rb). Shared by
 * the environment reads and the stale-namespace listing, so an agent's
 * state reads the same on every page.
 */
export async function explainKasRefusal(
  transport: GitlabEnvTransport,
  instance: GitlabInstanceConfig,
  where: { projectFullPath: string; environmentName: string },
  agent: GitlabAgentRef,
  error: unknown,
): Promise<never> {
  if (
    !(error instanceof GitlabEnvFailure) ||
    error.detail.code !== 'AGENT_NOT_SHARED'
  ) {
    throw error;
  }
  const probe = transport.probe(instance);
  probe.invalidate();
  const facts = await probe.facts().catch(() => undefined);
  const tokenProblem = facts && tokenFailure(instance.host, facts);
  if (tokenProblem) throw tokenProblem;
  const activity = await transport
    .gitlab(instance, { version: facts?.version })
    .agentActivity(where.projectFullPath, where.environmentName)
    .catch(() => undefined);
  // Only when GitLab shows the agent's tokens: an empty list may just be
  // hidden from the token's user.
  const state = connectionStateOf(activity, Date.now());
  if (state.state === 'neverConnected')
    throw connectionRefusal(state, agent, Date.now());
  throw error;
}
