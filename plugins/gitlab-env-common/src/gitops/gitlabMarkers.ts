import { GitlabMarkers, KubernetesObject } from '../types';
import { managedResourceLabel } from '../ciAccess/managedResources';
import { annotationsOf, labelsOf } from '../k8s/objects';

const APP_ANNOTATION = 'app.gitlab.com/app';
const ENV_ANNOTATION = 'app.gitlab.com/env';
/** What every managedResourceLabel starts with. */
const MANAGED_LABEL_PREFIX = 'agent.gitlab.com/env-';

/**
 * GitLab's `Gitlab::Utils.slugify`, as in `$CI_PROJECT_PATH_SLUG` and
 * `$CI_COMMIT_REF_SLUG`: lower-cased, every character but a-z and 0-9
 * replaced by `-`, cut to 63 characters, `-` trimmed from both ends.
 *
 * @public
 */
export function gitlabSlugify(path: string): string {
  return path
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '-')
    .slice(0, 63)
    .replace(/^-+|-+$/g, '');
}

/** The markers of one environment of a project. @public */
export function gitlabMarkers(options: {
  projectPath: string;
  environmentSlug: string;
  projectId?: string;
  agentId?: string;
}): GitlabMarkers {
  const { projectId, agentId, environmentSlug } = options;
  return {
    app: gitlabSlugify(options.projectPath),
    env: environmentSlug,
    ...(projectId &&
      agentId && {
        managedLabel: managedResourceLabel(environmentSlug, projectId, agentId),
      }),
  };
}

/**
 * Whose GitLab markers an object carries: 'ours' when they are the
 * environment's, 'other' when they name another environment or project,
 * undefined when it carries none.
 *
 * @public
 */
export function gitlabMarkerMatch(
  object: KubernetesObject,
  markers: GitlabMarkers,
): 'ours' | 'other' | undefined {
  const managed = Object.keys(labelsOf(object)).filter(l =>
    l.startsWith(MANAGED_LABEL_PREFIX),
  );
  if (markers.managedLabel && managed.includes(markers.managedLabel))
    return 'ours';
  const annotations = annotationsOf(object);
  const app = annotations[APP_ANNOTATION];
  const env = annotations[ENV_ANNOTATION];
  if (typeof app === 'string' || typeof env === 'string')
    return app === markers.app && env === markers.env ? 'ours' : 'other';
  return managed.length > 0 ? 'other' : undefined;
}

/** The deploy-board annotations of an object, as `app/env`, when it has them. */
export function gitlabMarkerText(object: KubernetesObject): string | undefined {
  const annotations = annotationsOf(object);
  const app = annotations[APP_ANNOTATION];
  const env = annotations[ENV_ANNOTATION];
  if (typeof app === 'string' || typeof env === 'string')
    return `GitLab environment ${String(env ?? '?')} of ${String(app ?? '?')}`;
  const managed = Object.keys(labelsOf(object)).find(l =>
    l.startsWith(MANAGED_LABEL_PREFIX),
  );
  return (
    managed && `GitLab-managed ${managed.slice('agent.gitlab.com/'.length)}`
  );
}
