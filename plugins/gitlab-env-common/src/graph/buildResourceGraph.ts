import { computeHealth, isWorseHealth } from '../health';
import {
  KubernetesObject,
  ResourceEdge,
  ResourceEdgeType,
  ResourceGraph,
  ResourceKey,
  ResourceNode,
} from '../types';
import { parseFluxInventoryId } from './flux';
import { isRecord } from '../health/conditions';
import {
  claimTemplateNames,
  ingressServiceNames,
  podClaimNames,
  podConfigReferences,
  records,
  serviceSelector,
} from './references';
import {
  groupOfApiVersion,
  resourceId,
  resourceKeyOf,
  versionOfApiVersion,
} from './resourceId';

/** How strongly an in-edge claims to be a node's tree parent; lower wins. */
const PARENT_RANK = { controller: 0, owns: 1, manages: 2 } as const;

interface Indexes {
  byUid: Map<string, string>;
  /** `namespace/Kind/name` (group ignored, as ownerReferences by name carry only kind). */
  byKindName: Map<string, string[]>;
  /** Pods per `namespace\0label=value`. */
  podsByLabel: Map<string, string[]>;
  /** Claims per `namespace/<name without its -<ordinal> suffix>`, as StatefulSets name them. */
  claimsByStem: Map<string, string[]>;
  byLabel: Map<string, string[]>;
}

const kindNameKey = (namespace: string, kind: string, name: string) =>
  `${namespace}/${kind}/${name}`;

function push<K, V>(map: Map<K, V[]>, key: K, value: V) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

const EDGE_TYPE_BITS: Record<ResourceEdgeType, number> = {
  owns: 1,
  selects: 2,
  routes: 4,
  scales: 8,
  mounts: 16,
  uses: 32,
  manages: 64,
};

const ORDINAL_SUFFIX = /-\d+$/;

const LABEL_REFERENCES = [
  'helm.toolkit.fluxcd.io/name',
  'cli-utils.sigs.k8s.io/inventory-id',
];

/**
 * The ArgoCD-style dependency graph of an environment's objects: one node
 * per object with its health, typed edges between them, and the ownership
 * forest (owns / manages edges) with every node's subtree health. Linear in
 * the number of objects and references; never throws on malformed objects,
 * duplicates, dangling references or ownership cycles.
 *
 * @public
 */
