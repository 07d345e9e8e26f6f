import { isRecord } from '../health/conditions';
import { KubernetesObject, ResourceEdge, ResourceEdgeType } from '../types';
import { parseFluxInventoryId } from './flux';
import {
  Lookups,
  NamespaceLookups,
  byReferenceLabel,
  firstByKindName,
  namespaceLookups,
  selectPods,
} from './lookups';
import { NodeTable, findNode, inventoryNode } from './nodeTable';
import { PairBits } from './pairBits';
import {
  NameList,
  PodReference,
  claimTemplateNames,
  ingressServiceNames,
  podReferenceNames,
  serviceSelector,
} from './references';
import { groupOfApiVersion } from './resourceId';

/** How strongly an in-edge claims to be a node's tree parent; lower wins. */
const PARENT_RANK = { controller: 0, owns: 1, manages: 2 } as const;

/** One bit per edge type, to remember which types a pair of nodes already has. */
const EDGE_TYPE_BITS: Record<ResourceEdgeType, number> = {
  owns: 1,
  selects: 2,
  routes: 4,
  scales: 8,
  mounts: 16,
  uses: 32,
  manages: 64,
};

const NO_FIELDS: Readonly<Record<string, any>> = Object.freeze({});
const NO_NODES: readonly number[] = [];

/** What inference of one object's edges reads and writes. */
interface Inference {
  table: NodeTable;
  lookups: Lookups;
  edges: ResourceEdge[];
  added: PairBits;
  /** The names the object at hand refers to; one list reused for all. */
  names: NameList;
}

/**
 * Every edge the objects' references imply, each (source, target, type)
 * once, in the order first found; records each node's best tree parent in
 * `table.parents` and appends a Missing node for each inventory entry the
 * cluster lacks.
 */
export function inferEdges(table: NodeTable, lookups: Lookups): ResourceEdge[] {
  const inference: Inference = {
    table,
    lookups,
    edges: [],
    added: new PairBits(table.sources.length * 2),
    names: new NameList(),
  };
  // Only the nodes built from objects: Missing ones appended meanwhile refer to nothing.
  const count = table.sources.length;
  for (let index = 0; index < count; index++) inferEdgesOf(inference, index);
  return inference.edges;
}

/**
 * Adds an edge between two node indexes unless either is absent, both are
 * the same node or the edge exists; a ranked edge also bids to be the
 * target's tree parent.
 */
function addEdge(
  inference: Inference,
  source: number | undefined,
  target: number | undefined,
  type: ResourceEdgeType,
  rank?: number,
) {
  if (source === undefined || target === undefined || source === target) return;
  const { table } = inference;
  if (inference.added.add(source, target, EDGE_TYPE_BITS[type])) {
    inference.edges.push({
      source: table.ids[source],
      target: table.ids[target],
      type,
    });
  }
  if (rank !== undefined && rank < table.parentRanks[target]) {
    table.parents[target] = source;
    table.parentRanks[target] = rank;
  }
}

