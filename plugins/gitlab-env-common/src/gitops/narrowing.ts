import {
  GitlabEnvironment,
  KubernetesObject,
  NamespaceNarrowing,
  NarrowedScope,
} from '../types';
import { str, annotationsOf, labelsOf } from '../k8s/objects';
import { EventSubject, eventSubjectMatcher } from '../events/eventSubject';
import { fluxInventoryKeys, fluxOwnerByLabels, keyOf } from '../k8s/flux';
import { resourceId } from '../k8s/resourceId';
import { buildResourceGraph } from '../graph/buildResourceGraph';
import { gitlabMarkerMatch, gitlabMarkerText } from './gitlabMarkers';

/** What narrowing left out. @public */
export interface NarrowingResult {
  objects: KubernetesObject[];
  /** How many objects of the namespace belong to others. */
  hidden: number;
  /** Whom they belong to, at most 10, sorted. */
  hiddenOwners: string[];
}

const OWNING_INVENTORY = 'config.k8s.io/owning-inventory';
const INVENTORY_ID_LABEL = 'cli-utils.sigs.k8s.io/inventory-id';
const MAX_OWNERS = 10;

function inventoryOf(
  objects: readonly KubernetesObject[],
  flux: NamespaceNarrowing['flux'],
): Set<string> {
  const ids = new Set<string>();
  if (!flux) return ids;
  const applier = objects.find(o => {
    const key = keyOf(o);
    return (
      key.kind === flux.kind &&
      key.namespace === flux.namespace &&
      key.name === flux.name
    );
  });
  if (!applier) return ids;
  for (const key of fluxInventoryKeys(applier)) ids.add(resourceId(key));
  return ids;
}

const sameFlux = (
  a: NamespaceNarrowing['flux'],
  b: { kind: string; namespace: string; name: string },
) =>
  a !== undefined &&
  a.kind === b.kind &&
  a.namespace === b.namespace &&
  a.name === b.name;

/**
 * Whom an object of the namespace belongs to when that is not this
 * environment; undefined when it is the environment's or says nothing.
 * An object named by the environment's inventory, applied by its Flux
 * object or by a cli-utils inventory carrying its markers, or carrying its
 * GitLab markers itself, is its own; one carrying another
 * environment's markers, or applied by another inventory (a Flux applier's
 * labels, cli-utils' owning-inventory; any inventory for an environment
 * narrowed by label, which has none) belongs to that other.
 */
function foreignOwner(
  object: KubernetesObject,
  narrowing: NamespaceNarrowing,
  inventory: ReadonlySet<string>,
  ownInventoryIds: ReadonlySet<string>,
): string | undefined {
  if (inventory.has(resourceId(keyOf(object)))) return undefined;
  const markers = gitlabMarkerMatch(object, narrowing.markers);
  if (markers === 'ours') return undefined;
  if (markers === 'other') return gitlabMarkerText(object);
  const flux = fluxOwnerByLabels(object);
  if (flux) {
    if (sameFlux(narrowing.flux, flux)) return undefined;
    return `${flux.kind} ${flux.namespace}/${flux.name}`;
  }
  const owning = str(annotationsOf(object)[OWNING_INVENTORY]);
  if (!owning || ownInventoryIds.has(owning)) return undefined;
  return `inventory ${owning}`;
}

/**
 * The cli-utils inventories of the environment: the inventory objects
 * (labelled `cli-utils.sigs.k8s.io/inventory-id`) that carry its GitLab
 * markers; what they applied is its own.
 */
function ownCliUtilsInventories(
  objects: readonly KubernetesObject[],
  markers: NamespaceNarrowing['markers'],
): Set<string> {
  const ids = new Set<string>();
  for (const object of objects) {
    const id = str(labelsOf(object)[INVENTORY_ID_LABEL]);
    if (id && gitlabMarkerMatch(object, markers) === 'ours') ids.add(id);
  }
  return ids;
}

