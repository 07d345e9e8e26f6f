import { LoggerService } from '@backstage/backend-plugin-api';
import {
  CiAccessCell,
  CiAccessMatrixResponse,
  evaluateCiAccess,
  GitlabAgentRef,
  GitlabEnvironment,
  NamespaceOverflow,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { failure } from '../errors';
import { isBranchName } from '../validation/gitlabPaths';
import { AgentConfigRead, AgentConfigs } from './agentConfigs';
import { EnvironmentTemplate } from './agentConfigFile';
import { CiAccessContext } from './entityContext';
import { jobVariables } from './jobVariables';

export interface DecisionDeps {
  configs: AgentConfigs;
  namespaceOverflow: NamespaceOverflow;
  logger: LoggerService;
}

/** The branch a matrix is asked for, checked: it comes from the browser. */
export function readBranch(value: unknown): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !isBranchName(value))
    throw failure(
      'INVALID_BRANCH',
      `"${String(value).slice(0, 80)}" is not a valid branch name.`,
      { hint: 'Pick a branch name such as main or feature/x.' },
    );
  return value;
}

/** One environment's deployment through one agent: which entry and rule decide, in which namespace. */
export async function decide(
  ctx: CiAccessContext,
  read: AgentConfigRead,
  agent: GitlabAgentRef,
  environment: GitlabEnvironment,
  branch: string,
  deps: DecisionDeps,
): Promise<CiAccessCell> {
  const { project } = ctx;
  const variables = jobVariables({
    project,
    defaultBranch: ctx.facts.defaultBranch,
    environment,
    branch,
    protectedBranches: ctx.facts.protectedBranches,
  });
  let template: EnvironmentTemplate | undefined;
  try {
    template = read.ref
      ? await deps.configs.template(
          ctx.instance,
          agent,
          read.ref,
          'default',
          ctx.signal,
        )
      : undefined;
  } catch (error) {
    deps.logger.debug(
      `No environment template for agent ${agent.name}: ${error}`,
    );
  }
  const decision = evaluateCiAccess(
    read.ciAccess,
    project.fullPath,
    variables,
    {
      namespaceOverflow: deps.namespaceOverflow,
      managedNamespace: template?.namespaceTemplate
        ? {
            template: template.namespaceTemplate,
            context: {
              environment: {
                name: environment.name,
                slug: environment.slug,
                tier: environment.tier,
                url: environment.externalUrl,
                id: Number(environment.id),
              },
              project: {
                id: Number(project.id),
                path: project.fullPath,
                slug: project.fullPath.replace(/\//g, '-'),
              },
              agent: { id: Number(agent.id), name: agent.name },
            },
          }
        : undefined,
    },
  );
  return {
    environment: environment.name,
    agentId: agent.id,
    decision,
    variables,
  };
}

/** Per shown environment and agent: authorized or not, by which entry and rule, in which namespace. */
export async function ciAccessMatrix(
  ctx: CiAccessContext,
  entityRef: string,
  branch: string | undefined,
  deps: DecisionDeps,
): Promise<CiAccessMatrixResponse> {
  const reads = await Promise.all(
    ctx.agents.map(a => deps.configs.read(ctx.instance, a, ctx.signal)),
  );
  const shown = ctx.environments.filter(e => e.state !== 'stopped');
  // Without a pick, every job runs on the default branch: the last
  // deployment's ref may be a tag, which has no CI_COMMIT_BRANCH.
  const ref = branch ?? ctx.facts.defaultBranch;
  const cells: CiAccessCell[] = [];
  for (const environment of shown) {
    for (const [i, agent] of ctx.agents.entries()) {
      if (reads[i].ciAccess)
        cells.push(await decide(ctx, reads[i], agent, environment, ref, deps));
    }
  }
  return {
    entityRef,
    project: { ...ctx.project, defaultBranch: ctx.facts.defaultBranch },
    branch,
    agents: reads.map(r => r.agent),
    environments: shown.map(e => ({
      name: e.name,
      slug: e.slug,
      tier: e.tier,
      state: e.state,
      namespace: e.namespace,
      agentId: e.agent?.id,
      ref,
    })),
    cells,
  };
}
