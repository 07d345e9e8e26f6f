/**
 * Grape's parameter validation as GitLab's REST API answers it: a value
 * outside `values:` is 400 `{"error":"<name> does not have a valid value"}`,
 * an unparsable DateTime 400 `{"error":"<name> is invalid"}`, a missing
 * required one 400 `{"error":"<name> is missing"}`.
 */

export class ParamError extends Error {
  readonly body: { error: string };

  constructor(error: string) {
    super(error);
    this.body = { error };
  }
}

export function enumParam<T extends string>(
  url: URL,
  name: string,
  values: readonly T[],
  fallback: T,
): T;
export function enumParam<T extends string>(
  url: URL,
  name: string,
  values: readonly T[],
): T | undefined;
export function enumParam<T extends string>(
  url: URL,
  name: string,
  values: readonly T[],
  fallback?: T,
): T | undefined {
  const value = url.searchParams.get(name);
  if (value === null) return fallback;
  if (!(values as readonly string[]).includes(value)) {
    throw new ParamError(`${name} does not have a valid value`);
  }
  return value as T;
}

export function dateParam(url: URL, name: string): number | undefined {
  const value = url.searchParams.get(name);
  if (value === null || value === '') return undefined;
  const parsed = Date.parse(value);
  if (!Number.isFinite(parsed)) throw new ParamError(`${name} is invalid`);
  return parsed;
}

export function requiredParam(url: URL, name: string): string {
  const value = url.searchParams.get(name);
  if (value === null || value === '')
    throw new ParamError(`${name} is missing`);
  return value;
}

/** Grape's Boolean coercion: true/false/1/0 (case-insensitive), else invalid. */
export function booleanParam(url: URL, name: string): boolean | undefined {
  const value = url.searchParams.get(name);
  if (value === null || value === '') return undefined;
  if (/^(true|1)$/i.test(value)) return true;
  if (/^(false|0)$/i.test(value)) return false;
  throw new ParamError(`${name} is invalid`);
}
