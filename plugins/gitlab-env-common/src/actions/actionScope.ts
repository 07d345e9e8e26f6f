import { fluxInventoryKeys, isFluxApplier, isFluxObject } from '../k8s/flux';
import { isRecord, NO_FIELDS } from '../k8s/objects';
import { groupOfApiVersion } from '../k8s/resourceId';
import {
  EnvironmentActionScope,
  KubernetesObject,
  ResourceKey,
} from '../types';

/** What agentk's Helm chart and manifests label it with, and its image. */
const AGENT_NAME_LABEL = 'app.kubernetes.io/name';
const AGENT_NAME = 'gitlab-agent';
const AGENT_IMAGE = /\/gitlab-agent\/agentk(?::|@|$)/;
const APP_ANNOTATION = 'app.gitlab.com/app';
const MANAGED_LABEL_PREFIX = 'agent.gitlab.com/env-';
const MANAGED_LABEL = /^agent\.gitlab\.com\/env-.+-(\d+)-(\d+)$/;
const FLUX_OWNER_LABELS: ReadonlyArray<[string, string, string]> = [
  [
    'kustomize.toolkit.fluxcd.io',
    'kustomize.toolkit.fluxcd.io',
    'Kustomization',
  ],
  ['helm.toolkit.fluxcd.io', 'helm.toolkit.fluxcd.io', 'HelmRelease'],
  [
    'resourceset.fluxcd.controlplane.io',
    'fluxcd.controlplane.io',
    'ResourceSet',
  ],
];
/** Each Flux applier's name and namespace label keys, written once. */
const FLUX_OWNER_LABEL_KEYS = FLUX_OWNER_LABELS.map(
  ([prefix, group, kind]) =>
    [`${prefix}/name`, `${prefix}/namespace`, group, kind] as const,
);

const STAR = 42; // '*'

/** Whether a and b agree on their first `length` characters. */
function samePrefix(a: string, b: string, length: number): boolean {
  for (let i = 0; i < length; i++)
    if (a.charCodeAt(i) !== b.charCodeAt(i)) return false;
  return true;
}

/** Whether the namespace is one of the platform's: a name, or a prefix ending in `*`. @public */
export function isPlatformNamespace(
  scope: Pick<EnvironmentActionScope, 'platformNamespaces'>,
  namespace: string,
): boolean {
  // Asked of every object a graph holds: compared in place, no prefix
  // string cut from the pattern each time.
  for (const pattern of scope.platformNamespaces) {
    const prefix = pattern.length - 1;
    if (pattern.charCodeAt(prefix) !== STAR) {
      if (namespace === pattern) return true;
    } else if (
      namespace.length >= prefix &&
      samePrefix(namespace, pattern, prefix)
    )
      return true;
  }
  return false;
}

function describe(key: ResourceKey): string {
  return `${key.kind} ${key.namespace ? `${key.namespace}/` : ''}${key.name}`;
}

function sameKey(a: ResourceKey, b: ResourceKey): boolean {
  return (
    a.group === b.group &&
    a.kind === b.kind &&
    a.namespace === b.namespace &&
    a.name === b.name
  );
}

/**
 * The HelmChart helm-controller makes for a HelmRelease alone, named
 * `<release namespace>-<release name>` in the release's namespace (Flux
 * helm-controller docs, "HelmChart template"): part of the root.
 */
function isRootsOwnChart(root: ResourceKey, key: ResourceKey): boolean {
  return (
    root.kind === 'HelmRelease' &&
    key.group === 'source.toolkit.fluxcd.io' &&
    key.kind === 'HelmChart' &&
    key.namespace === root.namespace &&
    key.name === `${root.namespace}-${root.name}`
  );
}

/** agentk itself: its Deployment (or what it owns) by the chart's label or its image. @public */
export function isAgentObject(object: KubernetesObject | undefined): boolean {
  if (!object) return false;
  if (object.metadata?.labels?.[AGENT_NAME_LABEL] === AGENT_NAME) return true;
  const spec = object.spec;
  if (!isRecord(spec)) return false;
  const podSpec = isRecord(spec.template?.spec) ? spec.template.spec : spec;
  const containers = podSpec.containers;
  if (!Array.isArray(containers)) return false;
  for (let i = 0; i < containers.length; i++) {
    const c = containers[i];
    if (isRecord(c) && typeof c.image === 'string' && AGENT_IMAGE.test(c.image))
      return true;
  }
  return false;
}

/**
 * The namespace a Flux applier deploys to: `spec.targetNamespace`; else,
 * for a HelmRelease, its own namespace (helm-controller's default); else
 * the namespace most of its inventory's namespaced entries live in.
 *
 * @public
 */
export function fluxAppliesInto(flux: KubernetesObject): string | undefined {
  const target = flux.spec?.targetNamespace;
  if (typeof target === 'string' && target) return target;
  if (flux.kind === 'HelmRelease') return flux.metadata?.namespace;
  const counts = new Map<string, number>();
  for (const key of fluxInventoryKeys(flux))
    if (key.namespace)
      counts.set(key.namespace, (counts.get(key.namespace) ?? 0) + 1);
  let best: string | undefined;
  for (const [namespace, count] of [...counts].sort(([a], [b]) =>
    a.localeCompare(b),
  ))
    if (best === undefined || count > counts.get(best)!) best = namespace;
  return best;
}

