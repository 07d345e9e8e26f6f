import {
  HealthAssessment,
  KubernetesObject,
  ResourceKey,
  ResourceNode,
} from '../../types';
import { groupOfApiVersion, versionOfApiVersion } from '../../k8s/resourceId';

const NO_API_VERSION = { group: '', version: '' };

/**
 * Group and version per apiVersion string, each parsed once per engine so
 * that nodes share the strings rather than each slicing its own.
 */
export class ApiVersions {
  private readonly parsed = new Map<
    string,
    { group: string; version: string }
  >();
  /** The last one asked for: lists and inferences come kind by kind. */
  private last = '';
  private lastParts = NO_API_VERSION;

  parse(apiVersion: unknown): { group: string; version: string } {
    if (typeof apiVersion !== 'string') return NO_API_VERSION;
    if (apiVersion === this.last) return this.lastParts;
    let parts = this.parsed.get(apiVersion);
    if (!parts) {
      parts = {
        group: groupOfApiVersion(apiVersion),
        version: versionOfApiVersion(apiVersion),
      };
      // apiVersions come from clusters: past this many, parse each time.
      if (this.parsed.size < 4096) this.parsed.set(apiVersion, parts);
    }
    this.last = apiVersion;
    this.lastParts = parts;
    return parts;
  }
}

/** The node of an object, with its own health (as assessed by the caller); tree fields are the forest's to fill. */
export function objectNode(
  object: KubernetesObject & { kind: string; metadata: { name: string } },
  group: string,
  namespace: string,
  id: string,
  version: string,
  health: HealthAssessment | undefined,
  readOnly?: (key: ResourceKey, object: KubernetesObject) => string | undefined,
): ResourceNode {
  const { uid, resourceVersion } = object.metadata;
  // Every field spelled out and present from the start: all nodes share one
  // shape (a spread or a missing field gives V8 slower ones).
  return {
    group,
    kind: object.kind,
    namespace,
    name: object.metadata.name,
    id,
    version,
    uid: typeof uid === 'string' ? uid : undefined,
    resourceVersion:
      typeof resourceVersion === 'string' ? resourceVersion : undefined,
    health,
    subtreeHealth: undefined,
    parentId: undefined,
    childIds: [],
    readOnly: readOnly?.(
      { group, kind: object.kind, namespace, name: object.metadata.name },
      object,
    ),
  };
}

/** The node of an inventory entry the cluster lacks, naming the inventory that lists it. */
export function missingNode(
  key: ResourceKey,
  id: string,
  version: string,
  inventory: ResourceNode,
): ResourceNode {
  return {
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
  };
}

const DIGITS = /^\d+$/;
const LEADING_ZEROS = /^0+(?=\d)/;

function numericVersion(object: KubernetesObject): string | undefined {
  const version = object.metadata?.resourceVersion;
  return typeof version === 'string' && DIGITS.test(version)
    ? version.replace(LEADING_ZEROS, '')
    : undefined;
}

/**
 * Whether `earlier` should win over a later duplicate of the same object in
 * one list: only when both carry numeric resourceVersions and the earlier
 * one is newer; otherwise the later copy wins.
 */
export function isNewer(
  earlier: KubernetesObject,
  later: KubernetesObject,
): boolean {
  const a = numericVersion(earlier);
  const b = numericVersion(later);
  // Decimal strings of any size compare by length, then digit by digit.
  if (a === undefined || b === undefined) return false;
  return a.length === b.length ? a > b : a.length > b.length;
}

/** A copy of a node with the same fields in the same order (so it keeps the node's shape). */
export function copyNode(node: ResourceNode): ResourceNode {
  if (node.missing)
    return {
      group: node.group,
      kind: node.kind,
      namespace: node.namespace,
      name: node.name,
      id: node.id,
      version: node.version,
      missing: true,
      subtreeHealth: node.subtreeHealth,
      parentId: node.parentId,
      health: node.health,
      childIds: node.childIds,
    };
  return {
    group: node.group,
    kind: node.kind,
    namespace: node.namespace,
    name: node.name,
    id: node.id,
    version: node.version,
    uid: node.uid,
    resourceVersion: node.resourceVersion,
    health: node.health,
    subtreeHealth: node.subtreeHealth,
    parentId: node.parentId,
    childIds: node.childIds,
    readOnly: node.readOnly,
  };
}

/** Whether a node changed in what a patch reports. */
export function sameNode(a: ResourceNode, b: ResourceNode): boolean {
  return (
    a.health?.status === b.health?.status &&
    a.health?.message === b.health?.message &&
    a.subtreeHealth === b.subtreeHealth &&
    a.parentId === b.parentId &&
    a.version === b.version &&
    a.uid === b.uid &&
    a.resourceVersion === b.resourceVersion &&
    a.readOnly === b.readOnly &&
    a.childIds.length === b.childIds.length &&
    a.childIds.every((id, i) => id === b.childIds[i])
  );
}
