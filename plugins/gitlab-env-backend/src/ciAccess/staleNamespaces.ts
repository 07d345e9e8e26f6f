import {
  CiAccessConfig,
  CiAccessEntry,
  GitlabAgentRef,
  GitlabEnvironment,
  isPlatformNamespace,
  KubernetesObject,
  parseManagedResourceLabel,
  StaleNamespace,
  StaleReason,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { NamespaceClaims } from '../locating/ownership';
import { KasClient } from '../transport/kasClient';
import { isDns1123Label } from '../validation';
import { isRecord } from '../validation/json';
import { isBranchName } from '../validation/gitlabPaths';
import { AgentConfigRead } from './agentConfigs';
import { decide, DecisionDeps } from './decisions';
import { CiAccessContext } from './entityContext';
import { namespaceCreator, readNamespaceContents } from './namespaceContents';

/** Namespaces are listed once per agent, with at most this many items. */
const NAMESPACE_LIST_LIMIT = 2000;
const TEMPLATE_ANNOTATION_PREFIX = 'agent.gitlab.com/env-';
/** Never offered for deletion besides the platform's namespaces. */
const KEPT_NAMESPACES = ['default', 'cert-manager'];

function allEntries(config: CiAccessConfig | undefined): CiAccessEntry[] {
  if (!config) return [];
  return [
    ...(config.projects ?? []),
    ...(config.groups ?? []),
    ...(config.instance ? [config.instance] : []),
  ];
}

export interface StaleDeps extends DecisionDeps {
  platformNamespaces: string[];
  /** Other projects' claims: a namespace one of them uses is never stale. */
  claims?: NamespaceClaims;
}

/** The names each environment's deployments use with this agent (rule, managed resources, environment setting). */
async function producedNames(
  ctx: CiAccessContext,
  read: AgentConfigRead,
  agent: GitlabAgentRef,
  environment: GitlabEnvironment,
  deps: DecisionDeps,
): Promise<Array<{ name: string; producedBy: StaleReason['producedBy'] }>> {
  const names: Array<{ name: string; producedBy: StaleReason['producedBy'] }> =
    [];
  if (environment.agent?.id === agent.id && environment.namespace) {
    names.push({
      name: environment.namespace,
      producedBy: 'environment_namespace',
    });
  }
  if (read.ciAccess) {
    const ref = isBranchName(environment.lastDeployment?.ref)
      ? environment.lastDeployment!.ref!
      : ctx.facts.defaultBranch;
    const { decision } = await decide(ctx, read, agent, environment, ref, deps);
    if (decision.namespace) {
      names.push({
        name: decision.namespace.final,
        producedBy:
          decision.namespace.source === 'managed_resources'
            ? 'managed_resources'
            : 'rule',
      });
    }
  }
  return names;
}

/** `delete_resources` of the template named in GitLab's annotation on a managed namespace. */
async function templateOf(
  ctx: CiAccessContext,
  agent: GitlabAgentRef,
  ref: string,
  namespace: KubernetesObject,
  deps: DecisionDeps,
) {
  const annotations = namespace.metadata?.annotations ?? {};
  const key = Object.keys(annotations).find(k =>
    k.startsWith(TEMPLATE_ANNOTATION_PREFIX),
  );
  let templateName = 'default';
  try {
    const parsed = key ? JSON.parse(annotations[key]) : undefined;
    if (isRecord(parsed) && typeof parsed.template_name === 'string')
      templateName = parsed.template_name;
  } catch {
    // An unreadable annotation: fall back to the default template, as GitLab does without a name.
  }
  try {
    return (
      await deps.configs.template(
        ctx.instance,
        agent,
        ref,
        templateName,
        ctx.signal,
      )
    )?.deleteResources;
  } catch {
    return undefined;
  }
}

/** What staleness is decided without: the namespace's contents, not counted. */
const NOT_COUNTED: StaleNamespace['contents'] = {
  counts: {},
  total: 0,
  runningPods: 0,
  runningWorkloads: 0,
  uncounted: [],
};

/**
 * The namespaces the entity's stopped or deleted environments left in one
 * agent's cluster: produced by a stopped environment (its setting, its
 * rule, GitLab-managed resources) or labelled by GitLab for one, and used
 * by no running environment of the project nor of another project the
 * portal knows, nor by the platform. With `contents`, what each still
 * holds (ten lists per namespace): the delete route decides without them.
 */
export async function staleForAgent(
  ctx: CiAccessContext,
  entityRef: string,
  agent: GitlabAgentRef,
  kas: KasClient,
  deps: StaleDeps,
  { contents = true }: { contents?: boolean } = {},
): Promise<StaleNamespace[]> {
  const read = await deps.configs.read(ctx.instance, agent, ctx.signal);
  const list = await kas.get(
    `/api/v1/namespaces?limit=${NAMESPACE_LIST_LIMIT}`,
    'namespaces',
  );
  const namespaces = (
    isRecord(list) && Array.isArray(list.items) ? list.items : []
  ) as KubernetesObject[];
  const byName = new Map(
    namespaces.filter(n => n.metadata?.name).map(n => [n.metadata!.name!, n]),
  );

  const inUse = new Set<string>();
  const candidates = new Map<string, StaleReason[]>();
  const add = (name: string, reason: StaleReason) => {
    if (!isDns1123Label(name)) return;
    candidates.set(name, [...(candidates.get(name) ?? []), reason]);
  };
  // Every environment of the project, also those the entity's annotations
  // filter out: an environment hidden from the tab still uses its namespace.
  const all = ctx.allEnvironments;
  for (const environment of all.filter(e => e.agent?.id === agent.id)) {
    for (const { name, producedBy } of await producedNames(
      ctx,
      read,
      agent,
      environment,
      deps,
    )) {
      if (environment.state === 'stopped')
        add(name, {
          producedBy,
          environment: environment.name,
          environmentState: 'stopped',
        });
      else inUse.add(name);
    }
  }
  // Namespaces GitLab labelled for an environment of this project and agent.
  const bySlug = new Map(all.map(e => [e.slug, e]));
  for (const [name, namespace] of byName) {
    for (const label of Object.keys(namespace.metadata?.labels ?? {})) {
      const parsed = parseManagedResourceLabel(label);
      if (
        !parsed ||
        String(parsed.projectId) !== ctx.project.id ||
        String(parsed.agentId) !== agent.id
      )
        continue;
      const environment = bySlug.get(parsed.environmentSlug);
      if (environment && environment.state !== 'stopped') inUse.add(name);
      else
        add(name, {
          producedBy: 'label',
          environment: environment?.name ?? parsed.environmentSlug,
          environmentState: environment ? 'stopped' : 'deleted',
        });
    }
  }
  // Never offered for deletion: the default_namespace of any entry, which
  // other projects may share.
  for (const entry of allEntries(read.ciAccess))
    if (typeof entry.default_namespace === 'string')
      inUse.add(entry.default_namespace);
  const usedByOthers = (name: string) =>
    (
      deps.claims?.projectsClaiming(ctx.located.host, agent.id, name) ?? []
    ).some(p => p.toLowerCase() !== ctx.project.fullPath.toLowerCase());
  const stale: StaleNamespace[] = [];
  for (const [name, reasons] of candidates) {
    const namespace = byName.get(name);
    if (
      !namespace ||
      inUse.has(name) ||
      KEPT_NAMESPACES.includes(name) ||
      isPlatformNamespace(deps, name) ||
      usedByOthers(name) ||
      namespace.metadata?.deletionTimestamp
    )
      continue;
    const creator = namespaceCreator(namespace);
    const deleteResources =
      creator === 'gitlab_managed_resources' && read.ref
        ? await templateOf(ctx, agent, read.ref, namespace, deps)
        : undefined;
    stale.push({
      name,
      agent: { id: agent.id, name: agent.name },
      entityRef,
      projectPath: ctx.project.fullPath,
      reasons,
      createdAt: namespace.metadata?.creationTimestamp,
      creator,
      gitlabDeletes: deleteResources === 'on_stop',
      deleteResources,
      contents: contents ? await readNamespaceContents(kas, name) : NOT_COUNTED,
      kubectl: `kubectl delete namespace ${name}`,
    });
  }
  return stale;
}
