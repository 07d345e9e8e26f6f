import { isRecord } from '../k8s/objects';
import { groupOfApiVersion } from '../k8s/resourceId';
import { KubernetesObject, PromotionDifference } from '../types';
import { templateImages } from './workloadRevisions';

/** Workload kinds by API group, and where each keeps its pod template. */
const WORKLOADS: Record<string, (o: KubernetesObject) => unknown> = {
  'apps/Deployment': o => o.spec?.template,
  'apps/StatefulSet': o => o.spec?.template,
  'apps/DaemonSet': o => o.spec?.template,
  'batch/CronJob': o => o.spec?.jobTemplate?.spec?.template,
};
const MAX_VALUE = 200;

function workloadKey(o: KubernetesObject): string | undefined {
  const key = `${groupOfApiVersion(o.apiVersion)}/${o.kind}`;
  return WORKLOADS[key] ? key : undefined;
}

/** Workload images of an environment: `<Kind>/<name>/<container>` → image. @public */
export function environmentImages(
  objects: readonly KubernetesObject[],
): Record<string, string> {
  const images: Record<string, string> = {};
  for (const o of objects) {
    const key = workloadKey(o);
    if (!key || !o.metadata?.name) continue;
    for (const [container, image] of Object.entries(
      templateImages(WORKLOADS[key](o)),
    ))
      images[`${o.kind}/${o.metadata.name}/${container}`] = image;
  }
  return images;
}

function byKindAndName(
  objects: readonly KubernetesObject[],
  keep: (o: KubernetesObject) => boolean,
): Map<string, KubernetesObject> {
  const map = new Map<string, KubernetesObject>();
  for (const o of objects)
    if (keep(o) && o.metadata?.name) map.set(`${o.kind}/${o.metadata.name}`, o);
  return map;
}

/** The objects of both sides by kind and name, each pair once, in name order. */
function paired(
  a: Map<string, KubernetesObject>,
  b: Map<string, KubernetesObject>,
) {
  return [...new Set([...a.keys(), ...b.keys()])].sort().map(id => {
    const one = (a.get(id) ?? b.get(id))!;
    return {
      object: { kind: String(one.kind), name: String(one.metadata!.name) },
      a: a.get(id),
      b: b.get(id),
    };
  });
}

const presence = (object: KubernetesObject | undefined) =>
  object ? 'present' : 'absent';

function shown(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

const isCore = (kind: string) => (o: KubernetesObject) =>
  groupOfApiVersion(o.apiVersion) === '' && o.kind === kind;

/**
 * What promoting one environment to another would change, as their live
 * objects differ: workloads (matched by kind and name, namespaces aside),
 * their images per container and replica counts, and configuration keys —
 * ConfigMap values, and for Secrets only which keys exist, never a value
 * (the backend never holds one: it redacts them on read).
 *
 * @public
 */
export function promotionDiff(
  from: readonly KubernetesObject[],
  to: readonly KubernetesObject[],
): PromotionDifference[] {
  const differences: PromotionDifference[] = [];
  const fromWorkloads = byKindAndName(from, o => !!workloadKey(o));
  const toWorkloads = byKindAndName(to, o => !!workloadKey(o));
  for (const { object, a, b } of paired(fromWorkloads, toWorkloads)) {
    if (!a || !b) {
      differences.push({
        object,
        aspect: 'workload',
        from: presence(a),
        to: presence(b),
      });
      continue;
    }
    const template = WORKLOADS[workloadKey(a)!];
    const imagesA = templateImages(template(a));
    const imagesB = templateImages(template(b));
    for (const container of [
      ...new Set([...Object.keys(imagesA), ...Object.keys(imagesB)]),
    ].sort())
      if (imagesA[container] !== imagesB[container])
        differences.push({
          object,
          aspect: 'image',
          what: `container ${container}`,
          from: imagesA[container],
          to: imagesB[container],
        });
    const replicasA = a.spec?.replicas;
    const replicasB = b.spec?.replicas;
    if (
      replicasA !== replicasB &&
      (replicasA !== undefined || replicasB !== undefined)
    )
      differences.push({
        object,
        aspect: 'replicas',
        from: replicasA === undefined ? undefined : String(replicasA),
        to: replicasB === undefined ? undefined : String(replicasB),
      });
  }
  for (const [kind, secret] of [
    ['ConfigMap', false],
    ['Secret', true],
  ] as const) {
    const mapA = byKindAndName(from, isCore(kind));
    const mapB = byKindAndName(to, isCore(kind));
    for (const { object, a, b } of paired(mapA, mapB)) {
      if (!a || !b) {
        differences.push({
          object,
          aspect: 'config',
          from: presence(a),
          to: presence(b),
          ...(secret && { secret }),
        });
        continue;
      }
      const data = (o: KubernetesObject) => ({
        ...(isRecord((o as any).data) ? (o as any).data : {}),
        ...(isRecord((o as any).binaryData) ? (o as any).binaryData : {}),
        ...(isRecord((o as any).stringData) ? (o as any).stringData : {}),
      });
      const dataA = data(a);
      const dataB = data(b);
      for (const key of [
        ...new Set([...Object.keys(dataA), ...Object.keys(dataB)]),
      ].sort()) {
        const inA = key in dataA;
        const inB = key in dataB;
        if (secret) {
          if (inA !== inB)
            differences.push({
              object,
              aspect: 'config',
              what: `key ${key}`,
              from: inA ? 'set' : 'absent',
              to: inB ? 'set' : 'absent',
              secret,
            });
        } else if (
          !inA ||
          !inB ||
          JSON.stringify(dataA[key]) !== JSON.stringify(dataB[key])
        ) {
          differences.push({
            object,
            aspect: 'config',
            what: `key ${key}`,
            from: inA ? shown(dataA[key]) : undefined,
            to: inB ? shown(dataB[key]) : undefined,
          });
        }
      }
    }
  }
  return differences;
}