export function buildResourceGraph(objects: KubernetesObject[]): ResourceGraph {
  const nodes = new Map<string, ResourceNode>();
  const sources = new Map<string, KubernetesObject>();
  const input = Array.isArray(objects) ? objects : [];

  input.forEach((object, objectIndex) => {
    if (!isRecord(object)) return;
    const key = resourceKeyOf(object);
    if (!key) return;
    const id = resourceId(key);
    const earlier = sources.get(id);
    if (earlier && isNewer(earlier, object)) return;
    // Fields spelled out, not spread: V8 gives spread results a slow
    // dictionary shape, which made graph building five times slower.
    nodes.set(id, {
      group: key.group,
      kind: key.kind,
      namespace: key.namespace,
      name: key.name,
      id,
      version: versionOfApiVersion(object.apiVersion),
      uid:
        typeof object.metadata?.uid === 'string'
          ? object.metadata.uid
          : undefined,
      objectIndex,
      health: computeHealth(object),
      // Every field present from the start keeps all nodes one shape.
      subtreeHealth: undefined,
      parentId: undefined,
      childIds: [],
    });
    sources.set(id, object);
  });

  const indexes = buildIndexes(nodes, sources);
  const edges: ResourceEdge[] = [];
  // Edge types already added per source and target, as bits: no key string per edge.
  const edgeTypes = new Map<string, Map<string, number>>();
  const parentCandidates = new Map<string, { parent: string; rank: number }>();

  const addEdge = (
    source: string | undefined,
    target: string,
    type: ResourceEdgeType,
    rank?: number,
  ) => {
    if (
      !source ||
      source === target ||
      !nodes.has(source) ||
      !nodes.has(target)
    )
      return;
    let targets = edgeTypes.get(source);
    if (!targets) edgeTypes.set(source, (targets = new Map()));
    const added = targets.get(target) ?? 0;
    const bit = EDGE_TYPE_BITS[type];
    if ((added & bit) === 0) {
      targets.set(target, added | bit);
      edges.push({ source, target, type });
    }
    if (rank !== undefined) {
      const current = parentCandidates.get(target);
      if (!current || rank < current.rank)
        parentCandidates.set(target, { parent: source, rank });
    }
  };
  const firstByKindName = (namespace: string, kind: string, name: unknown) =>
    typeof name === 'string'
      ? indexes.byKindName.get(kindNameKey(namespace, kind, name))?.[0]
      : undefined;

  for (const [id, object] of sources) {
    const node = nodes.get(id)!;
    const { namespace, kind, group } = node;
    const metadata = object.metadata ?? {};

    for (const owner of records(metadata.ownerReferences)) {
      const ownerId =
        (typeof owner.uid === 'string' && indexes.byUid.get(owner.uid)) ||
        firstByKindName(namespace, String(owner.kind), owner.name);
      if (ownerId)
        addEdge(
          ownerId,
          id,
          'owns',
          owner.controller === true ? PARENT_RANK.controller : PARENT_RANK.owns,
        );
    }
    const labels = isRecord(metadata.labels) ? metadata.labels : {};
    const annotations = isRecord(metadata.annotations)
      ? metadata.annotations
      : {};

    if (kind === 'EndpointSlice' && group === 'discovery.k8s.io') {
      addEdge(
        firstByKindName(
          namespace,
          'Service',
          labels['kubernetes.io/service-name'],
        ),
        id,
        'owns',
        PARENT_RANK.owns,
      );
    } else if (kind === 'Endpoints' && group === '') {
      addEdge(
        firstByKindName(namespace, 'Service', node.name),
        id,
        'owns',
        PARENT_RANK.owns,
      );
    } else if (
      kind === 'Secret' &&
      group === '' &&
      object.type === 'kubernetes.io/service-account-token'
    ) {
      addEdge(
        firstByKindName(
          namespace,
          'ServiceAccount',
          annotations['kubernetes.io/service-account.name'],
        ),
        id,
        'owns',
        PARENT_RANK.owns,
      );
    } else if (kind === 'Service' && group === '') {
      for (const pod of selectPods(
        indexes,
        sources,
        namespace,
        serviceSelector(object),
      ))
        addEdge(id, pod, 'selects');
    } else if (kind === 'Ingress') {
      for (const service of ingressServiceNames(object))
        addEdge(
          id,
          firstByKindName(namespace, 'Service', service) ?? '',
          'routes',
        );
    } else if (kind === 'HorizontalPodAutoscaler') {
      const target = isRecord(object.spec)
        ? object.spec.scaleTargetRef
        : undefined;
      if (isRecord(target)) {
        const targetId = resourceId({
          group: groupOfApiVersion(target.apiVersion),
          kind: String(target.kind),
          namespace,
          name: String(target.name),
        });
        addEdge(
          id,
          nodes.has(targetId)
            ? targetId
            : firstByKindName(namespace, String(target.kind), target.name) ??
                '',
          'scales',
        );
      }
    } else if (kind === 'Pod' && group === '') {
      for (const claim of podClaimNames(object))
        addEdge(
          id,
          firstByKindName(namespace, 'PersistentVolumeClaim', claim) ?? '',
          'mounts',
        );
      const { configMaps, secrets } = podConfigReferences(object);
      for (const cm of configMaps)
        addEdge(id, firstByKindName(namespace, 'ConfigMap', cm) ?? '', 'uses');
      for (const secret of secrets)
        addEdge(id, firstByKindName(namespace, 'Secret', secret) ?? '', 'uses');
    } else if (kind === 'StatefulSet' && group === 'apps') {
      for (const template of claimTemplateNames(object)) {
        const stem = `${namespace}/${template}-${node.name}`;
        for (const claim of indexes.claimsByStem.get(stem) ?? []) {
          addEdge(id, claim, 'mounts');
        }
      }
    } else if (
      kind === 'Kustomization' &&
      group === 'kustomize.toolkit.fluxcd.io'
    ) {
      const inventory =
        isRecord(object.status) && isRecord(object.status.inventory)
          ? object.status.inventory
          : {};
      for (const entry of records(inventory.entries)) {
        const key = parseFluxInventoryId(entry.id);
        if (!key) continue;
        const targetId = ensureInventoryNode(
          nodes,
          key,
          typeof entry.v === 'string' ? entry.v : '',
          node,
        );
        addEdge(id, targetId, 'manages', PARENT_RANK.manages);
      }
    } else if (kind === 'HelmRelease' && group === 'helm.toolkit.fluxcd.io') {
      for (const managed of indexes.byLabel.get(
        `helm.toolkit.fluxcd.io/name=${node.name}`,
      ) ?? []) {
        const labelsOfManaged = sources.get(managed)?.metadata?.labels ?? {};
        if (labelsOfManaged['helm.toolkit.fluxcd.io/namespace'] === namespace)
          addEdge(id, managed, 'manages', PARENT_RANK.manages);
      }
    }
    const owningInventory = annotations['config.k8s.io/owning-inventory'];
    if (typeof owningInventory === 'string') {
      for (const inventory of indexes.byLabel.get(
        `cli-utils.sigs.k8s.io/inventory-id=${owningInventory}`,
      ) ?? []) {
        addEdge(inventory, id, 'manages', PARENT_RANK.manages);
      }
    }
  }

  return assembleForest(nodes, edges, parentCandidates);
}

