import {
  GitlabAgentRef,
  GitlabEnvironment,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { SharedReadCache } from '../caching/sharedCache';
import { GitlabEnvConfig, GitlabInstanceConfig } from '../config';
import { instanceOf, LocatedEntity } from '../locating';
import { GitlabEnvTransport } from '../transport';
import { ProjectFacts, readProjectFacts } from './projectFacts';

/** What CI access decides from: the located entity and its project's branches. */
export interface CiAccessContext {
  instance: GitlabInstanceConfig;
  located: LocatedEntity;
  project: { id: string; fullPath: string };
  facts: ProjectFacts;
  /** The environments the entity shows. */
  environments: GitlabEnvironment[];
  /** Every environment of the project: hidden ones still use their namespaces. */
  allEnvironments: GitlabEnvironment[];
  /** The agents of the shown environments, by name. */
  agents: GitlabAgentRef[];
  /** The call's signal (its deadline included): every read for it carries it. */
  signal?: AbortSignal;
}

function uniqueAgents(environments: GitlabEnvironment[]): GitlabAgentRef[] {
  const byId = new Map<string, GitlabAgentRef>();
  for (const e of environments) if (e.agent) byId.set(e.agent.id, e.agent);
  return [...byId.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** The CI access context of an entity the one locator located. */
export async function ciAccessContext(
  located: LocatedEntity,
  deps: {
    config: GitlabEnvConfig;
    transport: GitlabEnvTransport;
    cache: SharedReadCache;
  },
  signal?: AbortSignal,
): Promise<CiAccessContext> {
  const instance = instanceOf(deps.config, located.host);
  const { id, fullPath } = located.project;
  const facts = await readProjectFacts(
    deps.transport,
    deps.cache,
    instance,
    fullPath,
    signal,
  );
  return {
    instance,
    located,
    project: { id, fullPath },
    facts,
    environments: located.environments,
    allEnvironments: located.allEnvironments ?? located.environments,
    agents: uniqueAgents(located.environments),
    signal,
  };
}
