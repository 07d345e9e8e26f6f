/** Patch formats the API server accepts (RFC 7386 merge, RFC 6902 JSON patch). */

export class PatchError extends Error {}

function isObject(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** RFC 7386: objects merge recursively, `null` deletes, anything else replaces. */
export function mergePatch(target: any, patch: any): any {
  if (!isObject(patch)) {
    return patch;
  }
  const result: Record<string, any> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) {
      delete result[key];
    } else {
      result[key] = mergePatch(result[key], value);
    }
  }
  return result;
}

/** A map patch's `$`-directives and `$setElementOrder/…` keys are not fields. */
function withoutDirectives(patch: Record<string, any>): Record<string, any> {
  return Object.fromEntries(
    Object.entries(patch)
      .filter(([key]) => !key.startsWith('$'))
      .map(([key, value]) => [key, stripDirectives(value)]),
  );
}

function stripDirectives(value: any): any {
  if (Array.isArray(value)) return value.map(stripDirectives);
  return isObject(value) ? withoutDirectives(value) : value;
}

/**
 * Strategic merge patch, approximated: maps merge like a merge patch, and
 * lists of named items (containers, ports, env...) merge by `name` like
 * Kubernetes' `patchMergeKey: name`; other lists are replaced. The
 * directives of `staging/src/k8s.io/apimachinery/pkg/util/strategicpatch/patch.go`
 * that clients send are honoured: a map with `$patch: replace` replaces the
 * map whole (what `kubectl rollout undo` sends for a StatefulSet or
 * DaemonSet: a ControllerRevision's `data`), `$patch: delete` removes it,
 * and a `{"$patch": "replace"}` element replaces the whole list.
 */
export function strategicMergePatch(target: any, patch: any): any {
  if (Array.isArray(patch)) {
    if (patch.some(i => isObject(i) && i.$patch === 'replace')) {
      return stripDirectives(
        patch.filter(i => !(isObject(i) && i.$patch === 'replace')),
      );
    }
    if (Array.isArray(target) && patch.every(i => isObject(i) && 'name' in i)) {
      const deleted = (p: any) => p.$patch === 'delete';
      const merged = target.flatMap(item => {
        const change = patch.find(p => p.name === item?.name);
        if (!change) return [item];
        return deleted(change) ? [] : [strategicMergePatch(item, change)];
      });
      const added = patch
        .filter(p => !deleted(p) && !target.some(t => t?.name === p.name))
        .map(stripDirectives);
      return [...merged, ...added];
    }
    return stripDirectives(patch);
  }
  if (!isObject(patch)) {
    return patch;
  }
  if (patch.$patch === 'replace') return withoutDirectives(patch);
  const result: Record<string, any> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (key.startsWith('$')) continue;
    if (value === null || (isObject(value) && value.$patch === 'delete')) {
      delete result[key];
    } else {
      result[key] = strategicMergePatch(result[key], value);
    }
  }
  return result;
}

function parsePointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) {
    throw new PatchError(`invalid JSON pointer "${path}"`);
  }
  return path
    .slice(1)
    .split('/')
    .map(p => p.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function parentOf(
  doc: any,
  tokens: string[],
  path: string,
): { parent: any; key: string } {
  let node = doc;
  for (const token of tokens.slice(0, -1)) {
    node = Array.isArray(node) ? node[Number(token)] : node?.[token];
    if (typeof node !== 'object' || node === null) {
      throw new PatchError(`doc is missing path: "${path}": missing value`);
    }
  }
  return { parent: node, key: tokens[tokens.length - 1] };
}

function read(doc: any, path: string): any {
  let node = doc;
  for (const token of parsePointer(path)) {
    node = Array.isArray(node) ? node[Number(token)] : node?.[token];
    if (node === undefined) {
      throw new PatchError(`doc is missing path: "${path}": missing value`);
    }
  }
  return node;
}

function addAt(doc: any, path: string, value: any): any {
  const tokens = parsePointer(path);
  if (tokens.length === 0) return value;
  const { parent, key } = parentOf(doc, tokens, path);
  if (Array.isArray(parent)) {
    const index = key === '-' ? parent.length : Number(key);
    if (!Number.isInteger(index) || index < 0 || index > parent.length) {
      throw new PatchError(`index out of bounds in "${path}"`);
    }
    parent.splice(index, 0, value);
  } else {
    parent[key] = value;
  }
  return doc;
}

function removeAt(doc: any, path: string): any {
  const tokens = parsePointer(path);
  const { parent, key } = parentOf(doc, tokens, path);
  if (Array.isArray(parent)) {
    const index = Number(key);
    if (!(index >= 0 && index < parent.length)) {
      throw new PatchError(`index out of bounds in "${path}"`);
    }
    parent.splice(index, 1);
  } else {
    if (!(key in parent)) {
      throw new PatchError(
        `Unable to remove nonexistent key: ${key}: missing value`,
      );
    }
    delete parent[key];
  }
  return doc;
}

/** RFC 6902 JSON patch; returns a new document, the input is not changed. */
export function jsonPatch(target: any, operations: unknown): any {
  if (!Array.isArray(operations)) {
    throw new PatchError('json patch must be an array of operations');
  }
  let doc = JSON.parse(JSON.stringify(target));
  for (const op of operations) {
    const { path, value, from } = op ?? {};
    switch (op?.op) {
      case 'add':
        doc = addAt(doc, path, value);
        break;
      case 'remove':
        doc = removeAt(doc, path);
        break;
      case 'replace':
        read(doc, path);
        doc = addAt(removeAt(doc, path), path, value);
        break;
      case 'move': {
        const moved = read(doc, from);
        doc = addAt(removeAt(doc, from), path, moved);
        break;
      }
      case 'copy':
        doc = addAt(doc, path, JSON.parse(JSON.stringify(read(doc, from))));
        break;
      case 'test':
        if (JSON.stringify(read(doc, path)) !== JSON.stringify(value)) {
          throw new PatchError(`testing value ${path} failed`);
        }
        break;
      default:
        throw new PatchError(`Unexpected kind: ${op?.op}`);
    }
  }
  return doc;
}
