import { isRecord } from '../health/conditions';
import { KubernetesObject } from '../types';

// Readers of the names one object refers to. They walk the object in place
// and return one flat list: no filtered copies of arrays, no Sets. Names may
// repeat; the graph builder adds each edge once anyway.

const NO_ITEMS: readonly unknown[] = [];
const NO_FIELDS: Readonly<Record<string, any>> = Object.freeze({});

/** The array itself (callers skip its non-record items), or an empty one. */
const items = (value: unknown): readonly unknown[] =>
  Array.isArray(value) ? value : NO_ITEMS;

const specOf = (object: KubernetesObject): Record<string, any> =>
  isRecord(object.spec) ? object.spec : NO_FIELDS;

/** Appends a non-empty string name. */
function addName(names: string[], value: unknown) {
  if (typeof value === 'string' && value) names.push(value);
}

/** Names of the ConfigMaps and Secrets a Pod reads: volumes, envFrom, env. */
export function podConfigReferences(pod: KubernetesObject): {
  configMaps: string[];
  secrets: string[];
} {
  const configMaps: string[] = [];
  const secrets: string[] = [];
  const spec = specOf(pod);
  for (const volume of items(spec.volumes)) {
    if (!isRecord(volume)) continue;
    if (isRecord(volume.configMap)) addName(configMaps, volume.configMap.name);
    if (isRecord(volume.secret)) addName(secrets, volume.secret.secretName);
    if (!isRecord(volume.projected)) continue;
    for (const source of items(volume.projected.sources)) {
      if (!isRecord(source)) continue;
      if (isRecord(source.configMap))
        addName(configMaps, source.configMap.name);
      if (isRecord(source.secret)) addName(secrets, source.secret.name);
    }
  }
  for (const containers of [spec.containers, spec.initContainers]) {
    for (const container of items(containers)) {
      if (!isRecord(container)) continue;
      for (const from of items(container.envFrom)) {
        if (!isRecord(from)) continue;
        if (isRecord(from.configMapRef))
          addName(configMaps, from.configMapRef.name);
        if (isRecord(from.secretRef)) addName(secrets, from.secretRef.name);
      }
      for (const env of items(container.env)) {
        if (!isRecord(env) || !isRecord(env.valueFrom)) continue;
        const { configMapKeyRef, secretKeyRef } = env.valueFrom;
        if (isRecord(configMapKeyRef))
          addName(configMaps, configMapKeyRef.name);
        if (isRecord(secretKeyRef)) addName(secrets, secretKeyRef.name);
      }
    }
  }
  return { configMaps, secrets };
}

/** Claims a Pod mounts. */
export function podClaimNames(pod: KubernetesObject): string[] {
  const names: string[] = [];
  for (const volume of items(specOf(pod).volumes)) {
    if (isRecord(volume) && isRecord(volume.persistentVolumeClaim))
      addName(names, volume.persistentVolumeClaim.claimName);
  }
  return names;
}

function addBackend(names: string[], backend: unknown) {
  if (!isRecord(backend)) return;
  addName(
    names,
    isRecord(backend.service) ? backend.service.name : backend.serviceName,
  );
}

/** Services an Ingress routes to: default backend, legacy backend, rules. */
export function ingressServiceNames(ingress: KubernetesObject): string[] {
  const spec = specOf(ingress);
  const names: string[] = [];
  addBackend(names, spec.defaultBackend);
  addBackend(names, spec.backend);
  for (const rule of items(spec.rules)) {
    if (!isRecord(rule) || !isRecord(rule.http)) continue;
    for (const path of items(rule.http.paths))
      if (isRecord(path)) addBackend(names, path.backend);
  }
  return names;
}

/** Template names of a StatefulSet's volumeClaimTemplates. */
export function claimTemplateNames(statefulSet: KubernetesObject): string[] {
  const names: string[] = [];
  for (const template of items(specOf(statefulSet).volumeClaimTemplates)) {
    if (isRecord(template) && isRecord(template.metadata))
      addName(names, template.metadata.name);
  }
  return names;
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
