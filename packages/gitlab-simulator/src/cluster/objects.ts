import { KubeObject } from '../scenario/types';
import { isoSeconds, parseAge, stableUid } from './ids';

/** Annotations a scenario manifest may carry to steer the expander. */
export const SIM_ANNOTATIONS = {
  /** Workload behaviour, e.g. `crashloop`, `progressing`, `image-pull`, `node-lost`, `paused`, `failed`. */
  state: 'simulator.gitlab-env/state',
  /** How long ago the object was created: `90s`, `20m`, `5h`, `3d`. */
  age: 'simulator.gitlab-env/age',
  /** Deployment revision; above 1 leaves an old ReplicaSet scaled to 0 behind. */
  revision: 'simulator.gitlab-env/revision',
  /** CronJob: how many finished Jobs to keep. */
  history: 'simulator.gitlab-env/history',
};

export function annotation(
  object: KubeObject,
  key: string,
): string | undefined {
  return object.metadata.annotations?.[key];
}

/** The `simulator.gitlab-env/state` of a workload, `healthy` if unset. */
export function simState(object: KubeObject): string {
  return annotation(object, SIM_ANNOTATIONS.state) ?? 'healthy';
}

/** What every expanded object shares: a cluster-wide seed and a clock. */
export interface ExpandContext {
  /** Distinguishes clusters so equal manifests get different uids. */
  cluster: string;
  now: Date;
  nodes: string[];
}

/** Creation time from the `age` annotation, else `defaultAgeMs` before now. */
export function createdAt(
  object: KubeObject,
  ctx: ExpandContext,
  defaultAgeMs: number,
): Date {
  const age = parseAge(annotation(object, SIM_ANNOTATIONS.age)) ?? defaultAgeMs;
  return new Date(ctx.now.getTime() - age);
}

export function objectSeed(ctx: ExpandContext, object: KubeObject): string {
  const { namespace = '', name } = object.metadata;
  return `${ctx.cluster}/${object.apiVersion}/${object.kind}/${namespace}/${name}`;
}

/** Fills the metadata the API server writes on create (uid, timestamps, generation). */
export function withServerMetadata(
  object: KubeObject,
  ctx: ExpandContext,
  created: Date,
): KubeObject {
  const metadata = {
    ...object.metadata,
    uid: object.metadata.uid ?? stableUid(objectSeed(ctx, object)),
    creationTimestamp: object.metadata.creationTimestamp ?? isoSeconds(created),
  };
  if (object.spec !== undefined && metadata.generation === undefined) {
    metadata.generation = 1;
  }
  return { ...object, metadata };
}

/** An ownerReference as the built-in controllers write it. */
export function controllerRef(owner: KubeObject) {
  return {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.metadata.name,
    uid: owner.metadata.uid!,
    controller: true,
    blockOwnerDeletion: true,
  };
}

export function isControlledBy(object: KubeObject, owner: KubeObject): boolean {
  return (object.metadata.ownerReferences ?? []).some(
    ref => ref.controller && ref.uid === owner.metadata.uid,
  );
}

/** A deep copy of a JSON value (objects arrive from YAML/JSON, so no cycles or class instances). */
export function deepClone<T>(value: T): T {
  if (Array.isArray(value)) {
    return value.map(deepClone) as unknown as T;
  }
  if (value !== null && typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      copy[key] = deepClone((value as Record<string, unknown>)[key]);
    }
    return copy as T;
  }
  return value;
}

/** Labels as a `k=v,k2=v2` selector string (what Scale.status.selector holds). */
export function selectorString(labels: Record<string, string> = {}): string {
  return Object.entries(labels)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
}
