import {
  GitlabEnvError,
  parseFluxResourcePath,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';

/** Kinds an environment's page cannot do without: their refusal is always a warning. */
const NEEDED_KINDS = new Set(['Pod', 'apps/Deployment']);

function kindOf(resource: string): string {
  return resource.slice(resource.lastIndexOf('/') + 1);
}

/**
 * Marks RBAC refusals of kinds the agents deny on purpose (`expected`, e.g.
 * Secrets) as information; a refusal of Pods, Deployments or the
 * environment's Flux object stays a warning whatever the configuration says.
 * `expected` entries are `Kind` or `group/Kind`, as `resource` labels are.
 */
export function markExpectedRefusals(
  errors: GitlabEnvError[],
  expected: string[],
  fluxResourcePath?: string,
): GitlabEnvError[] {
  const flux = fluxResourcePath && parseFluxResourcePath(fluxResourcePath);
  const fluxLabel = flux ? `${flux.group}/${flux.kind}` : undefined;
  return errors.map(error => {
    const resource = error.resource;
    if (error.code !== 'KIND_FORBIDDEN' || !resource) return error;
    if (NEEDED_KINDS.has(resource) || resource === fluxLabel) return error;
    const listed = expected.some(
      e => e === resource || (!e.includes('/') && e === kindOf(resource)),
    );
    return listed ? { ...error, expected: true } : error;
  });
}
