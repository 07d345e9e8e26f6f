import { makeValidator } from '@backstage/catalog-model';
import express from 'express';
import { failure } from '../errors';
import { isEnvironmentSlug, quote } from '../validation';

const entityRefValidator = makeValidator();

/**
 * The route's entity ref and slug, checked before anything else: a value
 * the catalog or GitLab could never hold is the caller's mistake
 * (INVALID_REQUEST), not an upstream failure.
 */
export function routeParams(req: express.Request) {
  const { namespace, kind, name, slug } = req.params;
  const bad = (what: string, value: string, rule: string) =>
    failure(
      'INVALID_REQUEST',
      `The request's ${what} ${quote(value)} is not ${rule}.`,
      { hint: 'Open the entity again from the catalog.' },
    );
  if (!entityRefValidator.isValidNamespace(namespace))
    throw bad('entity namespace', namespace, 'a valid catalog namespace');
  if (!entityRefValidator.isValidKind(kind))
    throw bad('entity kind', kind, 'a valid catalog kind');
  if (!entityRefValidator.isValidEntityName(name))
    throw bad('entity name', name, 'a valid catalog entity name');
  if (slug !== undefined && !isEnvironmentSlug(slug))
    throw bad(
      'environment slug',
      slug,
      'a GitLab environment slug (lower-case letters, digits and -, at most 24)',
    );
  return { namespace, kind, name, slug };
}

/** Aborted when the client goes away before the answer is written: its reads then stop. */
export function clientSignal(res: express.Response): AbortSignal {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}
