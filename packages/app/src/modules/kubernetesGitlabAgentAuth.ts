import {
  ApiBlueprint,
  createFrontendModule,
  gitlabAuthApiRef,
  googleAuthApiRef,
  microsoftAuthApiRef,
  oktaAuthApiRef,
  oneloginAuthApiRef,
} from '@backstage/frontend-plugin-api';
import {
  KubernetesAuthProviders,
  KubernetesAuthProvidersApi,
  kubernetesAuthProvidersApiRef,
  ServerSideKubernetesAuthProvider,
} from '@backstage/plugin-kubernetes-react';

/**
 * The Kubernetes plugin's frontend asks each cluster's auth provider how to
 * authenticate; clusters behind GitLab agents (`gitlabAgent`, from
 * kubernetes-backend-module-gitlab-env) are authenticated on the server,
 * so the browser adds nothing. Every other provider stays the plugin's own.
 */
class WithGitlabAgents implements KubernetesAuthProvidersApi {
  private readonly serverSide = new ServerSideKubernetesAuthProvider();

  constructor(private readonly others: KubernetesAuthProvidersApi) {}

  decorateRequestBodyForAuth(
    authProvider: string,
    requestBody: Parameters<
      KubernetesAuthProvidersApi['decorateRequestBodyForAuth']
    >[1],
  ) {
    return authProvider === 'gitlabAgent'
      ? this.serverSide.decorateRequestBodyForAuth(requestBody)
      : this.others.decorateRequestBodyForAuth(authProvider, requestBody);
  }

  getCredentials(authProvider: string) {
    return authProvider === 'gitlabAgent'
      ? this.serverSide.getCredentials()
      : this.others.getCredentials(authProvider);
  }
}

/** Replaces the Kubernetes plugin's auth providers API with one that knows `gitlabAgent`. */
export const kubernetesGitlabAgentAuthModule = createFrontendModule({
  pluginId: 'kubernetes',
  extensions: [
    ApiBlueprint.make({
      name: 'auth-providers',
      params: defineParams =>
        defineParams({
          api: kubernetesAuthProvidersApiRef,
          deps: {
            gitlabAuthApi: gitlabAuthApiRef,
            googleAuthApi: googleAuthApiRef,
            microsoftAuthApi: microsoftAuthApiRef,
            oktaAuthApi: oktaAuthApiRef,
            oneloginAuthApi: oneloginAuthApiRef,
          },
          factory: deps =>
            new WithGitlabAgents(
              new KubernetesAuthProviders({
                googleAuthApi: deps.googleAuthApi,
                microsoftAuthApi: deps.microsoftAuthApi,
                oidcProviders: {
                  gitlab: deps.gitlabAuthApi,
                  google: deps.googleAuthApi,
                  microsoft: deps.microsoftAuthApi,
                  okta: deps.oktaAuthApi,
                  onelogin: deps.oneloginAuthApi,
                },
              }),
            ),
        }),
    }),
  ],
});
