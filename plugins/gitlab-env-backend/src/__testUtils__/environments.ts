import { GitlabEnvironment } from '@gitlab-env/backstage-plugin-gitlab-env-common';

/** An environment as the locator gives it: on agent 3, in namespace `shared`, from GitLab's settings. */
export const gitlabEnvironment = (
  name: string,
  extra: Partial<GitlabEnvironment> = {},
): GitlabEnvironment => ({
  id: name,
  name,
  slug: name,
  tier: 'development',
  state: 'available',
  agent: { id: '3', name: 'nonprod' },
  namespace: 'shared',
  namespaceSource: { source: 'gitlab' },
  ...extra,
});
