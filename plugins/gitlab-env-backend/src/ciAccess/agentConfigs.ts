import {
  CiAccessAgent,
  CiAccessConfig,
  GitlabAgentRef,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { SharedReadCache } from '../caching/sharedCache';
import { GitlabInstanceConfig } from '../config';
import { asGitlabEnvError, failure } from '../errors';
import { GitlabEnvTransport } from '../transport';
import { isDns1123Label } from '../validation';
import {
  agentConfigPath,
  environmentTemplatePath,
  isProjectPath,
  isTemplateName,
} from '../validation/gitlabPaths';
import {
  BUILT_IN_DEFAULT_TEMPLATE,
  EnvironmentTemplate,
  parseAgentConfigFile,
  parseEnvironmentTemplate,
} from './agentConfigFile';

/** An agent's configuration as read: its `ci_access` and the ref read, or the error. */
export interface AgentConfigRead {
  agent: CiAccessAgent;
  ciAccess?: CiAccessConfig;
  ref?: string;
}

/**
 * Agents' configuration files and environment templates, read from their
 * configuration projects' default branch through the shared transport's
 * REST client and cached in the plugin's read cache.
 */
export class AgentConfigs {
  constructor(
    private readonly transport: GitlabEnvTransport,
    private readonly cache: SharedReadCache,
  ) {}

  /**
   * The agent's configuration file at its project's default branch, parsed
   * and checked. The caller stops waiting when `signal` ends; the shared
   * read stops once every caller left.
   */
  read(
    instance: GitlabInstanceConfig,
    agent: GitlabAgentRef,
    signal?: AbortSignal,
  ): Promise<AgentConfigRead> {
    const key = `ci-config|${instance.host}|${agent.configProject}|${agent.name}`;
    return this.cache.getOrLoad(
      key,
      async loadSignal => {
        const base: CiAccessAgent = {
          id: agent.id,
          name: agent.name,
          configProject: agent.configProject,
        };
        try {
          if (!isDns1123Label(agent.name)) {
            throw failure(
              'UPSTREAM_MALFORMED',
              `GitLab named an agent ${JSON.stringify(
                agent.name,
              )}, which is no agent name.`,
            );
          }
          if (!agent.configProject || !isProjectPath(agent.configProject)) {
            throw failure(
              'AGENT_CONFIG_UNREADABLE',
              `The configuration project of agent ${agent.name} is not visible to the configured token.`,
              {
                hint: "Give the token's user the Reporter role on the agent's configuration project.",
              },
            );
          }
          const rest = this.transport.rest(instance, loadSignal);
          const project = await rest.project(agent.configProject);
          if (!project) {
            throw failure(
              'AGENT_CONFIG_UNREADABLE',
              `The configured token cannot read ${agent.configProject}, the configuration project of agent ${agent.name}.`,
              {
                hint: `Give the token's user the Reporter role on ${agent.configProject}.`,
              },
            );
          }
          const filePath = agentConfigPath(agent.name);
          const file = `${agent.configProject}: ${filePath}@${project.defaultBranch}`;
          const text = await rest.file(
            agent.configProject,
            filePath,
            project.defaultBranch,
          );
          if (text === undefined) {
            throw failure('AGENT_CONFIG_MISSING', `${file} does not exist.`, {
              file,
              hint: `Add ${filePath} to ${agent.configProject} on its default branch (${project.defaultBranch}).`,
            });
          }
          const ciAccess = parseAgentConfigFile(text, file);
          return {
            agent: { ...base, configFile: file, ciAccess },
            ciAccess,
            ref: project.defaultBranch,
          };
        } catch (error) {
          return { agent: { ...base, error: asGitlabEnvError(error) } };
        }
      },
      { signal },
    );
  }

  /** An environment template; GitLab's built-in one when `default.yaml` is absent. */
  async template(
    instance: GitlabInstanceConfig,
    agent: GitlabAgentRef,
    ref: string,
    name: string,
    signal?: AbortSignal,
  ): Promise<EnvironmentTemplate | undefined> {
    const key = `ci-template|${instance.host}|${agent.configProject}|${agent.name}|${ref}|${name}`;
    const template = await this.cache.getOrLoad(
      key,
      async loadSignal => {
        if (!isTemplateName(name) || !agent.configProject) return null;
        const filePath = environmentTemplatePath(agent.name, name);
        const text = await this.transport
          .rest(instance, loadSignal)
          .file(agent.configProject, filePath, ref);
        if (text === undefined)
          return name === 'default' ? BUILT_IN_DEFAULT_TEMPLATE : null;
        return parseEnvironmentTemplate(
          text,
          `${agent.configProject}: ${filePath}@${ref}`,
        );
      },
      { signal },
    );
    return template ?? undefined;
  }
}