function buildIndexes(
  nodes: Map<string, ResourceNode>,
  sources: Map<string, KubernetesObject>,
): Indexes {
  const indexes: Indexes = {
    byUid: new Map(),
    byKindName: new Map(),
    podsByLabel: new Map(),
    claimsByStem: new Map(),
    byLabel: new Map(),
  };
  for (const [id, node] of nodes) {
    if (node.uid) indexes.byUid.set(node.uid, id);
    push(
      indexes.byKindName,
      kindNameKey(node.namespace, node.kind, node.name),
      id,
    );
    const labels = sources.get(id)?.metadata?.labels;
    const ordinal = ORDINAL_SUFFIX.exec(node.name);
    if (ordinal && node.kind === 'PersistentVolumeClaim' && node.group === '') {
      const stem = node.name.slice(0, ordinal.index);
      push(indexes.claimsByStem, `${node.namespace}/${stem}`, id);
    }
    if (!isRecord(labels)) continue;
    if (node.kind === 'Pod' && node.group === '') {
      for (const [k, v] of Object.entries(labels))
        push(indexes.podsByLabel, `${node.namespace}\0${k}=${v}`, id);
    }
    for (const label of LABEL_REFERENCES) {
      if (typeof labels[label] === 'string')
        push(indexes.byLabel, `${label}=${labels[label]}`, id);
    }
  }
  return indexes;
}

/**
 * Pods matching every pair of a selector: the smallest label bucket, its
 * pods checked against the other pairs, so a label every pod shares never
 * costs a pass over all pods.
 */
function selectPods(
  indexes: Indexes,
  sources: Map<string, KubernetesObject>,
  namespace: string,
  selector: Array<[string, string]>,
): string[] {
  let smallest: string[] | undefined;
  for (const [k, v] of selector) {
    const bucket = indexes.podsByLabel.get(`${namespace}\0${k}=${v}`) ?? [];
    if (!smallest || bucket.length < smallest.length) smallest = bucket;
  }
  if (!smallest) return [];
  return smallest.filter(pod => {
    const labels = sources.get(pod)?.metadata?.labels ?? {};
    return selector.every(([k, v]) => labels[k] === v);
  });
}

