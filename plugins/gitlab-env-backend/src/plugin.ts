import { randomUUID } from 'crypto';
import {
  coreServices,
  createBackendPlugin,
} from '@backstage/backend-plugin-api';
import { stringifyEntityRef } from '@backstage/catalog-model';
import { actionsRegistryServiceRef } from '@backstage/backend-plugin-api/alpha';
import { catalogServiceRef } from '@backstage/plugin-catalog-node';
import {
  createHealthRuleSet,
  createRelationSet,
  gitlabEnvPermissions,
  HealthRuleRegistration,
  RelationSource,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import {
  ActionWritten,
  createActionsRouter,
  listsAfterWrite,
  readActionsConfig,
} from './actions';
import { registerAssistantActions } from './assistant';
import { CiAccessService, createCiAccessRouter } from './ciAccess';
import {
  readGitlabEnvConfig,
  readHealthRules,
  readTimelineConfig,
} from './config';
import { createDiagnosticsRouter } from './diagnostics';
import {
  gitlabEnvHealthRulesExtensionPoint,
  gitlabEnvLocatorExtensionPoint,
  gitlabEnvObjectSourceExtensionPoint,
  gitlabEnvRelationsExtensionPoint,
} from './extensions';
import { GitlabEnvLocator } from './locating';
import { GitlabEnvClusterSource } from './reading';
import { gitlabEnvTransportServiceRef } from './transport';
import { createOverviewRouter } from './overview';
import {
  annotatedEntities,
  createLiveRouter,
  createRouter,
  RequestPipeline,
  routeErrors,
} from './http';
import Router from 'express-promise-router';
import { EnvironmentUsage, readUsageSettings, UsageSampler } from './usage';
import { GitlabEnvironmentsService } from './facade';
import { sharedStoreOf } from './caching/sharedCache';
import {
  createHistoryRouter,
  DeploymentHistory,
  EnvironmentVersions,
  GitlabAccess,
  MergeRequestPreviews,
  TimelineRecorder,
  TimelineStore,
  HistoryRouterOptions,
} from './history';

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
        auth: coreServices.auth,
        database: coreServices.database,
        scheduler: coreServices.scheduler,
        catalog: catalogServiceRef,
        transport: gitlabEnvTransportServiceRef,
        actionsRegistry: actionsRegistryServiceRef,
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
        auth,
        database,
        scheduler,
        catalog,
        transport,
        actionsRegistry,
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
        // The timeline: recorded from what the reads and watches assemble.
        const timelineSettings = readTimelineConfig(config);
        const timeline = timelineSettings.enabled
          ? await TimelineStore.create(database)
          : undefined;
        const recorder = timeline && new TimelineRecorder(timeline, logger);
        // One transport (root-scoped): every service, and the Kubernetes
        // plugin's agent clusters, draw on the same concurrency budgets.
        const service = new GitlabEnvironmentsService(gitlabEnvConfig, logger, {
          healthRules,
          relations,
          sharedStore: sharedStoreOf(config, cache),
          transport,
          locator,
          clusterSources,
          observer: recorder,
          // Who else claims a namespace: the catalog read with the plugin's own credentials.
          portalEntities: async function* portalEntities() {
            yield* annotatedEntities(
              catalog,
              await auth.getOwnServiceCredentials(),
            );
          },
        });
        const ciAccess = new CiAccessService({
          config: gitlabEnvConfig,
          transport,
          cache: service.readCache,
          logger,
          claims: () => service.portalClaims(),
        });
        // Reads and live streams share one store of the cluster's objects.
        const { planner } = service;
        lifecycle.addShutdownHook(() => planner.close());
        const usageSettings = readUsageSettings(config);
        // One sample per agent scope for every viewer of its usage.
        const usageSampler = new UsageSampler(usageSettings, logger);
        lifecycle.addShutdownHook(() => usageSampler.close());
        const usage = new EnvironmentUsage(
          service,
          planner,
          usageSettings,
          usageSampler,
        );
        if (recorder) lifecycle.addShutdownHook(() => recorder.flush());
        if (timeline)
          await scheduler.scheduleTask({
            id: 'gitlab-env-timeline-prune',
            frequency: { minutes: timelineSettings.pruneIntervalMinutes },
            timeout: { minutes: 10 },
            initialDelay: { minutes: 1 },
            fn: async () => {
              const pruned = await timeline.prune({
                olderThan:
                  Date.now() - timelineSettings.retentionDays * 86_400_000,
                maxPerEnvironment: timelineSettings.maxEntriesPerEnvironment,
              });
              if (pruned.expired + pruned.overflow > 0)
                logger.info(
                  `Timeline: deleted ${pruned.expired} entries past ${timelineSettings.retentionDays} days and ${pruned.overflow} past ${timelineSettings.maxEntriesPerEnvironment} per environment`,
                );
            },
          });
        permissionsRegistry.addPermissions(gitlabEnvPermissions);
        // The one request pipeline every route goes through, with the one locator.
        const routes = {
          pipeline: new RequestPipeline({
            catalog,
            permissions,
            auditor,
            requestDeadlineMs: gitlabEnvConfig.requestDeadlineMs,
            locate: (entity, options) => service.locate(entity, options),
          }),
          httpAuth,
        };
        const router = Router();
        router.use(
          createRouter({
            ...routes,
            service,
            environmentUsage: (entity, slug, target, options) =>
              usage.usage(entity, slug, target, options),
          }),
        );
        router.use(
          createOverviewRouter({
            ...routes,
            service,
            deadlineMs: gitlabEnvConfig.overview.deadlineMs,
          }),
        );
        router.use(
          createLiveRouter({
            ...routes,
            service,
            planner,
            settings: gitlabEnvConfig.live,
          }),
        );
        router.use(createDiagnosticsRouter({ ...routes, service }));
        // Viewers of the live stream see a write's effect at once.
        // Viewers of the live stream see a write's effect at once; the
        // timeline records it.
        const onWritten = (written: ActionWritten) => {
          listsAfterWrite(written).forEach(lists => planner.refresh(lists));
          recorder?.recordAction(
            stringifyEntityRef(written.entity),
            written.slug,
            {
              id: randomUUID(),
              action: written.action,
              target: written.written[written.written.length - 1],
              summary: written.message,
              actor: written.actor,
              at: new Date().toISOString(),
            },
          );
        };
        router.use(
          createActionsRouter({
            ...routes,
            service,
            transport,
            logger,
            config: readActionsConfig(config),
            onWritten,
          }),
        );
        const gitlab = new GitlabAccess(gitlabEnvConfig, transport);
        const history = new DeploymentHistory(service, gitlab, recorder);
        // A GitLab rollback started (the route or an assistant): the timeline records it.
        const onRolledBack: HistoryRouterOptions['onRolledBack'] = done =>
          recorder?.recordAction(stringifyEntityRef(done.entity), done.slug, {
            id: randomUUID(),
            action: 'gitlab.rollback',
            actor: done.actor,
            summary: done.message,
            at: new Date().toISOString(),
            links: done.jobUrl
              ? [{ label: `Job ${done.newJobId}`, url: done.jobUrl }]
              : [],
          });
        router.use(
          createHistoryRouter({
            ...routes,
            service,
            history,
            versions: new EnvironmentVersions(service, gitlab),
            previews: new MergeRequestPreviews(service, gitlab),
            timeline,
            timelineSettings,
            logger,
            onRolledBack,
          }),
        );
        // The same cores for AI assistants, as the caller, through the pipeline.
        registerAssistantActions(actionsRegistry, {
          pipeline: routes.pipeline,
          service,
          transport,
          logger,
          onWritten,
          timeline,
          timelineSettings,
          history,
          onRolledBack,
        });
        router.use(createCiAccessRouter({ ...routes, service: ciAccess }));
        router.use(routeErrors(logger, auditor));
        httpRouter.use(router);
        httpRouter.addAuthPolicy({ path: '/health', allow: 'unauthenticated' });
      },
    });
  },
});
