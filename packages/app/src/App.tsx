import { createApp } from '@backstage/frontend-defaults';
import catalogPlugin from '@backstage/plugin-catalog/alpha';
import kubernetesPlugin from '@backstage/plugin-kubernetes/alpha';
import gitlabEnvPlugin from '@gitlab-env/backstage-plugin-gitlab-env/alpha';
import { guestSignInModule } from './modules/guestSignIn';
import { kubernetesGitlabAgentAuthModule } from './modules/kubernetesGitlabAgentAuth';

/**
 * The demo portal, on Backstage's new frontend system: the catalog, the
 * gitlab-env plugin (the entity tab and the deployment overview page), the
 * Backstage Kubernetes plugin's tab (its clusters behind the GitLab agents) and a
 * guest sign-in page for the local default.
 */
export default createApp({
  features: [
    catalogPlugin,
    gitlabEnvPlugin,
    kubernetesPlugin,
    kubernetesGitlabAgentAuthModule,
    guestSignInModule,
  ],
});
