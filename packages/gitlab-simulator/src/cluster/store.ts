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

function objectKey(namespace: string | undefined, name: string): string {
  return `${namespace ?? ''}/${name}`;
}

/**
 * The state of one simulated cluster, like etcd behind an API server: objects
 * by resource, a global resourceVersion, and change notifications for watches.
 */
export class ClusterStore {
  readonly registry: ResourceRegistry;
  /** Objects of kinds no built-in or CRD declares (a scenario mistake). */
  readonly unserved: KubeObject[] = [];
  private readonly objects = new Map<string, Map<string, KubeObject>>();
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

  /** Objects of a resource, in one namespace or all, ordered like etcd keys. */
  list(resource: ApiResource, namespace?: string): KubeObject[] {
    const all = [...(this.objects.get(resourceKey(resource))?.values() ?? [])];
    const filtered =
      namespace === undefined
        ? all
        : all.filter(o => o.metadata.namespace === namespace);
    return filtered.sort((a, b) =>
      objectKey(a.metadata.namespace, a.metadata.name).localeCompare(
        objectKey(b.metadata.namespace, b.metadata.name),
      ),
    );
  }

  get(
    resource: ApiResource,
    namespace: string | undefined,
    name: string,
  ): KubeObject | undefined {
    return this.objects
      .get(resourceKey(resource))
      ?.get(objectKey(resource.namespaced ? namespace : undefined, name));
  }

  /** Every object, for tests and summaries. */
  all(): KubeObject[] {
    return [...this.objects.values()].flatMap(m => [...m.values()]);
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
    const bucket = this.objects.get(resourceKey(resource));
    const key = objectKey(resource.namespaced ? namespace : undefined, name);
    const existing = bucket?.get(key);
    if (!existing) {
      return undefined;
    }
    bucket!.delete(key);
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
    const bucket = this.objects.get(key) ?? new Map<string, KubeObject>();
    this.objects.set(key, bucket);
    const id = objectKey(
      resource.namespaced ? object.metadata.namespace : undefined,
      object.metadata.name,
    );
    const previous = bucket.get(id);
    const stored = {
      ...object,
      metadata: {
        ...object.metadata,
        resourceVersion: String(++this.revision),
      },
    };
    bucket.set(id, stored);
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
