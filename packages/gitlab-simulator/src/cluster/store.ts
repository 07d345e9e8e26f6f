import { KubeObject } from '../scenario/types';
import { ApiResource, ResourceRegistry } from './resources';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoreEvent {
  type: WatchEventType;
  resource: ApiResource;
  object: KubeObject;
  /** The object before a MODIFIED event. */
  previous?: KubeObject;
}

function resourceKey(resource: ApiResource): string {
  return `${resource.group}/${resource.plural}`;
}

/** '' for cluster-scoped objects, so they share one bucket. */
function namespaceKey(
  resource: ApiResource,
  namespace: string | undefined,
): string {
  return resource.namespaced ? namespace ?? '' : '';
}

/**
 * The state of one simulated cluster, like etcd behind an API server: objects
 * by resource, namespace and name, a global resourceVersion, and change
 * notifications for watches.
 */
export class ClusterStore {
  readonly registry: ResourceRegistry;
  /** Objects of kinds no built-in or CRD declares (a scenario mistake). */
  readonly unserved: KubeObject[] = [];
  /** resource -> namespace -> name -> object; indexed so per-namespace reads stay cheap in large benchmarks. */
  private readonly objects = new Map<
    string,
    Map<string, Map<string, KubeObject>>
  >();
  private revision = 0;
  private readonly listeners = new Set<(event: StoreEvent) => void>();

  constructor(objects: KubeObject[]) {
    this.registry = new ResourceRegistry(
      objects.filter(o => o.kind === 'CustomResourceDefinition'),
    );
    for (const object of objects) {
      const resource = this.registry.forObject(object);
      if (resource) {
        this.put(resource, object, false);
      } else {
        this.unserved.push(object);
      }
    }
  }

  get resourceVersion(): string {
    return String(this.revision);
  }

  /** Objects of a resource, in one namespace or all, ordered like etcd keys (namespace, then name). */
  list(resource: ApiResource, namespace?: string): KubeObject[] {
    const byNamespace = this.objects.get(resourceKey(resource));
    if (!byNamespace) return [];
    const namespaces =
      namespace === undefined
        ? [...byNamespace.keys()].sort()
        : [namespaceKey(resource, namespace)];
    return namespaces.flatMap(ns => {
      const byName = byNamespace.get(ns);
      return byName
        ? [...byName.keys()].sort().map(name => byName.get(name)!)
        : [];
    });
  }

  get(
    resource: ApiResource,
    namespace: string | undefined,
    name: string,
  ): KubeObject | undefined {
    return this.objects
      .get(resourceKey(resource))
      ?.get(namespaceKey(resource, namespace))
      ?.get(name);
  }

  /** Every object, for tests and summaries. */
  all(): KubeObject[] {
    return [...this.objects.values()].flatMap(byNamespace =>
      [...byNamespace.values()].flatMap(byName => [...byName.values()]),
    );
  }

  /** Stores an object (create or replace), bumping its resourceVersion. */
  upsert(object: KubeObject): KubeObject {
    const resource = this.registry.forObject(object);
    if (!resource) {
      throw new Error(`no resource serves ${object.apiVersion} ${object.kind}`);
    }
    return this.put(resource, object, true);
  }

  remove(
    resource: ApiResource,
    namespace: string | undefined,
    name: string,
  ): KubeObject | undefined {
    const byName = this.objects
      .get(resourceKey(resource))
      ?.get(namespaceKey(resource, namespace));
    const existing = byName?.get(name);
    if (!byName || !existing) {
      return undefined;
    }
    byName.delete(name);
    const deleted = {
      ...existing,
      metadata: {
        ...existing.metadata,
        resourceVersion: String(++this.revision),
      },
    };
    this.emit({ type: 'DELETED', resource, object: deleted });
    return deleted;
  }

  subscribe(listener: (event: StoreEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private put(
    resource: ApiResource,
    object: KubeObject,
    notify: boolean,
  ): KubeObject {
    const key = resourceKey(resource);
    const byNamespace =
      this.objects.get(key) ?? new Map<string, Map<string, KubeObject>>();
    this.objects.set(key, byNamespace);
    const ns = namespaceKey(resource, object.metadata.namespace);
    const byName = byNamespace.get(ns) ?? new Map<string, KubeObject>();
    byNamespace.set(ns, byName);
    const previous = byName.get(object.metadata.name);
    const stored = {
      ...object,
      metadata: {
        ...object.metadata,
        resourceVersion: String(++this.revision),
      },
    };
    byName.set(object.metadata.name, stored);
    if (notify) {
      this.emit(
        previous
          ? { type: 'MODIFIED', resource, object: stored, previous }
          : { type: 'ADDED', resource, object: stored },
      );
    }
    return stored;
  }

  private emit(event: StoreEvent) {
    for (const listener of [...this.listeners]) {
      listener(event);
    }
  }
}
