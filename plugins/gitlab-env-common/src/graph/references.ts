import { isRecord } from '../k8s/objects';
import { KubernetesObject } from '../types';

// Readers of the names one object refers to. They walk the object in place
// and append to a NameList the caller reuses for every object, so reading
// references allocates nothing once the list has grown. Names may repeat;
// the graph builder adds each edge once anyway.

/**
 * Names read from one object: a reused array, of which the first `count`
 * entries count. The array only grows (shortening an array frees its
 * storage, and the next object would allocate it again).
 */
export class NameList {
  readonly names: string[] = [];
  count = 0;

  /** Appends a non-empty string; ignores anything else. */
  add(value: unknown) {
    if (typeof value !== 'string' || !value) return;
    if (this.count < this.names.length) this.names[this.count] = value;
    else this.names.push(value);
    this.count += 1;
  }
}

const NO_ITEMS: readonly unknown[] = [];
const NO_FIELDS: Readonly<Record<string, any>> = Object.freeze({});

/** The array itself (callers skip its non-record items), or an empty one. */
const items = (value: unknown): readonly unknown[] =>
  Array.isArray(value) ? value : NO_ITEMS;

const specOf = (object: KubernetesObject): Record<string, any> =>
  isRecord(object.spec) ? object.spec : NO_FIELDS;

/** What a Pod refers to by name. */
export type PodReference = 'PersistentVolumeClaim' | 'ConfigMap' | 'Secret';

/**
 * The names of one kind a Pod refers to, in spec order: claims from
 * `persistentVolumeClaim` volumes; ConfigMaps and Secrets from volumes
 * (projected included), then `envFrom` and `env[].valueFrom` of the
 * containers and init containers.
 */
export function podReferenceNames(
  pod: KubernetesObject,
  kind: PodReference,
  into: NameList,
) {
  into.count = 0;
  const spec = specOf(pod);
  const configMap = kind === 'ConfigMap';
  for (const volume of items(spec.volumes)) {
    if (!isRecord(volume)) continue;
    if (kind === 'PersistentVolumeClaim') {
      if (isRecord(volume.persistentVolumeClaim))
        into.add(volume.persistentVolumeClaim.claimName);
      continue;
    }
    if (configMap && isRecord(volume.configMap))
      into.add(volume.configMap.name);
    if (!configMap && isRecord(volume.secret))
      into.add(volume.secret.secretName);
    if (!isRecord(volume.projected)) continue;
    for (const source of items(volume.projected.sources)) {
      if (!isRecord(source)) continue;
      const projected = configMap ? source.configMap : source.secret;
      if (isRecord(projected)) into.add(projected.name);
    }
  }
  if (kind === 'PersistentVolumeClaim') return;
  addContainerReferences(spec.containers, configMap, into);
  addContainerReferences(spec.initContainers, configMap, into);
}

function addContainerReferences(
  containers: unknown,
  configMap: boolean,
  into: NameList,
) {
  for (const container of items(containers)) {
    if (!isRecord(container)) continue;
    for (const from of items(container.envFrom)) {
      if (!isRecord(from)) continue;
      const ref = configMap ? from.configMapRef : from.secretRef;
      if (isRecord(ref)) into.add(ref.name);
    }
    for (const env of items(container.env)) {
      if (!isRecord(env) || !isRecord(env.valueFrom)) continue;
      const { configMapKeyRef, secretKeyRef } = env.valueFrom;
      const ref = configMap ? configMapKeyRef : secretKeyRef;
      if (isRecord(ref)) into.add(ref.name);
    }
  }
}

function addBackend(backend: unknown, into: NameList) {
  if (!isRecord(backend)) return;
  into.add(
    isRecord(backend.service) ? backend.service.name : backend.serviceName,
  );
}

/** Services an Ingress routes to: default backend, legacy backend, rules. */
export function ingressServiceNames(ingress: KubernetesObject, into: NameList) {
  into.count = 0;
  const spec = specOf(ingress);
  addBackend(spec.defaultBackend, into);
  addBackend(spec.backend, into);
  for (const rule of items(spec.rules)) {
    if (!isRecord(rule) || !isRecord(rule.http)) continue;
    for (const path of items(rule.http.paths))
      if (isRecord(path)) addBackend(path.backend, into);
  }
}

/** Template names of a StatefulSet's volumeClaimTemplates. */
export function claimTemplateNames(
  statefulSet: KubernetesObject,
  into: NameList,
) {
  into.count = 0;
  for (const template of items(specOf(statefulSet).volumeClaimTemplates)) {
    if (isRecord(template) && isRecord(template.metadata))
      into.add(template.metadata.name);
  }
}

/**
 * A Service's selector (its string values are the pairs that count);
 * undefined for selector-less Services.
 */
export function serviceSelector(
  service: KubernetesObject,
): Record<string, unknown> | undefined {
  const selector = specOf(service).selector;
  return isRecord(selector) ? selector : undefined;
}