/** Why an object in the owned namespace is someone else's: another project's or Flux applier's marks. */
function foreignMarks(
  scope: EnvironmentActionScope,
  object: KubernetesObject,
): string | undefined {
  const app = object.metadata?.annotations?.[APP_ANNOTATION];
  if (
    scope.projectPathSlug &&
    typeof app === 'string' &&
    app !== scope.projectPathSlug
  )
    return `carries the GitLab deploy-board marker of another project (${APP_ANNOTATION}: ${app.slice(
      0,
      63,
    )})`;
  const labels = object.metadata?.labels ?? NO_FIELDS;
  if (scope.projectId)
    // Asked of every label of every object: most fail the prefix at once,
    // and walking the keys in place spares a list of them per object.
    for (const label in labels) {
      if (
        !label.startsWith(MANAGED_LABEL_PREFIX) ||
        !Object.prototype.hasOwnProperty.call(labels, label)
      )
        continue;
      const managed = MANAGED_LABEL.exec(label);
      if (managed && managed[1] !== scope.projectId)
        return `carries the GitLab-managed resources label of project ${managed[1]}`;
    }
  const root = scope.root;
  if (!root) return undefined;
  for (const [
    nameLabel,
    namespaceLabel,
    group,
    kind,
  ] of FLUX_OWNER_LABEL_KEYS) {
    const name = labels[nameLabel];
    if (typeof name !== 'string') continue;
    const namespace = labels[namespaceLabel] ?? '';
    if (
      group === root.group &&
      kind === root.kind &&
      name === root.name &&
      namespace === root.namespace
    )
      return undefined;
    return `is applied by ${kind} ${
      namespace ? `${namespace}/` : ''
    }${name}, not by this environment's ${describe(root)}`;
  }
  return undefined;
}

/**
 * Why the environment never acts on this object, or undefined when it
 * may (permissions and the cluster's RBAC still decide). The one rule of
 * what an environment owns, the backend README's "Ownership":
 * - the Flux object its settings name (its root), when that applies into
 *   the namespace the environment owns, and a HelmRelease root's own
 *   HelmChart;
 * - the objects of that namespace, unless they carry another project's
 *   GitLab markers or another Flux applier's labels;
 * - never: cluster-scoped objects, the agent's own objects and the
 *   namespaces it and the cluster's platform run in, objects of other
 *   namespaces (what the root depends on, sources in shared namespaces,
 *   inventory entries elsewhere).
 * The entity's own refusal (`entityRefusal`) is not the object's: see
 * the backend's ownership check.
 *
 * @public
 */
export function readOnlyReason(
  scope: EnvironmentActionScope,
  key: ResourceKey,
  object?: KubernetesObject,
): string | undefined {
  // Asked of every object the engine holds, and most are the
  // environment's: the description is built only for a reason.
  if (isAgentObject(object))
    return `${describe(
      key,
    )} is the agent's own (agentk): the portal never acts on it.`;
  if (!key.namespace)
    return `${describe(
      key,
    )} is cluster-scoped: the portal acts only on objects in the namespace the environment owns.`;
  if (scope.root && sameKey(scope.root, key)) {
    if (!scope.namespace)
      return (
        scope.namespaceRefusal?.message ??
        `${describe(
          key,
        )} is this environment's Flux object, but the environment owns no namespace.`
      );
    const into = object ? fluxAppliesInto(object) : undefined;
    if (object && into !== scope.namespace)
      return `${describe(
        key,
      )} is named by this environment's settings, but it deploys ${
        into
          ? `into ${into}`
          : 'into no namespace it names (no spec.targetNamespace, an empty inventory)'
      }, not into the environment's namespace ${
        scope.namespace
      }: it is not this environment's to act on.`;
    return undefined;
  }
  if (scope.namespace && scope.root && isRootsOwnChart(scope.root, key))
    return undefined;
  if (
    key.namespace !== scope.namespace ||
    isPlatformNamespace(scope, key.namespace)
  ) {
    if (!scope.namespace && scope.namespaceRefusal)
      return scope.namespaceRefusal.message;
    if (
      scope.root &&
      key.namespace === scope.root.namespace &&
      isFluxObject(key.group, key.kind)
    )
      return `${describe(key)} is a Flux object of ${
        key.namespace
      } other than this environment's own ${describe(scope.root)}: ${
        isFluxApplier(key.group, key.kind)
          ? 'what that depends on (dependsOn) and other teams’ appliers belong to their own owners'
          : `a source in the shared namespace ${key.namespace} serves others too`
      }; shown, never acted on.`;
    if (isPlatformNamespace(scope, key.namespace))
      return `${describe(key)} lies in ${
        key.namespace
      }, where the agent or the cluster's platform runs: shown, never acted on.`;
    return `${describe(key)} lies outside ${
      scope.namespace
        ? `the namespace this environment owns (${scope.namespace})`
        : 'every namespace: this environment owns none'
    }; shown, never acted on.`;
  }
  const foreign = object && foreignMarks(scope, object);
  if (foreign)
    return `${describe(key)} ${foreign}: it is not this environment's.`;
  return undefined;
}

/** readOnlyReason for the engine's graph options: `(key, object) => reason`. @public */
export function readOnlyOf(
  scope: EnvironmentActionScope | undefined,
):
  | ((key: ResourceKey, object: KubernetesObject) => string | undefined)
  | undefined {
  return scope
    ? (key, object) => readOnlyReason(scope, key, object)
    : undefined;
}

/** The key of an action's target (its group from the apiVersion). @public */
export function targetKey(target: {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
}): ResourceKey {
  return {
    group: groupOfApiVersion(target.apiVersion),
    kind: target.kind,
    namespace: target.namespace,
    name: target.name,
  };
}
