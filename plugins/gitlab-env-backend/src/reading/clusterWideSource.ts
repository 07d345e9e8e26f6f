import { KubernetesObject } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { GitlabEnvFailure } from '../errors';
import { ListableKind, namespacedKinds } from './discovery';
import { KasClient } from '../transport/kasClient';
import { ReadBounds } from './readBounds';
import {
  getObject,
  kasObjectSource,
  listKind,
  ObjectRef,
  ObjectSource,
} from './objectSource';

export interface ClusterWideScope {
  /** The namespaces whose objects are kept; every other object is dropped on arrival. */
  namespaces: ReadonlySet<string>;
  labelSelector?: string;
  /** Objects outside those namespaces that are wanted too: the environments' Flux objects. */
  extraObjects: ObjectRef[];
  /** Pages, objects (for all the namespaces together) and warnings of this read. */
  bounds: ReadBounds;
}

type KindRead =
  | {
      ok: true;
      byNamespace: Map<string, KubernetesObject[]>;
      byRef: Map<string, KubernetesObject>;
    }
  | { ok: false; error: unknown };

function refKey(
  group: string,
  plural: string,
  namespace: string,
  name: string,
) {
  return `${group}/${plural}/${namespace}/${name}`;
}

/**
 * Reads many namespaces of one agent with one list per kind across the
 * cluster instead of one per kind and namespace: for the overview's hundreds
 * of environments behind one agent that is tens of requests instead of tens
 * of thousands. Objects of other namespaces are dropped page by page and
 * never leave this function. The answer is an ObjectSource, so each
 * environment is then assembled exactly as a per-namespace read would.
 *
 * Where the cluster refuses a cluster-wide list (RBAC granted per namespace)
 * the source falls back to per-namespace lists of that kind; other failures
 * of a kind are that kind's failure in every namespace, as they would be.
 */
export async function readAcrossCluster(
  kas: KasClient,
  kinds: ListableKind[],
  scope: ClusterWideScope,
): Promise<ObjectSource> {
  const { namespaces, labelSelector, bounds } = scope;
  const extraKeys = new Set(
    scope.extraObjects.map(r => refKey(r.group, r.plural, r.namespace, r.name)),
  );
  const reads = new Map<ListableKind, KindRead>();
  await Promise.all(
    namespacedKinds(kinds).map(async kind => {
      const keep = (namespace: string, name: string) =>
        namespaces.has(namespace) ||
        extraKeys.has(refKey(kind.group, kind.plural, namespace, name));
      try {
        const objects = await listKind(kas, kind, {
          labelSelector,
          keep,
          bounds,
        });
        const byNamespace = new Map<string, KubernetesObject[]>();
        const byRef = new Map<string, KubernetesObject>();
        for (const object of objects) {
          const namespace = object.metadata?.namespace ?? '';
          const bucket = byNamespace.get(namespace);
          if (bucket) bucket.push(object);
          else byNamespace.set(namespace, [object]);
          byRef.set(
            refKey(
              kind.group,
              kind.plural,
              namespace,
              object.metadata?.name ?? '',
            ),
            object,
          );
        }
        reads.set(kind, { ok: true, byNamespace, byRef });
      } catch (error) {
        reads.set(kind, { ok: false, error });
      }
    }),
  );

  const direct = kasObjectSource(kas, bounds, labelSelector);
  const isForbidden = (error: unknown) =>
    error instanceof GitlabEnvFailure && error.detail.code === 'KIND_FORBIDDEN';
  const listedKind = (group: string, version: string, plural: string) =>
    kinds.find(
      k => k.group === group && k.version === version && k.plural === plural,
    );

  return {
    async list(kind, namespace) {
      const read = reads.get(kind);
      if (!read || !namespaces.has(namespace))
        return direct.list(kind, namespace);
      if (read.ok) return read.byNamespace.get(namespace) ?? [];
      // RBAC may grant per namespace what it refuses across the cluster.
      if (isForbidden(read.error)) return direct.list(kind, namespace);
      throw read.error;
    },
    async get(ref) {
      const kind = listedKind(ref.group, ref.version, ref.plural);
      const read = kind && reads.get(kind);
      const held =
        namespaces.has(ref.namespace) ||
        extraKeys.has(refKey(ref.group, ref.plural, ref.namespace, ref.name));
      // A label selector narrowed the lists, so absence proves nothing there.
      if (!read?.ok || !held || labelSelector)
        return getObject(kas, ref, bounds);
      return read.byRef.get(
        refKey(ref.group, ref.plural, ref.namespace, ref.name),
      );
    },
  };
}
