import { KubeObject } from '../scenario/types';
import { ApiResource, ResourceRegistry } from './resources';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoreEvent {
  type: WatchEventType;
  resource: ApiResource;
  object: KubeObject;
  /** The object before a MODIFIED or DELETED event. */
  previous?: KubeObject;
  /** The store revision this change created (the object's new resourceVersion). */
  revision: number;
}

/**
 * How many changes the store keeps for watches resuming from a resourceVersion.
 * etcd keeps about five minutes of history before compacting
 * (https://kubernetes.io/docs/reference/using-api/api-concepts/#efficient-detection-of-changes);
 * the simulator keeps a number of changes instead, so tests can reach the edge.
 */
export const DEFAULT_HISTORY_LIMIT = 10_000;

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
  /** Changes after `compactedRevision`, oldest first: what a watch from an old resourceVersion replays. */
  private readonly history: StoreEvent[] = [];
  private compactedRevision = 0;
  historyLimit = DEFAULT_HISTORY_LIMIT;
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

  /** The newest revision whose changes are no longer kept (etcd's compaction point). */
  get compacted(): number {
    return this.compactedRevision;
  }

  /** The kept changes after `revision`, oldest first; undefined when some were compacted away. */
  changesSince(revision: number): StoreEvent[] | undefined {
    if (revision < this.compactedRevision) return undefined;
    const start = this.history.findIndex(e => e.revision > revision);
    return start < 0 ? [] : this.history.slice(start);
  }

  /** Forgets every change up to `revision` (default: all), like an etcd compaction. */
  compact(revision = this.revision) {
    const keep = this.history.findIndex(e => e.revision > revision);
    this.history.splice(0, keep < 0 ? this.history.length : keep);
    this.compactedRevision = Math.max(this.compactedRevision, revision);
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
    this.emit({
      type: 'DELETED',
      resource,
      object: deleted,
      previous: existing,
      revision: this.revision,
    });
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
          ? {
              type: 'MODIFIED',
              resource,
              object: stored,
              previous,
              revision: this.revision,
            }
          : {
              type: 'ADDED',
              resource,
              object: stored,
              revision: this.revision,
            },
      );
    } else {
      // Objects loaded at start have no change history, as after a compaction.
      this.compactedRevision = this.revision;
    }
    return stored;
  }

  private emit(event: StoreEvent) {
    this.history.push(event);
    if (this.history.length > this.historyLimit) {
      const dropped = this.history.splice(
        0,
        this.history.length - this.historyLimit,
      );
      this.compactedRevision = dropped[dropped.length - 1].revision;
    }
    for (const listener of [...this.listeners]) {
      listener(event);
    }
  }
}
