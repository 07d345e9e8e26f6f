import { KubeObject } from '../scenario/types';
import { Controllers } from './controllers';
import { deepClone } from './objects';
import { ClusterStore } from './store';

/**
 * What a deploy job's `kubectl set image` (or `helm upgrade --set
 * image.tag=…`) does to an environment's namespace: every container of its
 * Deployments, StatefulSets and DaemonSets whose image is from one of the
 * given repositories (`registry/path`, tag or digest aside) takes that
 * image; each changed workload is written and its controller rolls it out.
 * Returns the workloads it changed.
 */

/** `registry.example.com/app:1.2` → `registry.example.com/app` (a port in the registry kept). */
export function imageRepository(image: string): string {
  const withoutDigest = image.split('@')[0];
  const slash = withoutDigest.lastIndexOf('/');
  const colon = withoutDigest.lastIndexOf(':');
  return colon > slash ? withoutDigest.slice(0, colon) : withoutDigest;
}

export function setImages(
  store: ClusterStore,
  controllers: Controllers,
  namespace: string,
  images: string[],
): KubeObject[] {
  const byRepository = new Map(images.map(i => [imageRepository(i), i]));
  const changed: KubeObject[] = [];
  for (const kind of ['Deployment', 'StatefulSet', 'DaemonSet']) {
    const resource = store.registry.forKind('apps', kind)!;
    for (const workload of store.list(resource, namespace)) {
      const updated = deepClone(workload);
      let touched = false;
      for (const list of ['initContainers', 'containers']) {
        for (const container of updated.spec?.template?.spec?.[list] ?? []) {
          const image = byRepository.get(
            imageRepository(String(container.image)),
          );
          if (image && image !== container.image) {
            container.image = image;
            touched = true;
          }
        }
      }
      if (!touched) continue;
      updated.metadata.generation = (workload.metadata.generation ?? 1) + 1;
      const stored = store.upsert(updated);
      controllers.afterPatch(workload, stored);
      changed.push(stored);
    }
  }
  return changed;
}
