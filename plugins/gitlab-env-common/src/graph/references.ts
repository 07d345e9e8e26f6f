import { isRecord } from '../health/conditions';
import { KubernetesObject } from '../types';

function records(value: unknown): Record<string, any>[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

const name = (value: unknown) =>
  typeof value === 'string' && value ? value : undefined;

/** Names of the ConfigMaps and Secrets a Pod reads: volumes, envFrom, env. */
export function podConfigReferences(pod: KubernetesObject): {
  configMaps: string[];
  secrets: string[];
} {
  const configMaps = new Set<string>();
  const secrets = new Set<string>();
  const add = (set: Set<string>, value: unknown) => {
    const n = name(value);
    if (n) set.add(n);
  };
  const spec = isRecord(pod.spec) ? pod.spec : {};
  for (const volume of records(spec.volumes)) {
    if (isRecord(volume.configMap)) add(configMaps, volume.configMap.name);
    if (isRecord(volume.secret)) add(secrets, volume.secret.secretName);
    if (isRecord(volume.projected)) {
      for (const source of records(volume.projected.sources)) {
        if (isRecord(source.configMap)) add(configMaps, source.configMap.name);
        if (isRecord(source.secret)) add(secrets, source.secret.name);
      }
    }
  }
  for (const container of [
    ...records(spec.containers),
    ...records(spec.initContainers),
  ]) {
    for (const from of records(container.envFrom)) {
      if (isRecord(from.configMapRef)) add(configMaps, from.configMapRef.name);
      if (isRecord(from.secretRef)) add(secrets, from.secretRef.name);
    }
    for (const env of records(container.env)) {
      if (!isRecord(env.valueFrom)) continue;
      if (isRecord(env.valueFrom.configMapKeyRef))
        add(configMaps, env.valueFrom.configMapKeyRef.name);
      if (isRecord(env.valueFrom.secretKeyRef))
        add(secrets, env.valueFrom.secretKeyRef.name);
    }
  }
  return { configMaps: [...configMaps], secrets: [...secrets] };
}

/** Claims a Pod mounts. */
export function podClaimNames(pod: KubernetesObject): string[] {
  const spec = isRecord(pod.spec) ? pod.spec : {};
  return records(spec.volumes)
    .map(v =>
      isRecord(v.persistentVolumeClaim)
        ? name(v.persistentVolumeClaim.claimName)
        : undefined,
    )
    .filter((n): n is string => !!n);
}

/** Services an Ingress routes to: rules, default backend, legacy backends. */
export function ingressServiceNames(ingress: KubernetesObject): string[] {
  const spec = isRecord(ingress.spec) ? ingress.spec : {};
  const backends = [spec.defaultBackend, spec.backend];
  for (const rule of records(spec.rules)) {
    if (!isRecord(rule.http)) continue;
    for (const path of records(rule.http.paths)) backends.push(path.backend);
  }
  const names = new Set<string>();
  for (const backend of backends) {
    if (!isRecord(backend)) continue;
    const n = name(
      isRecord(backend.service) ? backend.service.name : backend.serviceName,
    );
    if (n) names.add(n);
  }
  return [...names];
}

/** Template names of a StatefulSet's volumeClaimTemplates. */
export function claimTemplateNames(statefulSet: KubernetesObject): string[] {
  const spec = isRecord(statefulSet.spec) ? statefulSet.spec : {};
  return records(spec.volumeClaimTemplates)
    .map(t => (isRecord(t.metadata) ? name(t.metadata.name) : undefined))
    .filter((n): n is string => !!n);
}

/** A Service's selector as key=value pairs; empty for selector-less Services. */
export function serviceSelector(
  service: KubernetesObject,
): Array<[string, string]> {
  const spec = isRecord(service.spec) ? service.spec : {};
  if (!isRecord(spec.selector)) return [];
  return Object.entries(spec.selector).filter(
    (entry): entry is [string, string] => typeof entry[1] === 'string',
  );
}

export { records };
