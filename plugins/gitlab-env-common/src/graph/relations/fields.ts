import { isRecord } from '../../health/conditions';
import { KubernetesObject } from '../../types';

export const NO_FIELDS: Readonly<Record<string, any>> = Object.freeze({});

/** An object's labels, or none when they are not a record. */
export function labelsOf(
  object: KubernetesObject,
): Readonly<Record<string, any>> {
  const labels = object.metadata?.labels;
  return isRecord(labels) ? labels : NO_FIELDS;
}

/** An object's annotations, or none when they are not a record. */
export function annotationsOf(
  object: KubernetesObject,
): Readonly<Record<string, any>> {
  const annotations = object.metadata?.annotations;
  return isRecord(annotations) ? annotations : NO_FIELDS;
}
