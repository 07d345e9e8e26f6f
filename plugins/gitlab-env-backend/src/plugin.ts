import {
  coreServices,
  createBackendPlugin,
} from '@backstage/backend-plugin-api';
import { catalogServiceRef } from '@backstage/plugin-catalog-node';
import {
  createHealthRuleSet,
  createRelationSet,
  gitlabEnvPermissions,
  HealthRuleRegistration,
  RelationSource,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import {
  createActionsRouter,
  listsAfterWrite,
  readActionsConfig,
} from './actions';
import { CiAccessService, createCiAccessRouter } from './ciAccess';
import { readGitlabEnvConfig, readHealthRules } from './config';
import { createDiagnosticsRouter } from './diagnostics';
import {
  gitlabEnvHealthRulesExtensionPoint,
  gitlabEnvLocatorExtensionPoint,
  gitlabEnvObjectSourceExtensionPoint,
  gitlabEnvRelationsExtensionPoint,
} from './extensions';
import { GitlabEnvLocator } from './locating';
import { LivePlanner } from './planning';
import { GitlabEnvClusterSource } from './reading';
import { SharedTransport } from './transport';
import { createOverviewRouter } from './overview';
import { createLiveRouter, createRouter } from './http';
import { liveDesiredState } from './gitops/liveDesiredState';
import { GitlabEnvironmentsService } from './facade';
import { sharedStoreOf } from './caching/sharedCache';

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
    const relationSources: RelationSource[] = [];
    env.registerExtensionPoint(gitlabEnvRelationsExtensionPoint, {
      addRelationSource(source) {
        relationSources.push(source);
      },
    });
    let locator:
      | ((defaultLocator: GitlabEnvLocator) => GitlabEnvLocator)
      | undefined;
    env.registerExtensionPoint(gitlabEnvLocatorExtensionPoint, {
      setLocator(factory) {
        if (locator)
          throw new Error(
            'Two backend modules set the gitlab-env locator; keep one.',
          );
        locator = factory;
      },
    });
    const clusterSources: GitlabEnvClusterSource[] = [];
    env.registerExtensionPoint(gitlabEnvObjectSourceExtensionPoint, {
      addClusterSource(source) {
        clusterSources.push(source);
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
        lifecycle: coreServices.lifecycle,
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
        lifecycle,
        catalog,
      }) {
        const gitlabEnvConfig = readGitlabEnvConfig(config);
        const configRules = await readHealthRules(config);
        for (const warning of configRules.warnings) logger.warn(warning);
        const healthRules = createHealthRuleSet([
          ...configRules.registrations,
          ...moduleRules,
        ]);
        if (healthRules.keys().length > 0)
          logger.info(
            `Adopters' health rules for ${healthRules.keys().join(', ')}`,
          );
        const relations = createRelationSet(relationSources);
        if (relationSources.length > 0)
          logger.info(
            `Adopters' relation sources: ${relationSources
              .map(source => source.id)
              .join(', ')}`,
          );
        // One transport: every service draws on the same concurrency budgets.
        const transport = new SharedTransport(gitlabEnvConfig);
        const ciAccess = new CiAccessService(
          gitlabEnvConfig,
          gitlabEnvConfig.ciAccess,
          logger,
          transport,
        );
        const service = new GitlabEnvironmentsService(gitlabEnvConfig, logger, {
          healthRules,
          relations,
          sharedStore: sharedStoreOf(config, cache),
          transport,
          locator,
          clusterSources,
        });
        const planner = new LivePlanner(
          gitlabEnvConfig.live,
          {
            maxObjects: gitlabEnvConfig.limits.maxObjectsPerEnvironment,
            maxPagesPerList: gitlabEnvConfig.limits.maxPagesPerList,
          },
          {
            enabled: gitlabEnvConfig.overview.clusterWideReads,
            minNamespaces: gitlabEnvConfig.overview.clusterWideMinNamespaces,
          },
          logger,
        );
        lifecycle.addShutdownHook(() => planner.close());
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
          createLiveRouter({
            service,
            planner,
            settings: gitlabEnvConfig.live,
            catalog,
            permissions,
            httpAuth,
            auditor,
            logger,
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
            liveDesiredState: (entity, slug, signal) =>
              liveDesiredState(service, planner, entity, slug, signal),
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
            // Viewers of the live stream see a write's effect at once.
            onWritten: written =>
              listsAfterWrite(written).forEach(lists => planner.refresh(lists)),
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
