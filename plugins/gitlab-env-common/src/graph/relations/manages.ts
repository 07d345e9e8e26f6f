import { isRecord, NO_FIELDS, annotationsOf } from '../../k8s/objects';
import { parseFluxInventoryId } from '../../k8s/flux';
import { PARENT_RANK, Relation, RelationContext } from './types';

/**
 * A Flux Kustomization, and a Flux Operator ResourceSet (same
 * `status.inventory` shape, https://fluxcd.control-plane.io/operator/resourceset/),
 * manage every entry of their inventory, present or Missing.
 */
function fluxInventory(context: RelationContext) {
  const { status } = context.object;
  const inventory =
    isRecord(status) && isRecord(status.inventory)
      ? status.inventory
      : NO_FIELDS;
  const entries = inventory.entries;
  if (!Array.isArray(entries)) return;
  context.forEach(entries, inventoryEntry);
}

function inventoryEntry(entry: unknown, context: RelationContext) {
  if (!isRecord(entry)) return;
  const key = parseFluxInventoryId(entry.id);
  if (!key) return;
  const target = context.inventoryNode(
    key,
    typeof entry.v === 'string' ? entry.v : '',
  );
  context.add(context.origin, target, 'manages', PARENT_RANK.manages);
}

/** A HelmRelease manages the objects labelled with its name and namespace. */
function helmReleaseObjects(context: RelationContext) {
  const { name, namespace } = context.node;
  for (const managed of context.byReferenceLabel(
    'helm.toolkit.fluxcd.io/name',
    name,
  )) {
    if (
      context.labelsOf(managed)['helm.toolkit.fluxcd.io/namespace'] ===
      namespace
    )
      context.add(context.origin, managed, 'manages', PARENT_RANK.manages);
  }
}

/** A cli-utils inventory (labelled with its id) manages the objects annotated with it. */
function owningInventory(context: RelationContext) {
  const inventoryId = annotationsOf(context.object)[
    'config.k8s.io/owning-inventory'
  ];
  if (typeof inventoryId !== 'string') return;
  for (const inventory of context.byReferenceLabel(
    'cli-utils.sigs.k8s.io/inventory-id',
    inventoryId,
  ))
    context.add(inventory, context.origin, 'manages', PARENT_RANK.manages);
}

/** Flux Kustomization / HelmRelease and cli-utils inventories → what they deployed. */
export const manages: Relation = {
  type: 'manages',
  sources: [
    {
      id: 'manages/flux-inventory',
      kinds: [
        { kind: 'Kustomization', group: 'kustomize.toolkit.fluxcd.io' },
        { kind: 'ResourceSet', group: 'fluxcd.controlplane.io' },
      ],
      infer: fluxInventory,
    },
    {
      id: 'manages/helm-release-objects',
      kinds: [{ kind: 'HelmRelease', group: 'helm.toolkit.fluxcd.io' }],
      infer: helmReleaseObjects,
    },
    { id: 'manages/cli-utils-inventory', infer: owningInventory },
  ],
};