function inferEdgesOf(inference: Inference, index: number) {
  const { table, lookups } = inference;
  const node = table.nodes[index];
  const object = table.sources[index];
  const { namespace, kind, group } = node;
  const scope = namespaceLookups(lookups, namespace);
  const metadata = object.metadata ?? NO_FIELDS;

  const owners = metadata.ownerReferences;
  if (Array.isArray(owners)) {
    for (const owner of owners) {
      if (!isRecord(owner)) continue;
      const owning =
        (typeof owner.uid === 'string'
          ? lookups.byUid.get(owner.uid)
          : undefined) ??
        firstByKindName(scope, String(owner.kind), owner.name);
      addEdge(
        inference,
        owning,
        index,
        'owns',
        owner.controller === true ? PARENT_RANK.controller : PARENT_RANK.owns,
      );
    }
  }
  const labels = isRecord(metadata.labels) ? metadata.labels : NO_FIELDS;
  const annotations = isRecord(metadata.annotations)
    ? metadata.annotations
    : NO_FIELDS;

  if (kind === 'EndpointSlice' && group === 'discovery.k8s.io') {
    addEdge(
      inference,
      firstByKindName(scope, 'Service', labels['kubernetes.io/service-name']),
      index,
      'owns',
      PARENT_RANK.owns,
    );
  } else if (kind === 'Endpoints' && group === '') {
    addEdge(
      inference,
      firstByKindName(scope, 'Service', node.name),
      index,
      'owns',
      PARENT_RANK.owns,
    );
  } else if (
    kind === 'Secret' &&
    group === '' &&
    object.type === 'kubernetes.io/service-account-token'
  ) {
    addEdge(
      inference,
      firstByKindName(
        scope,
        'ServiceAccount',
        annotations['kubernetes.io/service-account.name'],
      ),
      index,
      'owns',
      PARENT_RANK.owns,
    );
  } else if (kind === 'Service' && group === '') {
    const selector = serviceSelector(object);
    if (selector) {
      for (const pod of selectPods(scope, table.sources, selector))
        addEdge(inference, index, pod, 'selects');
    }
  } else if (kind === 'Ingress') {
    ingressServiceNames(object, inference.names);
    addEdgesByName(inference, scope, index, 'Service', 'routes');
  } else if (kind === 'HorizontalPodAutoscaler') {
    addEdge(
      inference,
      index,
      scaleTarget(inference, scope, object, namespace),
      'scales',
    );
  } else if (kind === 'Pod' && group === '') {
    addPodEdges(inference, scope, index, object);
  } else if (kind === 'StatefulSet' && group === 'apps') {
    const templates = inference.names;
    claimTemplateNames(object, templates);
    for (let t = 0; t < templates.count; t++) {
      const stem = `${templates.names[t]}-${node.name}`;
      for (const claim of scope.claimsByStem.get(stem) ?? NO_NODES)
        addEdge(inference, index, claim, 'mounts');
    }
  } else if (
    kind === 'Kustomization' &&
    group === 'kustomize.toolkit.fluxcd.io'
  ) {
    addInventoryEdges(inference, index, object);
  } else if (kind === 'HelmRelease' && group === 'helm.toolkit.fluxcd.io') {
    for (const managed of byReferenceLabel(
      lookups,
      'helm.toolkit.fluxcd.io/name',
      node.name,
    )) {
      const managedLabels =
        table.sources[managed].metadata?.labels ?? NO_FIELDS;
      if (managedLabels['helm.toolkit.fluxcd.io/namespace'] === namespace)
        addEdge(inference, index, managed, 'manages', PARENT_RANK.manages);
    }
  }
  const owningInventory = annotations['config.k8s.io/owning-inventory'];
  if (typeof owningInventory === 'string') {
    for (const inventory of byReferenceLabel(
      lookups,
      'cli-utils.sigs.k8s.io/inventory-id',
      owningInventory,
    ))
      addEdge(inference, inventory, index, 'manages', PARENT_RANK.manages);
  }
}

/** An HPA's `scaleTargetRef`: the exact object (group included) if present, else by kind and name. */
function scaleTarget(
  inference: Inference,
  scope: NamespaceLookups,
  hpa: KubernetesObject,
  namespace: string,
): number | undefined {
  const target = isRecord(hpa.spec) ? hpa.spec.scaleTargetRef : undefined;
  if (!isRecord(target)) return undefined;
  const kind = String(target.kind);
  const exact = findNode(inference.table, {
    group: groupOfApiVersion(target.apiVersion),
    kind,
    namespace,
    name: String(target.name),
  });
  return exact ?? firstByKindName(scope, kind, target.name);
}

/**
 * Edges from a node to the first node of a kind by each name in
 * `inference.names`, in its namespace.
 */
function addEdgesByName(
  inference: Inference,
  scope: NamespaceLookups,
  index: number,
  kind: string,
  type: ResourceEdgeType,
) {
  const { names, count } = inference.names;
  for (let n = 0; n < count; n++)
    addEdge(inference, index, firstByKindName(scope, kind, names[n]), type);
}

/** What a Pod refers to, in the order its edges are added. */
const POD_REFERENCES: ReadonlyArray<[PodReference, ResourceEdgeType]> = [
  ['PersistentVolumeClaim', 'mounts'],
  ['ConfigMap', 'uses'],
  ['Secret', 'uses'],
];

/** A Pod's claims (mounts), then ConfigMaps and Secrets (uses). */
function addPodEdges(
  inference: Inference,
  scope: NamespaceLookups,
  index: number,
  pod: KubernetesObject,
) {
  for (const [kind, type] of POD_REFERENCES) {
    podReferenceNames(pod, kind, inference.names);
    addEdgesByName(inference, scope, index, kind, type);
  }
}

/** A Flux Kustomization manages every entry of its inventory, present or Missing. */
function addInventoryEdges(
  inference: Inference,
  index: number,
  kustomization: KubernetesObject,
) {
  const status = kustomization.status;
  const inventory =
    isRecord(status) && isRecord(status.inventory)
      ? status.inventory
      : NO_FIELDS;
  const entries = inventory.entries;
  if (!Array.isArray(entries)) return;
  const node = inference.table.nodes[index];
  for (const entry of entries) {
    if (!isRecord(entry)) continue;
    const key = parseFluxInventoryId(entry.id);
    if (!key) continue;
    const target = inventoryNode(
      inference.table,
      key,
      typeof entry.v === 'string' ? entry.v : '',
      node,
    );
    addEdge(inference, index, target, 'manages', PARENT_RANK.manages);
  }
}
