import {
  coreServices,
  createBackendPlugin,
} from '@backstage/backend-plugin-api';
import { catalogServiceRef } from '@backstage/plugin-catalog-node';
import {
  createHealthRuleSet,
  gitlabEnvPermissions,
  HealthRuleRegistration,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { createActionsRouter, readActionsConfig } from './actions';
import { CiAccessService, createCiAccessRouter } from './ciAccess';
import { readGitlabEnvConfig, readHealthRules } from './config';
import { createDiagnosticsRouter } from './diagnostics';
import { gitlabEnvHealthRulesExtensionPoint } from './extensions';
import { createOverviewRouter } from './overview';
import { createRouter } from './routes';
import { GitlabEnvironmentsService } from './service';
import { sharedStoreOf } from './service/sharedCache';

/**
 * The gitlab-env backend plugin: `/api/gitlab-env`.
 *
 * @public
 */
export const gitlabEnvPlugin = createBackendPlugin({
  pluginId: 'gitlab-env',
  register(env) {
    const moduleRules: HealthRuleRegistration[] = [];
    env.registerExtensionPoint(gitlabEnvHealthRulesExtensionPoint, {
      addHealthRule({ group, kind, rule }) {
        moduleRules.push({ group, kind, rule, source: 'a backend module' });
      },
    });
    env.registerInit({
      deps: {
        httpRouter: coreServices.httpRouter,
        config: coreServices.rootConfig,
        logger: coreServices.logger,
        httpAuth: coreServices.httpAuth,
        permissions: coreServices.permissions,
        permissionsRegistry: coreServices.permissionsRegistry,
        auditor: coreServices.auditor,
        cache: coreServices.cache,
        catalog: catalogServiceRef,
      },
      async init({
        httpRouter,
        config,
        logger,
        httpAuth,
        permissions,
        permissionsRegistry,
        auditor,
        cache,
        catalog,
      }) {
        const gitlabEnvConfig = readGitlabEnvConfig(config);
        const healthRules = createHealthRuleSet([
          ...readHealthRules(config),
          ...moduleRules,
        ]);
        if (healthRules.keys().length > 0)
          logger.info(
            `Adopters' health rules for ${healthRules.keys().join(', ')}`,
          );
        const ciAccess = new CiAccessService(
          gitlabEnvConfig,
          gitlabEnvConfig.ciAccess,
          logger,
        );
        const service = new GitlabEnvironmentsService(gitlabEnvConfig, logger, {
          healthRules,
          sharedStore: sharedStoreOf(config, cache),
        });
        permissionsRegistry.addPermissions(gitlabEnvPermissions);
        httpRouter.use(
          createOverviewRouter({
            service,
            catalog,
            permissions,
            httpAuth,
            auditor,
            deadlineMs: gitlabEnvConfig.overview.deadlineMs,
          }),
        );
        httpRouter.use(
          createDiagnosticsRouter({
            service,
            permissions,
            httpAuth,
            auditor,
            logger,
          }),
        );
        httpRouter.use(
          await createRouter({
            service,
            catalog,
            permissions,
            httpAuth,
            auditor,
            logger,
          }),
        );
        httpRouter.use(
          createActionsRouter({
            service,
            catalog,
            permissions,
            httpAuth,
            auditor,
            logger,
            config: readActionsConfig(config),
          }),
        );
        httpRouter.use(
          createCiAccessRouter({
            service: ciAccess,
            catalog,
            permissions,
            httpAuth,
            auditor,
            logger,
          }),
        );
        httpRouter.addAuthPolicy({ path: '/health', allow: 'unauthenticated' });
      },
    });
  },
});
