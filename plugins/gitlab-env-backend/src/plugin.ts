import { randomUUID } from 'crypto';
import {
  coreServices,
  createBackendPlugin,
} from '@backstage/backend-plugin-api';
import { stringifyEntityRef } from '@backstage/catalog-model';
import { catalogServiceRef } from '@backstage/plugin-catalog-node';
import {
  createHealthRuleSet,
  gitlabEnvPermissions,
  HealthRuleRegistration,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import {
  createActionsRouter,
  listsAfterWrite,
  readActionsConfig,
} from './actions';
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
import {
  createHistoryRouter,
  DeploymentHistory,
  EnvironmentVersions,
  GitlabAccess,
  MergeRequestPreviews,
  TimelineRecorder,
  TimelineStore,
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
        database: coreServices.database,
        scheduler: coreServices.scheduler,
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
        database,
        scheduler,
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
        // One transport: every service draws on the same concurrency budgets.
        const transport = new SharedTransport(gitlabEnvConfig);
        // The timeline: recorded from what the reads and watches assemble.
        const timelineSettings = readTimelineConfig(config);
        const timeline = timelineSettings.enabled
          ? await TimelineStore.create(database)
          : undefined;
        const recorder = timeline && new TimelineRecorder(timeline, logger);
        const ciAccess = new CiAccessService(
          gitlabEnvConfig,
          gitlabEnvConfig.ciAccess,
          logger,
          transport,
        );
        const service = new GitlabEnvironmentsService(gitlabEnvConfig, logger, {
          healthRules,
          sharedStore: sharedStoreOf(config, cache),
          transport,
          locator,
          clusterSources,
          observer: recorder,
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
          recorder,
        );
        lifecycle.addShutdownHook(() => planner.close());
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
            onWritten: written => {
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
            },
          }),
        );
        const gitlab = new GitlabAccess(gitlabEnvConfig, transport);
        httpRouter.use(
          createHistoryRouter({
            service,
            history: new DeploymentHistory(service, gitlab, recorder),
            versions: new EnvironmentVersions(service, gitlab),
            previews: new MergeRequestPreviews(service, gitlab),
            timeline,
            timelineSettings,
            catalog,
            permissions,
            httpAuth,
            auditor,
            logger,
            onRolledBack: done =>
              recorder?.recordAction(
                stringifyEntityRef(done.entity),
                done.slug,
                {
                  id: randomUUID(),
                  action: 'gitlab.rollback',
                  actor: done.actor,
                  summary: done.message,
                  at: new Date().toISOString(),
                  links: done.jobUrl
                    ? [{ label: `Job ${done.newJobId}`, url: done.jobUrl }]
                    : [],
                },
              ),
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
