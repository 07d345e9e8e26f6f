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

/** The names a Pod refers to, by kind, each in spec order. */
export interface PodReferences {
  /** Claims of `persistentVolumeClaim` volumes. */
  readonly claims: NameList;
  /** From volumes (projected included), then `envFrom` and `env[].valueFrom` of the containers and init containers. */
  readonly configMaps: NameList;
  readonly secrets: NameList;
}

const podReferences: PodReferences = {
  claims: new NameList(),
  configMaps: new NameList(),
  secrets: new NameList(),
};
let lastPod: KubernetesObject | undefined;

/**
 * The names a Pod refers to. The relations that read them (mounts, uses)
 * ask in turn for the same Pod, so one walk of it serves them all: the
 * lists hold the last Pod asked for until another is.
 */
export function podReferencesOf(pod: KubernetesObject): PodReferences {
  if (pod === lastPod) return podReferences;
  const { claims, configMaps, secrets } = podReferences;
  claims.count = 0;
  configMaps.count = 0;
  secrets.count = 0;
  const spec = specOf(pod);
  for (const volume of items(spec.volumes)) {
    if (!isRecord(volume)) continue;
    if (isRecord(volume.persistentVolumeClaim))
      claims.add(volume.persistentVolumeClaim.claimName);
    if (isRecord(volume.configMap)) configMaps.add(volume.configMap.name);
    if (isRecord(volume.secret)) secrets.add(volume.secret.secretName);
    if (!isRecord(volume.projected)) continue;
    for (const source of items(volume.projected.sources)) {
      if (!isRecord(source)) continue;
      if (isRecord(source.configMap)) configMaps.add(source.configMap.name);
      if (isRecord(source.secret)) secrets.add(source.secret.name);
    }
  }
  addContainerReferences(spec.containers, configMaps, secrets);
  addContainerReferences(spec.initContainers, configMaps, secrets);
  lastPod = pod;
  return podReferences;
}

function addContainerReferences(
  containers: unknown,
  configMaps: NameList,
  secrets: NameList,
) {
  for (const container of items(containers)) {
    if (!isRecord(container)) continue;
    for (const from of items(container.envFrom)) {
      if (!isRecord(from)) continue;
      if (isRecord(from.configMapRef)) configMaps.add(from.configMapRef.name);
      if (isRecord(from.secretRef)) secrets.add(from.secretRef.name);
    }
    for (const env of items(container.env)) {
      if (!isRecord(env) || !isRecord(env.valueFrom)) continue;
      const { configMapKeyRef, secretKeyRef } = env.valueFrom;
      if (isRecord(configMapKeyRef)) configMaps.add(configMapKeyRef.name);
      if (isRecord(secretKeyRef)) secrets.add(secretKeyRef.name);
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
