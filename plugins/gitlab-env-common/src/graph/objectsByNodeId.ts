import { isRecord } from '../k8s/objects';
import { KubernetesObject } from '../types';
import { isNewer } from './engine/nodes';
import { hasResourceKey, resourceId, resourceKeyOf } from '../k8s/resourceId';

/**
 * The object each node of `buildResourceGraph(objects)` shows, by node id:
 * of duplicates, the one the graph keeps (the newest resourceVersion, else
 * the later copy).
 *
 * @public
 */
export function objectsByNodeId(
  objects: readonly KubernetesObject[],
): Map<string, KubernetesObject> {
  const byId = new Map<string, KubernetesObject>();
  for (const object of Array.isArray(objects) ? objects : []) {
    if (!isRecord(object) || !hasResourceKey(object)) continue;
    const id = resourceId(resourceKeyOf(object)!);
    const kept = byId.get(id);
    if (kept === undefined || !isNewer(kept, object)) byId.set(id, object);
  }
  return byId;
}
