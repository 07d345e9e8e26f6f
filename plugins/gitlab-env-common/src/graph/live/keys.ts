import { isRecord } from '../../health/conditions';
import { KubernetesObject, ResourceNode } from '../../types';
import { labelsOf } from '../relations/fields';
import { REFERENCE_LABELS } from '../relations/types';

// The keys by which relations look nodes up. The live graph remembers which
// keys each object's inference read; when an object that answers to a key
// appears, changes or goes, the objects that read the key are inferred again.

const SEP = '\u0000';

export const uidKey = (uid: string) => `u${SEP}${uid}`;
export const idKey = (id: string) => `i${SEP}${id}`;
export const kindNameKey = (namespace: string, kind: string, name: string) =>
  `k${SEP}${namespace}${SEP}${kind}${SEP}${name}`;
export const stemKey = (namespace: string, stem: string) =>
  `s${SEP}${namespace}${SEP}${stem}`;
export const podLabelKey = (namespace: string, label: string, value: string) =>
  `p${SEP}${namespace}${SEP}${label}${SEP}${value}`;
export const referenceLabelKey = (label: string, value: string) =>
  `r${SEP}${label}=${value}`;

const ORDINAL_SUFFIX = /-\d+$/;

/** A claim's name without its `-<ordinal>` suffix, as StatefulSets name claims; undefined without one. */
export function claimStem(name: string): string | undefined {
  const ordinal = ORDINAL_SUFFIX.exec(name);
  return ordinal ? name.slice(0, ordinal.index) : undefined;
}

/** What a node answers to, and what of it relations read besides. */
export interface Published {
  uid?: string;
  /** Core PVCs named `<stem>-<ordinal>`. */
  stem?: string;
  /** Core Pods: their string labels. */
  podLabels?: Array<[string, string]>;
  /** REFERENCE_LABELS the object carries, as [label, value]. */
  references: Array<[string, string]>;
  /** Every one of the above and the labels relations read, as one string. */
  signature: string;
}

/** What a node built from an object publishes to the lookups. */
export function publishedOf(
  node: ResourceNode,
  object: KubernetesObject,
): Published {
  const core = node.group === '';
  const published: Published = { references: [], signature: '' };
  if (node.uid) published.uid = node.uid;
  if (core && node.kind === 'PersistentVolumeClaim')
    published.stem = claimStem(node.name);
  const labels = object.metadata?.labels;
  if (isRecord(labels)) {
    if (core && node.kind === 'Pod') {
      published.podLabels = [];
      for (const key of Object.keys(labels)) {
        const value = labels[key];
        if (typeof value === 'string') published.podLabels.push([key, value]);
      }
    }
    for (const label of REFERENCE_LABELS) {
      if (typeof labels[label] === 'string')
        published.references.push([label, labels[label]]);
    }
  }
  published.signature = JSON.stringify([
    published.uid,
    published.stem,
    published.podLabels,
    published.references,
    // A HelmRelease reads this label of what it manages.
    labelsOf(object)['helm.toolkit.fluxcd.io/namespace'],
    // An app.k8s.io Application's selector reads every label of the
    // objects its recommended labels find (see relations/groups.ts).
    published.references.some(([label]) =>
      label.startsWith('app.kubernetes.io/'),
    )
      ? labels
      : undefined,
  ]);
  return published;
}
