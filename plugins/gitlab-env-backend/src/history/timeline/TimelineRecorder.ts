import { LoggerService } from '@backstage/backend-plugin-api';
import {
  actionTimelineRecord,
  deploymentTimelineRecord,
  DeploymentRecord,
  GitlabDeploymentRef,
  GitlabEnvironment,
  HealthCause,
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
import { StoredRecord, TimelineStore } from './TimelineStore';

/** Where an environment's timeline is kept: GitLab environment ids are unique per instance. */
export function environmentKey(host: string, environmentId: string): string {
  return `${host}|${environmentId}`;
}

/** Facts this process wrote lately: not sent to the database again. */
const RECENT_KEYS = 50_000;
/** Entries waiting for the database; beyond it they are dropped (and said). */
const MAX_QUEUED = 20_000;
const WARN_EVERY_MS = 60_000;
/** How often an unchanged health is checked against the database's. */
const RECHECK_MS = 5_000;
/** What is queued is written once nothing was added for this long… */
const QUIET_MS = 100;
/** …or once the oldest has waited this long. */
const MAX_WAIT_MS = 5_000;
/** Entries turned into records and written at a time. */
const SEGMENT = 500;

/**
 * Each environment's recently written facts, the oldest forgotten past
 * `max` in all (a set per environment: its keys are the records' own
 * strings, no key is built to look one up).
 */
class RecentKeys {
  private readonly byEnvironment = new Map<string, Set<string>>();
  private size = 0;
  constructor(private readonly max: number) {}
  has(environment: string, key: string) {
    return this.byEnvironment.get(environment)?.has(key) ?? false;
  }
  add(environment: string, key: string) {
    let keys = this.byEnvironment.get(environment);
    if (!keys) this.byEnvironment.set(environment, (keys = new Set()));
    if (keys.has(key)) return;
    keys.add(key);
    this.size += 1;
    while (this.size > this.max) {
      const [oldest, its] = this.byEnvironment.entries().next().value as [
        string,
        Set<string>,
      ];
      its.delete(its.values().next().value as string);
      this.size -= 1;
      if (its.size === 0) this.byEnvironment.delete(oldest);
    }
  }
  delete(environment: string, key: string) {
    const keys = this.byEnvironment.get(environment);
    if (keys?.delete(key)) this.size -= 1;
  }
}

type EntityEnvironments = Parameters<
  TimelineStore['setEntitiesEnvironments']
>[0][number];

/** What waits for the database, in the order it was observed. */
type Queued =
  | {
      type: 'observed';
      key: string;
      slug: string;
      objects: EnvironmentObservation['objects'];
      at: string;
      status: HealthStatus;
      partial: boolean;
      /** The health is asked of the database (with the cause read when observed). */
      ask?: { cause?: HealthCause };
    }
  | {
      type: 'records';
      key: string;
      slug: string;
      /** Or how to make them, once the burst is over (a locate's last deployments). */
      records: readonly TimelineRecord[] | (() => readonly TimelineRecord[]);
      /** Forgotten when the write fails, so the next locate records it again. */
      deployment?: GitlabDeploymentRef;
    }
  | { type: 'entity'; entry: EntityEnvironments; signature: string };

type QueuedObservation = Extract<Queued, { type: 'observed' }>;
type QueuedRecords = Extract<Queued, { type: 'records' }>;
type QueuedEntity = Extract<Queued, { type: 'entity' }>;

/**
 * Records every environment's timeline from what the backend already
 * assembles (it reads nothing itself): the live environments' batches and
 * the reads' results (EnvironmentObserver), the environments the locator
 * finds with their last deployments, the deployment history as it is read,
 * and the actions taken through the portal. Health is compared with the
 * last health stored for the environment, so a transition that happened
 * while the backend was down, or on another replica, is told once.
 *
 * Observing only queues (references to the objects, the time, the health
 * and its cause): a load observes a thousand environments at once, and
 * its answers must not wait on the timeline. The queue is written once
 * the burst has passed (nothing added for QUIET_MS, or MAX_WAIT_MS after
 * its oldest entry): the objects are turned into records then, and many
 * environments' go out in the same statements, in order per environment.
 */
export class TimelineRecorder implements EnvironmentObserver {
  private readonly written = new RecentKeys(RECENT_KEYS);
  /** The health each environment was last asked with here, and when. */
  private readonly seen = new Map<
    string,
    { status: HealthStatus; checkedAt: number }
  >();
  /** Each entity's environments as last queued for the database. */
  private readonly entitySignatures = new Map<string, string>();
  /** Each entity's environments as last located: slug → where its timeline is kept. */
  private readonly environmentsOf = new Map<
    string,
    Map<string, Pick<GitlabEnvironment, 'id' | 'slug'> & { host: string }>
  >();
  /** Last deployments queued already (a locate passes the same ones again). */
  private readonly deploymentsQueued = new WeakSet<GitlabDeploymentRef>();
  private queue: Queued[] = [];
  private firstQueuedAt = 0;
  private lastQueuedAt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private draining: Promise<void> | undefined;
  private lastWarning = 0;

  constructor(
    private readonly store: TimelineStore,
    private readonly logger: LoggerService,
  ) {}

  observe(observation: EnvironmentObservation): void {
    const { target, at, health } = observation;
    const key = environmentKey(target.host, target.environment.id);
    const status = health.status;
    // The database holds the state replicas share; it is asked when the
    // health changed here, and now and then besides (another replica may
    // have moved it). The cause is read now, from the state with this
    // health: the graph's nodes cost a walk, so only then.
    const seen = this.seen.get(key);
    const now = Date.now();
    const ask =
      !seen || seen.status !== status || now - seen.checkedAt > RECHECK_MS;
    const queued = this.push({
      type: 'observed',
      key,
      slug: target.environment.slug,
      objects: observation.objects,
      at,
      status,
      partial: Boolean(health.partial),
      ask: ask
        ? { cause: healthCauseOf(observation.nodes(), status) }
        : undefined,
    });
    if (queued && ask) this.seen.set(key, { status, checkedAt: now });
  }

  located(entityRef: string, located: LocatedEntity): void {
    const environments = located.environments.map(e => ({
      key: environmentKey(located.host, e.id),
      slug: e.slug,
      name: e.name,
    }));
    let signature = '';
    for (const e of environments)
      signature += `${e.key}\n${e.slug}\n${e.name}\n`;
    // Taken when the write is queued, not once it is done: the locates
    // that follow a listing at once (the overview reads each entity's
    // environments as soon as it lists them) found the same list and
    // queued it again, one write each. A write that fails or is dropped
    // is queued again by the next locate.
    if (this.entitySignatures.get(entityRef) !== signature) {
      this.environmentsOf.set(
        entityRef,
        new Map(
          located.environments.map(e => [
            e.slug,
            { id: e.id, slug: e.slug, host: located.host },
          ]),
        ),
      );
      if (
        this.push({
          type: 'entity',
          entry: { entityRef, environments },
          signature,
        })
      )
        this.entitySignatures.set(entityRef, signature);
    }
    for (const environment of located.environments) {
      const deployment = environment.lastDeployment;
      if (!deployment || this.deploymentsQueued.has(deployment)) continue;
      if (
        this.push({
          type: 'records',
          key: environmentKey(located.host, environment.id),
          slug: environment.slug,
          records: () => {
            const record = deploymentTimelineRecord(deployment);
            return record ? [record] : [];
          },
          deployment,
        })
      )
        this.deploymentsQueued.add(deployment);
    }
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
    this.push({
      type: 'records',
      key: environmentKey(host, environment.id),
      slug: environment.slug,
      records,
    });
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
    this.push({
      type: 'records',
      key: environmentKey(environment.host, environment.id),
      slug: environment.slug,
      records: [actionTimelineRecord(action)],
    });
  }

  /** Resolves once everything observed so far is written (tests, shutdown). */
  async flush(): Promise<void> {
    while (this.queue.length > 0 || this.draining) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = undefined;
      await this.drain();
    }
  }

  /** Queues an entry; false when it is dropped. */
  private push(entry: Queued): boolean {
    if (this.queue.length >= MAX_QUEUED) {
      this.warn(
        `The timeline dropped a change: ${MAX_QUEUED} are waiting for the database.`,
      );
      return false;
    }
    const now = Date.now();
    if (this.queue.length === 0) this.firstQueuedAt = now;
    this.lastQueuedAt = now;
    this.queue.push(entry);
    if (!this.timer && !this.draining) this.wait(QUIET_MS);
    return true;
  }

  /** Drains once the queue was quiet for QUIET_MS or its oldest waited MAX_WAIT_MS. */
  private wait(ms: number) {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const now = Date.now();
      const quietFor = now - this.lastQueuedAt;
      const waited = now - this.firstQueuedAt;
      if (quietFor < QUIET_MS && waited < MAX_WAIT_MS)
        this.wait(Math.min(QUIET_MS - quietFor, MAX_WAIT_MS - waited));
      else void this.drain();
    }, ms);
    this.timer.unref?.();
  }

  /**
   * Writes what is queued when it starts, a segment at a time (one drain
   * runs at once); what comes meanwhile waits for the next quiet moment,
   * rather than being chased in small statements while a burst goes on.
   */
  private drain(): Promise<void> {
    this.draining ??= (async () => {
      try {
        for (let left = this.queue.length; left > 0; ) {
          const segment = this.takeSegment(left);
          left -= segment.length;
          await this.writeSegment(segment);
          // Another turn for whatever else waits on the loop.
          if (left > 0) await new Promise(resolve => setImmediate(resolve));
        }
      } finally {
        this.draining = undefined;
        if (this.queue.length > 0 && !this.timer) this.wait(QUIET_MS);
      }
    })();
    return this.draining;
  }

  /**
   * The queue's first entries, up to `max` and SEGMENT and before an environment's
   * second health question (its answer depends on the first's).
   */
  private takeSegment(max: number): Queued[] {
    const asked = new Set<string>();
    let n = 0;
    for (; n < max && n < SEGMENT; n++) {
      const entry = this.queue[n];
      if (entry.type !== 'observed' || !entry.ask) continue;
      if (asked.has(entry.key)) break;
      asked.add(entry.key);
    }
    const segment = this.queue.slice(0, n);
    this.queue = this.queue.slice(n);
    if (this.queue.length > 0) this.firstQueuedAt = Date.now();
    return segment;
  }

  private async writeSegment(segment: readonly Queued[]) {
    const entities = new Map<string, QueuedEntity>();
    const asking: QueuedObservation[] = [];
    for (const entry of segment)
      if (entry.type === 'entity') entities.set(entry.entry.entityRef, entry);
      else if (entry.type === 'observed' && entry.ask) asking.push(entry);
    await Promise.all([
      entities.size > 0 && this.writeEntities([...entities.values()]),
      this.writeRecords(segment, asking),
    ]);
  }

  private async writeEntities(entries: ReadonlyArray<QueuedEntity>) {
    try {
      await this.store.setEntitiesEnvironments(entries.map(e => e.entry));
    } catch (error) {
      for (const { entry, signature } of entries)
        if (this.entitySignatures.get(entry.entityRef) === signature)
          this.entitySignatures.delete(entry.entityRef);
      this.warn(`Recording the timeline failed: ${error}`);
    }
  }

  /** The segment's records, with the health transitions the database moved, in order. */
  private async writeRecords(
    segment: readonly Queued[],
    asking: ReadonlyArray<QueuedObservation>,
  ) {
    const rows: StoredRecord[] = [];
    const listed: QueuedRecords[] = [];
    try {
      const moved =
        asking.length > 0
          ? await this.store.transitionHealthMany(
              asking.map(o => ({
                environmentKey: o.key,
                health: o.status,
                at: Date.parse(o.at),
              })),
            )
          : [];
      const transitions = new Map(asking.map((o, i) => [o, moved[i]]));
      const add = (key: string, slug: string, record: TimelineRecord) => {
        if (this.written.has(key, record.key)) return;
        this.written.add(key, record.key);
        rows.push({ environmentKey: key, environmentSlug: slug, record });
      };
      for (const entry of segment) {
        if (entry.type === 'records') {
          listed.push(entry);
          const { records } = entry;
          for (const record of typeof records === 'function'
            ? records()
            : records)
            add(entry.key, entry.slug, record);
        } else if (entry.type === 'observed') {
          for (const { object, modified } of entry.objects)
            for (const record of timelineRecordsOf(object, entry.at, {
              modified,
            }))
              add(entry.key, entry.slug, record);
          const from = transitions.get(entry);
          if (from)
            add(
              entry.key,
              entry.slug,
              healthTransitionRecord({
                from: from.from,
                to: entry.status,
                cause: entry.ask?.cause,
                at: entry.at,
                partial: entry.partial,
              }),
            );
        }
      }
      if (rows.length > 0) await this.store.insert(rows);
    } catch (error) {
      // Asked again, and written again, when next observed or located.
      for (const o of asking)
        if (this.seen.get(o.key)?.status === o.status) this.seen.delete(o.key);
      for (const row of rows)
        this.written.delete(row.environmentKey, row.record.key);
      for (const entry of listed)
        if (entry.deployment) this.deploymentsQueued.delete(entry.deployment);
      this.warn(`Recording the timeline failed: ${error}`);
    }
  }

  private warn(message: string) {
    const now = Date.now();
    if (now - this.lastWarning < WARN_EVERY_MS) return;
    this.lastWarning = now;
    this.logger.warn(message);
  }
}
