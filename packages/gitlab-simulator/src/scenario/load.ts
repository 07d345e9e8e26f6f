import { existsSync, readdirSync, readFileSync, statSync } from 'fs';
import { dirname, join, resolve } from 'path';
import { parse, parseAllDocuments } from 'yaml';
import { expandCluster } from '../cluster/expand';
import { parseAge } from '../cluster/ids';
import { ResourceRegistry } from '../cluster/resources';
import { attachRepositories, toDeployments } from './deployments';
import {
  AgentConfig,
  KubeObject,
  Scenario,
  ScenarioEnvironment,
  ScenarioProject,
} from './types';

/**
 * Reads a scenario directory:
 *   scenario.yaml                          GitLab: instance, users, tokens, groups, memberships, agents, projects
 *   agents/<agent>/config.yaml             agent configuration, served from the agent's config project
 *   crds/*.yaml                            CustomResourceDefinitions installed in every cluster
 *   clusters/<agent>/<namespace>/*.yaml    manifests applied to the agent's cluster
 *   clusters/<agent>/_cluster/*.yaml       cluster-scoped manifests
 *   repositories/<project path>/**         files of the project's first commit (what Flux applies)
 *   history/<project path>.yaml            commits, tags and merge requests (scenario/history.ts)
 *
 * `base: <dir>` in scenario.yaml extends another scenario: its lists
 * (users, tokens, groups, memberships, agents, projects) gain this one's
 * entries, its agents' configurations are replaced by this one's, and its
 * clusters, repositories and histories gain this one's files.
 */

const CLUSTER_SCOPED_DIR = '_cluster';

function ago(now: Date, age: string | undefined, fallbackMs: number): string {
  return new Date(now.getTime() - (parseAge(age) ?? fallbackMs)).toISOString();
}

function yamlFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter(f => /\.ya?ml$/.test(f))
    .sort()
    .map(f => join(dir, f));
}

function readManifests(file: string): KubeObject[] {
  return parseAllDocuments(readFileSync(file, 'utf8'))
    .map(doc => {
      if (doc.errors.length > 0) {
        throw new Error(`${file}: ${doc.errors[0].message}`);
      }
      return doc.toJS() as KubeObject | null;
    })
    .filter((o): o is KubeObject => !!o && typeof o === 'object' && !!o.kind);
}

/** Every file below `dir`, by its path relative to `dir`; bounded in depth. */
function filesBelow(
  dir: string,
  prefix = '',
  depth = 0,
): Record<string, string> {
  if (!existsSync(dir) || depth > 8) return {};
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir).sort()) {
    const path = join(dir, entry);
    const relative = prefix ? `${prefix}/${entry}` : entry;
    if (statSync(path).isDirectory())
      Object.assign(files, filesBelow(path, relative, depth + 1));
    else files[relative] = readFileSync(path, 'utf8');
  }
  return files;
}

function subdirectories(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter(d => statSync(join(dir, d)).isDirectory())
    .sort();
}

function toEnvironment(raw: any, now: Date): ScenarioEnvironment {
  const deployments = toDeployments(
    raw.deployments ?? (raw.deployment ? [raw.deployment] : []),
    { name: String(raw.name) },
    now,
  );
  const createdAt = ago(now, raw.age, 90 * 86400e3);
  return {
    id: Number(raw.id),
    name: String(raw.name),
    tier: raw.tier ?? 'other',
    state: raw.state ?? 'available',
    externalUrl: raw.url,
    kubernetesNamespace: raw.namespace,
    fluxResourcePath: raw.fluxResourcePath,
    agent: raw.agent,
    autoStopAt: raw.autoStopIn
      ? new Date(now.getTime() + parseAge(raw.autoStopIn)!).toISOString()
      : undefined,
    createdAt,
    updatedAt:
      deployments[0]?.finishedAt ?? deployments[0]?.createdAt ?? createdAt,
    deployments,
    ...(raw.protected
      ? {
          protected: {
            deployAccess: (raw.protected.deployAccess ?? []).map((a: any) => ({
              ...(a.role ? { role: a.role } : {}),
              ...(a.user ? { user: String(a.user) } : {}),
            })),
          },
        }
      : {}),
  };
}

/** Assigns manifests without a namespace to their folder's namespace, unless the kind is cluster-scoped. */
function inNamespace(
  objects: KubeObject[],
  namespace: string | undefined,
  registry: ResourceRegistry,
): KubeObject[] {
  return objects.map(o => {
    const resource = registry.forObject(o);
    if (!namespace || resource?.namespaced === false || o.metadata.namespace)
      return o;
    return { ...o, metadata: { ...o.metadata, namespace } };
  });
}

const MERGED_LISTS = [
  'users',
  'tokens',
  'groups',
  'memberships',
  'agents',
  'projects',
];

/** The scenario directories from the first base to `dir`, and their scenario.yaml merged. */
function scenarioChain(dir: string, depth = 0): { roots: string[]; raw: any } {
  const root = resolve(dir);
  const raw = parse(readFileSync(join(root, 'scenario.yaml'), 'utf8')) ?? {};
  if (typeof raw.base !== 'string') return { roots: [root], raw };
  if (depth > 4) throw new Error(`${root}: scenario bases nest too deep`);
  const base = scenarioChain(resolve(root, raw.base), depth + 1);
  const merged = { ...base.raw, ...raw };
  for (const list of MERGED_LISTS)
    merged[list] = [...(base.raw[list] ?? []), ...(raw[list] ?? [])];
  return { roots: [...base.roots, root], raw: merged };
}

