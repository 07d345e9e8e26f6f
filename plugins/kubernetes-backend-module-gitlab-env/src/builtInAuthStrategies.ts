import {
  LoggerService,
  RootConfigService,
} from '@backstage/backend-plugin-api';
import {
  AksStrategy,
  AnonymousStrategy,
  AwsIamStrategy,
  AzureIdentityStrategy,
  GoogleServiceAccountStrategy,
  GoogleStrategy,
  OidcStrategy,
  ServiceAccountStrategy,
} from '@backstage/plugin-kubernetes-backend';
import { AuthenticationStrategy } from '@backstage/plugin-kubernetes-node';

/**
 * The Kubernetes plugin's own strategies, by the keys its default map uses
 * (`buildDefaultAuthStrategyMap`). Adding any strategy through the
 * extension point replaces that whole map, so this module adds them back:
 * clusters the portal already reaches another way keep working beside the
 * agents' clusters.
 */
export function builtInAuthStrategies(options: {
  logger: LoggerService;
  config: RootConfigService;
}): Array<[string, AuthenticationStrategy]> {
  const { logger, config } = options;
  return [
    ['aks', new AksStrategy()],
    ['aws', new AwsIamStrategy({ config })],
    ['azure', new AzureIdentityStrategy(logger)],
    ['google', new GoogleStrategy()],
    ['googleServiceAccount', new GoogleServiceAccountStrategy({ config })],
    ['localKubectlProxy', new AnonymousStrategy()],
    ['oidc', new OidcStrategy()],
    ['serviceAccount', new ServiceAccountStrategy()],
  ];
}
