import { ResourceGraph } from '../types';
import { isFluxApplier } from '../k8s/flux';

/** The objects one inventory names. @public */
export interface InventoryGroup {
  /** Node id of the Flux applier or cli-utils inventory ConfigMap. */
  inventoryId: string;
  source: 'flux' | 'cli-utils';
  memberIds: string[];
}

/**
 * Groups an environment's objects by the inventory that applied them —
 * Flux's `status.inventory` and cli-utils' `config.k8s.io/owning-inventory`
 * (both drawn as `manages` edges) — for environments whose objects carry
 * neither GitLab's labels nor a namespace of their own.
 *
 * @public
 */
export function inventoryGroups(graph: ResourceGraph): InventoryGroup[] {
  const nodes = new Map(graph.nodes.map(node => [node.id, node]));
  const groups = new Map<string, InventoryGroup>();
  for (const edge of graph.edges) {
    if (edge.type !== 'manages') continue;
    const inventory = nodes.get(edge.source);
    if (!inventory) continue;
    let group = groups.get(edge.source);
    if (!group) {
      group = {
        inventoryId: edge.source,
        source: isFluxApplier(inventory.group, inventory.kind)
          ? 'flux'
          : 'cli-utils',
        memberIds: [],
      };
      groups.set(edge.source, group);
    }
    group.memberIds.push(edge.target);
  }
  return [...groups.values()];
}