export function loadScenario(dir: string): Scenario {
  const { roots, raw } = scenarioChain(dir);
  const root = roots[roots.length - 1];
  const now = new Date();
  const agentConfigs = new Map<string, { text: string; config: AgentConfig }>();
  for (const at of roots)
    for (const name of subdirectories(join(at, 'agents'))) {
      const file = join(at, 'agents', name, 'config.yaml');
      if (existsSync(file)) {
        const text = readFileSync(file, 'utf8');
        agentConfigs.set(name, {
          text,
          config: (parse(text) ?? {}) as AgentConfig,
        });
      }
    }
  const agents = (raw.agents ?? []).map((a: any) => ({
    id: Number(a.id),
    name: String(a.name),
    configProject: String(a.project),
    config: agentConfigs.get(a.name)?.config ?? {},
    connected: a.connected !== false && a.neverConnected !== true,
    configReportedAt:
      a.neverConnected === true
        ? undefined
        : ago(now, a.connected === false ? a.lastConnected : undefined, 60e3),
    createdAt: ago(now, a.age, 200 * 86400e3),
    forbiddenResources: a.forbidden ?? [],
    forbiddenActions: a.forbiddenActions ?? [],
    ...(a.metricsServer === false ? { metricsServer: false } : {}),
    kubernetesVersion: a.kubernetesVersion,
  }));
  const projects: ScenarioProject[] = (raw.projects ?? []).map((p: any) => ({
    id: Number(p.id),
    fullPath: String(p.path),
    name: p.name ?? String(p.path).split('/').pop(),
    description: p.description,
    visibility: p.visibility ?? 'private',
    defaultBranch: p.defaultBranch ?? 'main',
    environments: (p.environments ?? []).map((e: any) => toEnvironment(e, now)),
    files: Object.assign(
      {},
      ...roots.map(at => filesBelow(join(at, 'repositories', String(p.path)))),
      p.files ?? {},
    ),
    protectedBranches: p.protectedBranches,
    repository: { commits: new Map(), branches: {}, tags: {} },
    mergeRequests: [],
  }));
  attachRepositories(
    projects,
    project => {
      // The scenario's own history, else its base's.
      const file = [...roots]
        .reverse()
        .map(at => join(at, 'history', `${project.fullPath}.yaml`))
        .find(existsSync);
      return file ? parse(readFileSync(file, 'utf8')) : undefined;
    },
    now,
  );
  // Agent configuration files live in the repository of the agent's config project.
  for (const agent of agents) {
    const project = projects.find(p => p.fullPath === agent.configProject);
    const config = agentConfigs.get(agent.name);
    if (project && config) {
      project.files[`.gitlab/agents/${agent.name}/config.yaml`] = config.text;
    }
  }
  const crds = roots.flatMap(at =>
    yamlFiles(join(at, 'crds')).flatMap(readManifests),
  );
  const registry = new ResourceRegistry(crds);
  const clusters = agents.map((agent: any) => {
    const manifests = [
      ...crds,
      ...roots.flatMap(at => {
        const clusterDir = join(at, 'clusters', agent.name);
        return subdirectories(clusterDir).flatMap(ns =>
          yamlFiles(join(clusterDir, ns)).flatMap(file =>
            inNamespace(
              readManifests(file),
              ns === CLUSTER_SCOPED_DIR ? undefined : ns,
              registry,
            ),
          ),
        );
      }),
    ];
    const kubernetesVersion =
      agent.kubernetesVersion ?? raw.kubernetesVersion ?? 'v1.31.4';
    return {
      agent: agent.name,
      kubernetesVersion,
      objects: expandCluster(manifests, {
        cluster: agent.name,
        now,
        kubernetesVersion,
      }),
    };
  });
  return {
    name: raw.name ?? root.split(/[\\/]/).pop(),
    instance: {
      host: raw.instance?.host ?? 'gitlab.example.com',
      version: raw.instance?.version ?? '17.11.1-ee',
      revision: raw.instance?.revision ?? '4e6f1a2b3c4',
      kasVersion: raw.instance?.kasVersion ?? '17.11.1',
    },
    users: raw.users ?? [],
    tokens: (raw.tokens ?? []).map((t: any) => ({
      ...t,
      expiresAt: t.expiresAt === undefined ? undefined : String(t.expiresAt),
    })),
    groups: (raw.groups ?? []).map((g: any) => ({
      id: Number(g.id),
      fullPath: String(g.path),
      name: g.name ?? String(g.path).split('/').pop(),
      visibility: g.visibility ?? 'private',
    })),
    memberships: (raw.memberships ?? []).map((m: any) => ({
      username: m.user,
      path: m.path,
      role: m.role,
    })),
    projects,
    agents: agents.map(({ kubernetesVersion: _v, ...a }: any) => a),
    clusters,
  };
}

/** The directory of the scenario the demo portal uses. */
// Resolved from this package's location, so it works from any working directory.
export const DEFAULT_SCENARIO_DIR = resolve(
  dirname(require.resolve('@gitlab-env/gitlab-simulator/package.json')),
  '../../examples/scenarios/default',
);

export function loadDefaultScenario(): Scenario {
  return loadScenario(DEFAULT_SCENARIO_DIR);
}

/** The hostile scenario: the default world plus a project that reaches for what is not its own (#23). */
export const HOSTILE_SCENARIO_DIR = resolve(DEFAULT_SCENARIO_DIR, '../hostile');

export function loadHostileScenario(): Scenario {
  return loadScenario(HOSTILE_SCENARIO_DIR);
}
