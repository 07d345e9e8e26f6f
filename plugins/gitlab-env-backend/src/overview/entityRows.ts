import {
  Entity,
  parseEntityRef,
  stringifyEntityRef,
} from '@backstage/catalog-model';
import {
  EnvironmentResourcesResponse,
  GitlabEnvironment,
  OverviewHealthLine,
  OverviewRow,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { asGitlabEnvError } from '../errors';
import { GitlabEnvironmentsService } from '../facade';
import { invalidSetting } from '../validation';
import { missingKubernetesSetting } from '../locating/kubernetesSettings';

function relationRef(
  entity: Entity,
  value: unknown,
  defaultKind: string,
): string | undefined {
  if (typeof value !== 'string' || !value) return undefined;
  try {
    return stringifyEntityRef(
      parseEntityRef(value, {
        defaultKind,
        defaultNamespace: entity.metadata.namespace ?? 'default',
      }),
    );
  } catch {
    return undefined;
  }
}

/**
 * One overview row per environment of an entity, listed with the same
 * service (and cache) as the entity tab. Rows that can be read come back
 * `pending`; readRowHealth settles them. A failure never escapes: it becomes
 * the row's typed error, so one bad entity cannot blank the page.
 */
export async function listEntityRows(
  service: GitlabEnvironmentsService,
  entity: Entity,
  signal?: AbortSignal,
): Promise<OverviewRow[]> {
  const base = {
    entityRef: stringifyEntityRef(entity),
    entityTitle: entity.metadata.title,
    owner: relationRef(entity, entity.spec?.owner, 'group'),
    system: relationRef(entity, entity.spec?.system, 'system'),
  };
  let listed;
  try {
    listed = await service.listEnvironments(entity, {
      withHealth: false,
      signal,
    });
  } catch (error) {
    return [{ ...base, errors: [asGitlabEnvError(error)] }];
  }
  return listed.environments.map(environment => {
    const row: OverviewRow = {
      ...base,
      project: listed.project,
      environment,
      errors: [],
    };
    const missing = missingKubernetesSetting(environment);
    // A value GitLab gave that failed validation was dropped: name it, not
    // the gap it left.
    const refused = invalidSetting(environment);
    // A namespace GitLab does not give may come from the agent's cluster:
    // the row's read says whether one did.
    if (missing && (refused || missing.detail.code !== 'NO_NAMESPACE')) {
      row.errors.push(refused ?? missing.detail);
    } else {
      row.pending = true;
    }
    return row;
  });
}

/**
 * The health of a pending row: the same cached resource read as the entity
 * tab's, so the overview and the tab never disagree and warm the cache for
 * each other. `answer`: the read already started for it (readAhead), else
 * the row is read now. `ended` rejects when the stream ends (its deadline):
 * the row then stops waiting.
 */
export async function readRowHealth(
  service: Pick<GitlabEnvironmentsService, 'getEnvironmentResources'>,
  entity: Entity,
  environment: GitlabEnvironment,
  signal: AbortSignal,
  answer: Promise<EnvironmentResourcesResponse> | undefined,
  ended: Promise<never>,
): Promise<OverviewHealthLine> {
  const line: OverviewHealthLine = {
    type: 'health',
    entityRef: stringifyEntityRef(entity),
    environmentId: environment.id,
    errors: [],
  };
  try {
    // The stream's deadline ends the wait for an answer started earlier too.
    const read = await Promise.race([
      answer ??
        service.getEnvironmentResources(entity, environment.slug, { signal }),
      ended,
    ]);
    line.health = read.health;
    line.errors = read.errors;
  } catch (error) {
    line.errors.push(asGitlabEnvError(error));
  }
  return line;
}
