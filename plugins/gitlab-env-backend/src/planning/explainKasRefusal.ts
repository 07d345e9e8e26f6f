import { GitlabAgentRef } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { GitlabInstanceConfig } from '../config';
import { failure, GitlabEnvFailure } from '../errors';
import { tokenFailure } from '../transport/InstanceProbe';
import { GitlabEnvTransport } from '../transport/SharedTransport';

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
  if (activity && activity.connections === 0 && !activity.tokenLastUsedAt) {
    throw failure(
      'AGENT_NEVER_CONNECTED',
      `The agent ${agent.name} has never connected to GitLab: no agentk has used its token, so GitLab holds none of its user_access authorizations yet.`,
      {
        hint: `Install agentk in the cluster with the agent's token (see the agent's page in GitLab${
          agent.webUrl ? `: ${agent.webUrl}` : ''
        }); user_access takes effect once it has connected.`,
      },
    );
  }
  throw error;
}
