import { KubernetesObject } from '../../types';

/** A copy of an object with the value at a dotted path replaced (missing parents made). */
export function replaceField(
  object: KubernetesObject,
  path: string,
  value: unknown,
): KubernetesObject {
  const copy = structuredClone(object) as Record<string, any>;
  const keys = path.split('.');
  let target = copy;
  for (const key of keys.slice(0, -1)) {
    if (typeof target[key] !== 'object' || target[key] === null)
      target[key] = {};
    target = target[key];
  }
  target[keys[keys.length - 1]] = structuredClone(value);
  return copy as KubernetesObject;
}
