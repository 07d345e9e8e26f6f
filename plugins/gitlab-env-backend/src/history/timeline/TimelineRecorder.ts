import { LoggerService } from '@backstage/backend-plugin-api';
import {
  actionTimelineRecord,
  deploymentTimelineRecord,
  DeploymentRecord,
  GitlabDeploymentRef,
  GitlabEnvironment,
  HealthStatus,
  healthCauseOf,
  healthTransitionRecord,
  TimelineRecord,
  timelineRecordsOf,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import type {
  EnvironmentObservation,
  EnvironmentObserver,
} from '../../assembling/environmentObserver';
import type { LocatedEntity } from '../../locating';
import { TimelineStore } from './TimelineStore';

/** Where an environment's timeline is kept: GitLab environment ids are unique per instance. */
export function environmentKey(host: string, environmentId: string): string {
  return `${host}|${environmentId}`;
}

/** Facts this process wrote lately: not sent to the database again. */
const RECENT_KEYS = 50_000;
/** Observations waiting for the database; beyond it they are dropped (and said). */
const MAX_PENDING = 1_000;
const WARN_EVERY_MS = 60_000;
/** How often an unchanged health is checked against the database's. */
const RECHECK_MS = 5_000;

/** A set that forgets its oldest members past `max`. */
class RecentKeys {
  private readonly keys = new Set<string>();
  constructor(private readonly max: number) {}
  has(key: string) {
    return this.keys.has(key);
  }
  add(key: string) {
    this.keys.add(key);
    if (this.keys.size > this.max)
      this.keys.delete(this.keys.values().next().value as string);
  }
}

/**
 * Records every environment's timeline from what the backend already
 * assembles (it reads nothing itself): the live environments' batches and
 * the reads' results (EnvironmentObserver), the environments the locator
 * finds with their last deployments, the deployment history as it is read,
 * and the actions taken through the portal. Health is compared with the
 * last health stored for the environment, so a transition that happened
 * while the backend was down, or on another replica, is told once. Writes
 * go out in order per environment, off the assembler's path.
 */
export class TimelineRecorder implements EnvironmentObserver {
  private readonly chains = new Map<string, Promise<void>>();
  private readonly written = new RecentKeys(RECENT_KEYS);
  /** The health each environment was last seen with here, and when the database was last asked. */
  private readonly seen = new Map<
    string,
    { status: HealthStatus; checkedAt: number }
  >();
  private readonly entitySignatures = new Map<string, string>();
  /** Each entity's environments as last located: slug → where its timeline is kept. */
  private readonly environmentsOf = new Map<
    string,
    Map<string, Pick<GitlabEnvironment, 'id' | 'slug'> & { host: string }>
  >();
  private pending = 0;
  private lastWarning = 0;

  constructor(
    private readonly store: TimelineStore,
    private readonly logger: LoggerService,
  ) {}

  observe(observation: EnvironmentObservation): void {
    const { target, at, health } = observation;
    const key = environmentKey(target.host, target.environment.id);
    const records = observation.objects.flatMap(({ object, modified }) =>
      timelineRecordsOf(object, at, { modified }),
    );
    const status = health.status;
    // The database holds the state replicas share; it is asked when the
    // health changed here, and now and then besides (another replica may
    // have moved it). The cause is read now, from the state with this
    // health: the graph's nodes cost a walk, so only then.
    const seen = this.seen.get(key);
    const now = Date.now();
    const ask =
      !seen || seen.status !== status || now - seen.checkedAt > RECHECK_MS;
    const cause = ask ? healthCauseOf(observation.nodes(), status) : undefined;
    this.enqueue(key, async () => {
      if (ask) {
        const moved = await this.store.transitionHealth(
          key,
          status,
          Date.parse(at),
        );
        this.seen.set(key, { status, checkedAt: now });
        if (moved)
          records.push(
            healthTransitionRecord({
              from: moved.from,
              to: status,
              cause,
              at,
              partial: Boolean(health.partial),
            }),
          );
      }
      await this.write(key, target.environment.slug, records);
    });
  }

  located(entityRef: string, located: LocatedEntity): void {
    const environments = located.environments.map(e => ({
      key: environmentKey(located.host, e.id),
      slug: e.slug,
      name: e.name,
    }));
    this.environmentsOf.set(
      entityRef,
      new Map(
        located.environments.map(e => [
          e.slug,
          { id: e.id, slug: e.slug, host: located.host },
        ]),
      ),
    );
    const signature = JSON.stringify(environments);
    // Taken when the write is queued, not once it is done: the locates
    // that follow a listing at once (the overview reads each entity's
    // environments as soon as it lists them) found the same list and
    // queued it again, one write each. A write that fails or is dropped
    // is queued again by the next locate.
    if (this.entitySignatures.get(entityRef) !== signature) {
      this.entitySignatures.set(entityRef, signature);
      const forget = () => {
        if (this.entitySignatures.get(entityRef) === signature)
          this.entitySignatures.delete(entityRef);
      };
      const queued = this.enqueue(`entity|${entityRef}`, async () => {
        try {
          await this.store.setEntityEnvironments(entityRef, environments);
        } catch (error) {
          forget();
          throw error;
        }
      });
      if (!queued) forget();
    }
    for (const environment of located.environments)
      if (environment.lastDeployment)
        this.recordDeployments(located.host, environment, [
          environment.lastDeployment,
        ]);
  }

  /** Deployments as GitLab listed them (the history's pages, the environments' last). */
  recordDeployments(
    host: string,
    environment: Pick<GitlabEnvironment, 'id' | 'slug'>,
    deployments: ReadonlyArray<DeploymentRecord | GitlabDeploymentRef>,
  ): void {
    const records = deployments
      .map(deploymentTimelineRecord)
      .filter((r): r is TimelineRecord => !!r);
    if (records.length === 0) return;
    const key = environmentKey(host, environment.id);
    this.enqueue(key, () => this.write(key, environment.slug, records));
  }

  /**
   * An action taken through the portal on an entity's environment (located
   * just before, by the route that took it).
   */
  recordAction(
    entityRef: string,
    slug: string,
    action: Parameters<typeof actionTimelineRecord>[0],
  ): void {
    const environment = this.environmentsOf.get(entityRef)?.get(slug);
    if (!environment) {
      this.warn(
        `The timeline could not place an action on ${entityRef}/${slug}.`,
      );
      return;
    }
    const key = environmentKey(environment.host, environment.id);
    this.enqueue(key, () =>
      this.write(key, environment.slug, [actionTimelineRecord(action)]),
    );
  }

  /** Resolves once everything observed so far is written (tests, shutdown). */
  async flush(): Promise<void> {
    while (this.chains.size > 0) await Promise.all([...this.chains.values()]);
  }

  private async write(
    environmentKey_: string,
    slug: string,
    records: readonly TimelineRecord[],
  ) {
    const fresh = records.filter(
      r => !this.written.has(`${environmentKey_}|${r.key}`),
    );
    if (fresh.length === 0) return;
    await this.store.insert(
      fresh.map(record => ({
        environmentKey: environmentKey_,
        environmentSlug: slug,
        record,
      })),
    );
    for (const r of fresh) this.written.add(`${environmentKey_}|${r.key}`);
  }

  /** Queues a write after the chain's earlier ones; false when it is dropped. */
  private enqueue(chainKey: string, task: () => Promise<void>): boolean {
    if (this.pending >= MAX_PENDING) {
      this.warn(
        `The timeline dropped a change: ${MAX_PENDING} are waiting for the database.`,
      );
      return false;
    }
    this.pending += 1;
    const previous = this.chains.get(chainKey) ?? Promise.resolve();
    const next = previous
      .then(task)
      .catch(error => this.warn(`Recording the timeline failed: ${error}`))
      .finally(() => {
        this.pending -= 1;
        if (this.chains.get(chainKey) === next) this.chains.delete(chainKey);
      });
    this.chains.set(chainKey, next);
    return true;
  }

  private warn(message: string) {
    const now = Date.now();
    if (now - this.lastWarning < WARN_EVERY_MS) return;
    this.lastWarning = now;
    this.logger.warn(message);
  }
}