/**
 * Whether `earlier` should win over a later duplicate of the same object:
 * only when both carry numeric resourceVersions and the earlier one is
 * newer; otherwise the later copy wins.
 */
function isNewer(earlier: KubernetesObject, later: KubernetesObject): boolean {
  const versionOf = (object: KubernetesObject) => {
    const version = object.metadata?.resourceVersion;
    return typeof version === 'string' && /^\d+$/.test(version)
      ? version.replace(/^0+(?=\d)/, '')
      : undefined;
  };
  const a = versionOf(earlier);
  const b = versionOf(later);
  // Decimal strings of any size compare by length, then digit by digit.
  if (a === undefined || b === undefined) return false;
  return a.length === b.length ? a > b : a.length > b.length;
}

/** The node for an inventory entry, creating a Missing one when the cluster lacks it. */
function ensureInventoryNode(
  nodes: Map<string, ResourceNode>,
  key: ResourceKey,
  version: string,
  inventory: ResourceNode,
): string {
  const id = resourceId(key);
  if (!nodes.has(id)) {
    nodes.set(id, {
      group: key.group,
      kind: key.kind,
      namespace: key.namespace,
      name: key.name,
      id,
      version,
      missing: true,
      subtreeHealth: undefined,
      parentId: undefined,
      health: {
        status: 'Missing',
        message: `Listed in the inventory of ${inventory.kind} ${inventory.namespace}/${inventory.name} but not found in the cluster`,
      },
      childIds: [],
    });
  }
  return id;
}

/**
 * Picks each node's tree parent, cuts cycles, orders children and roots,
 * and rolls health up each subtree, all without recursion.
 */
function assembleForest(
  nodes: Map<string, ResourceNode>,
  edges: ResourceEdge[],
  candidates: Map<string, { parent: string; rank: number }>,
): ResourceGraph {
  for (const [child, { parent }] of candidates)
    nodes.get(child)!.parentId = parent;

  // Walk each parent chain once; a chain that comes back to itself is a cycle,
  // broken by dropping the parent link that closes it.
  const state = new Map<string, 1 | 2>();
  for (const start of nodes.keys()) {
    const path: string[] = [];
    let current: string | undefined = start;
    while (current && !state.has(current)) {
      state.set(current, 1);
      path.push(current);
      current = nodes.get(current)!.parentId;
    }
    if (current && state.get(current) === 1)
      nodes.get(path[path.length - 1])!.parentId = undefined;
    for (const id of path) state.set(id, 2);
  }

  const roots: string[] = [];
  const sorted = [...nodes.keys()].sort();
  for (const id of sorted) {
    const node = nodes.get(id)!;
    if (node.parentId) nodes.get(node.parentId)!.childIds.push(id);
    else roots.push(id);
  }

  // Children appear after their parents in this order; reversing it rolls health up.
  const order: ResourceNode[] = [];
  const stack = [...roots].reverse();
  while (stack.length > 0) {
    const node = nodes.get(stack.pop()!)!;
    order.push(node);
    for (let i = node.childIds.length - 1; i >= 0; i--)
      stack.push(node.childIds[i]);
  }
  for (let i = order.length - 1; i >= 0; i--) {
    const node = order[i];
    // Undefined when nothing below carries health, like ArgoCD's tree.
    let worst = node.health?.status;
    for (const childId of node.childIds) {
      const childHealth = nodes.get(childId)!.subtreeHealth;
      if (childHealth && (!worst || isWorseHealth(worst, childHealth)))
        worst = childHealth;
    }
    node.subtreeHealth = worst;
  }

  return { nodes: order, edges, roots };
}