/**
 * What an object of the namespace brings with it, by the engine's
 * relations: what it owns (ownerReferences, a Service's EndpointSlices, a
 * ServiceAccount's token Secret) and, for a StatefulSet, the claims of its
 * volumeClaimTemplates (no ownerReference unless its retention policy
 * deletes them).
 */
function belongings(objects: KubernetesObject[]): Map<string, string[]> {
  const graph = buildResourceGraph(objects);
  const kinds = new Map(graph.nodes.map(n => [n.id, n.kind]));
  const children = new Map<string, string[]>();
  for (const edge of graph.edges) {
    const brings =
      edge.type === 'owns' ||
      (edge.type === 'mounts' && kinds.get(edge.source) === 'StatefulSet');
    if (!brings) continue;
    const brought = children.get(edge.source);
    if (brought) brought.push(edge.target);
    else children.set(edge.source, [edge.target]);
  }
  return children;
}

/**
 * The objects of a namespace others share that belong to this environment:
 * objects of `namespace` that belong to another environment or inventory
 * (see foreignOwner), what they bring with them (see belongings,
 * transitively) and the Events about them are left out; objects nobody claims stay (a GitOps
 * environment shows them as unmanaged), as does everything outside the
 * namespace (the Flux object, its sources, cross-namespace inventory entries).
 *
 * @public
 */
export function narrowToEnvironment(
  objects: readonly KubernetesObject[],
  namespace: string,
  narrowing: NamespaceNarrowing,
): NarrowingResult {
  const inventory = inventoryOf(objects, narrowing.flux);
  const inNamespace = objects.filter(o => o.metadata?.namespace === namespace);
  const ownInventoryIds = ownCliUtilsInventories(
    inNamespace,
    narrowing.markers,
  );
  const owners = new Set<string>();
  const roots: string[] = [];
  for (const object of inNamespace) {
    const owner = foreignOwner(object, narrowing, inventory, ownInventoryIds);
    if (!owner) continue;
    owners.add(owner);
    roots.push(resourceId(keyOf(object)));
  }
  const hiddenIds = new Set<string>();
  if (roots.length > 0) {
    const children = belongings(inNamespace);
    const queue = [...roots];
    while (queue.length > 0) {
      const id = queue.pop()!;
      if (hiddenIds.has(id)) continue;
      hiddenIds.add(id);
      for (const child of children.get(id) ?? [])
        if (!inventory.has(child)) queue.push(child);
    }
  }
  const hiddenSubjects: EventSubject[] = [];
  const kept: KubernetesObject[] = [];
  let hidden = 0;
  for (const object of objects) {
    const inScope = object.metadata?.namespace === namespace;
    if (inScope && hiddenIds.has(resourceId(keyOf(object)))) {
      hidden += 1;
      hiddenSubjects.push({
        kind: String(object.kind),
        namespace,
        name: String(object.metadata?.name),
        uid: str(object.metadata?.uid),
      });
    } else kept.push(object);
  }
  const aboutHidden = eventSubjectMatcher(hiddenSubjects);
  return {
    objects: kept.filter(o => o.kind !== 'Event' || !aboutHidden(o)),
    hidden,
    hiddenOwners: [...owners].sort().slice(0, MAX_OWNERS),
  };
}

/**
 * An environment's objects, narrowed when its namespace is shared (its
 * namespace source carries a narrowing), with what the page says about it.
 *
 * @public
 */
export function narrowEnvironmentObjects(
  objects: KubernetesObject[],
  environment: GitlabEnvironment,
): { objects: KubernetesObject[]; narrowed?: NarrowedScope } {
  const narrowing = environment.namespaceSource?.narrowing;
  if (!narrowing || !environment.namespace) return { objects };
  const result = narrowToEnvironment(objects, environment.namespace, narrowing);
  return {
    objects: result.objects,
    narrowed: {
      by: narrowing.by,
      sharedWith: narrowing.sharedWith,
      hidden: result.hidden,
      hiddenOwners: result.hiddenOwners,
    },
  };
}
