import {
  FluxResourcePath,
  GitlabEnvError,
  GitlabEnvironment,
  parseFluxResourcePath,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { asGitlabEnvError, failure } from '../errors';
import { isNumericId, quote } from './grammars';
import {
  checkNamespace,
  checkObjectName,
  checkResourceAddress,
  ValueSource,
} from './kubePaths';

/**
 * Checks a Flux resource path
 * (`<group>/<version>/namespaces/<namespace>/<plural>/<name>`) segment by
 * segment; throws INVALID_ENVIRONMENT_SETTING naming the value and its source.
 */
export function checkFluxResourcePath(
  value: string,
  source: ValueSource,
): FluxResourcePath {
  const path = parseFluxResourcePath(value);
  if (!path || value.includes('//') || /^\/|\/$/.test(value)) {
    throw failure(
      'INVALID_ENVIRONMENT_SETTING',
      `${source} has Flux resource path ${quote(
        value,
      )}, which is not <group>/<version>/namespaces/<namespace>/<plural>/<name>.`,
      {
        resource: value.slice(0, 253),
        hint: 'Fix environment:kubernetes:flux_resource_path in .gitlab-ci.yml or the environment settings in GitLab.',
      },
    );
  }
  const where = `${source} (Flux resource path ${quote(value)})`;
  checkResourceAddress(path, where);
  checkNamespace(path.namespace, where);
  checkObjectName(path.name, where);
  return path;
}

/**
 * The values GitLab holds for an environment that end up in URL paths, checked
 * where they enter the backend. A value that breaks its grammar is dropped
 * from the environment and becomes an entry of its `errors`, so nothing
 * downstream can build a path from it; the environment itself stays listed.
 */
export function checkEnvironmentValues(
  environment: GitlabEnvironment,
): GitlabEnvironment {
  const source = `GitLab environment ${environment.name}`;
  const errors: GitlabEnvError[] = [];
  const checked: GitlabEnvironment = { ...environment };
  const attempt = (check: () => void, drop: () => void) => {
    try {
      check();
    } catch (error) {
      errors.push(asGitlabEnvError(error));
      drop();
    }
  };
  if (environment.namespace !== undefined) {
    attempt(
      () => checkNamespace(environment.namespace, source),
      () => delete checked.namespace,
    );
  }
  if (environment.fluxResourcePath !== undefined) {
    attempt(
      () => checkFluxResourcePath(environment.fluxResourcePath!, source),
      () => delete checked.fluxResourcePath,
    );
  }
  if (environment.agent && !isNumericId(environment.agent.id)) {
    errors.push({
      code: 'INVALID_ENVIRONMENT_SETTING',
      message: `${source} has agent id ${quote(
        environment.agent.id,
      )}, which is not a numeric GitLab id.`,
    });
    delete checked.agent;
  }
  if (errors.length > 0)
    checked.errors = [...(environment.errors ?? []), ...errors];
  return checked;
}

/** The first setting GitLab holds that was refused, if any. */
export function invalidSetting(
  environment: GitlabEnvironment,
): GitlabEnvError | undefined {
  return environment.errors?.find(
    e => e.code === 'INVALID_ENVIRONMENT_SETTING',
  );
}
