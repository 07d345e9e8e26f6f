import { createHash } from 'crypto';
import {
  DatabaseService,
  resolvePackagePath,
} from '@backstage/backend-plugin-api';
import {
  HealthStatus,
  TimelineEntry,
  TimelineEntryKind,
  TimelineRecord,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import type { Knex } from 'knex';
import { failure } from '../../errors';

const TIMELINE = 'gitlab_env_timeline';
const HEALTH = 'gitlab_env_environment_health';
const MAPPING = 'gitlab_env_entity_environments';
/** Rows per insert: well under SQLite's 999 bound variables (8 columns each). */
const INSERT_BATCH = 100;
/** Keys per `IN (...)`: well under SQLite's 999 bound variables. */
const WHERE_IN_BATCH = 500;
const MAX_KEY = 255;
const TIMELINE_COLUMNS = [
  'environment_key',
  'entry_key',
  'kind',
  'occurred_at',
  'environment_slug',
  'entry',
  'recorded_at',
];
/** Rows per insert when they go as one JSON parameter. */
const JSON_INSERT_BATCH = 2_000;
/** Columns PostgreSQL is told the type of (a JSON field is text). */
const INTEGER_COLUMNS = new Set([
  'occurred_at',
  'recorded_at',
  'observed_at',
  'updated_at',
]);

/** What an insert does with a row whose key is stored: keeps the stored one, or takes `merge`'s columns. */
interface OnConflict {
  columns: readonly string[];
  merge?: readonly string[];
}

/**
 * Inserts rows (arrays in `columns`' order), in their order. On SQLite and
 * PostgreSQL they go as one JSON parameter of one short statement per
 * JSON_INSERT_BATCH rows, split into rows by the database (json_each,
 * json_array_elements): no statement of thousands of placeholders for
 * knex to build and the driver to prepare. Other clients get knex's
 * multi-row inserts.
 */
async function insertRows(
  db: Knex,
  table: string,
  columns: readonly string[],
  rows: ReadonlyArray<readonly unknown[]>,
  onConflict: OnConflict,
): Promise<void> {
  const client = db.client.config.client;
  if (client !== 'pg' && client !== 'better-sqlite3') {
    for (let i = 0; i < rows.length; i += INSERT_BATCH) {
      const insert = db(table)
        .insert(
          rows
            .slice(i, i + INSERT_BATCH)
            .map(row => Object.fromEntries(columns.map((c, k) => [c, row[k]]))),
        )
        .onConflict([...onConflict.columns]);
      await (onConflict.merge
        ? insert.merge([...onConflict.merge])
        : insert.ignore());
    }
    return;
  }
  const fields =
    client === 'pg'
      ? columns.map((c, k) =>
          INTEGER_COLUMNS.has(c) ? `(r->>${k})::bigint` : `r->>${k}`,
        )
      : columns.map((_, k) => `json_extract(value, '$[${k}]')`);
  const source =
    client === 'pg'
      ? 'json_array_elements(?::json) with ordinality as e(r, n) order by n'
      : 'json_each(?) where true order by key';
  const conflict = `on conflict (${onConflict.columns.join(', ')}) ${
    onConflict.merge
      ? `do update set ${onConflict.merge
          .map(c => `${c} = excluded.${c}`)
          .join(', ')}`
      : 'do nothing'
  }`;
  const sql = `insert into ${table} (${columns.join(
    ', ',
  )}) select ${fields.join(', ')} from ${source} ${conflict}`;
  for (let i = 0; i < rows.length; i += JSON_INSERT_BATCH)
    await db.raw(sql, [JSON.stringify(rows.slice(i, i + JSON_INSERT_BATCH))]);
}

/** A key longer than its column is stored as its digest: equal keys stay equal. */
export function boundedKey(key: string): string {
  return key.length <= MAX_KEY
    ? key
    : `sha256:${createHash('sha256').update(key).digest('hex')}`;
}

/** An environment's timeline entry to store. */
export interface StoredRecord {
  environmentKey: string;
  environmentSlug: string;
  record: TimelineRecord;
}

/** One page of a timeline. */
export interface TimelinePageQuery {
  /** The entity whose environments to read (as the mapping holds them). */
  entityRef: string;
  /** One of its environments; all when left out. */
  environmentSlug?: string;
  kinds?: readonly TimelineEntryKind[];
  /** Milliseconds since the epoch: entries at or after. */
  from?: number;
  /** Entries before. */
  to?: number;
  cursor?: string;
  limit: number;
}

/** A page's row, as the query selects it. */
interface TimelineRow {
  id: number | string;
  kind: TimelineEntryKind;
  occurred_at: number | string;
  environment_slug: string;
  entry: string;
}

function encodeCursor(occurredAt: number, id: number): string {
  return Buffer.from(`${occurredAt}:${id}`).toString('base64url');
}

/** The cursor of the page after `entry` (one of a page's entries), for a caller that keeps fewer than the page. */
export function timelineCursorAfter(entry: Pick<TimelineEntry, 'at' | 'id'>) {
  return encodeCursor(Date.parse(entry.at), Number(entry.id));
}

function decodeCursor(cursor: string): { occurredAt: number; id: number } {
  const [occurredAt, id] = Buffer.from(cursor, 'base64url')
    .toString()
    .split(':')
    .map(Number);
  if (!Number.isSafeInteger(occurredAt) || !Number.isSafeInteger(id))
    throw failure('INVALID_REQUEST', 'The timeline cursor is not valid.', {
      hint: 'Reload the timeline.',
    });
  return { occurredAt, id };
}

/** Anything the database throws, as the typed failure the API answers. */
function unavailable(error: unknown): never {
  throw failure(
    'TIMELINE_UNAVAILABLE',
    `The plugin's database failed: ${String(
      (error as Error)?.message ?? error,
    ).slice(0, 300)}`,
    { hint: "Check backend.database and the backend's logs." },
  );
}

/**
 * The timeline in the plugin's own database (`coreServices.database`:
 * SQLite in the demo, PostgreSQL in production), created by the package's
 * knex migrations. A fact is stored once per environment whichever replica
 * records it: the unique (environment, fact) key and an insert that ignores
 * conflicts (`ON CONFLICT DO NOTHING`).
 */
export class TimelineStore {
  private constructor(private readonly db: Knex) {}

  static async create(database: DatabaseService): Promise<TimelineStore> {
    const db = await database.getClient();
    if (!database.migrations?.skip)
      await db.migrate.latest({
        directory: resolvePackagePath(
          '@gitlab-env/backstage-plugin-gitlab-env-backend',
          'migrations',
        ),
        tableName: 'gitlab_env_knex_migrations',
      });
    return new TimelineStore(db);
  }

  /** Stores the facts not stored yet; the others are left as they are. */
  async insert(records: readonly StoredRecord[]): Promise<void> {
    const now = Date.now();
    try {
      await insertRows(
        this.db,
        TIMELINE,
        TIMELINE_COLUMNS,
        records.map(r => {
          const { key, kind, at, ...entry } = r.record;
          return [
            boundedKey(r.environmentKey),
            boundedKey(key),
            kind,
            Date.parse(at),
            r.environmentSlug,
            JSON.stringify(entry),
            now,
          ];
        }),
        { columns: ['environment_key', 'entry_key'] },
      );
    } catch (error) {
      unavailable(error);
    }
  }

  /**
   * Moves an environment's stored health to `health`, observed at `at`,
   * when it is another and the stored one was observed earlier: a
   * compare-and-set on the row, so of several replicas (or a replica
   * lagging behind another) one records each transition, and a stale
   * observation never writes back an older state. Returns what it moved
   * from (`undefined` for the first state ever stored), or `false` when it
   * recorded nothing.
   */
  async transitionHealth(
    environmentKey: string,
    health: HealthStatus,
    at: number,
  ): Promise<{ from?: HealthStatus } | false> {
    const key = boundedKey(environmentKey);
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        const row = await this.db(HEALTH)
          .where({ environment_key: key })
          .first('health', 'observed_at');
        if (!row) {
          await this.db(HEALTH)
            .insert({ environment_key: key, health, observed_at: at })
            .onConflict('environment_key')
            .ignore();
          const stored = await this.db(HEALTH)
            .where({ environment_key: key })
            .first('health', 'observed_at');
          if (stored?.health === health && Number(stored.observed_at) === at)
            return {};
          continue;
        }
        if (row.health === health || Number(row.observed_at) > at) return false;
        const moved = await this.db(HEALTH)
          .where({
            environment_key: key,
            health: row.health,
            observed_at: row.observed_at,
          })
          .update({ health, observed_at: at });
        if (moved === 1) return { from: row.health };
      }
      return false;
    } catch (error) {
      return unavailable(error);
    }
  }

  /**
   * transitionHealth for many environments (distinct keys) at once, as the
   * timeline records a load's environments: one read of their stored
   * health and one insert of the ones stored for the first time; only a
   * change of health is moved row by row (the same compare-and-set).
   */
  async transitionHealthMany(
    changes: ReadonlyArray<{
      environmentKey: string;
      health: HealthStatus;
      at: number;
    }>,
  ): Promise<Array<{ from?: HealthStatus } | false>> {
    const keys = changes.map(c => boundedKey(c.environmentKey));
    const answers: Array<{ from?: HealthStatus } | false | undefined> = [];
    const rowByRow: number[] = [];
    if (new Set(keys).size !== keys.length) rowByRow.push(...changes.keys());
    else {
      try {
        const stored = await this.storedHealth(keys);
        const first = changes.flatMap((c, i) =>
          stored.has(keys[i]) ? [] : [[keys[i], c.health, c.at]],
        );
        await insertRows(
          this.db,
          HEALTH,
          ['environment_key', 'health', 'observed_at'],
          first,
          { columns: ['environment_key'] },
        );
        const inserted =
          first.length > 0
            ? await this.storedHealth(first.map(([key]) => key as string))
            : new Map();
        changes.forEach(({ health, at }, i) => {
          const row = stored.get(keys[i]);
          if (!row) {
            const mine = inserted.get(keys[i]);
            // Another replica stored it first: asked again on its own.
            if (mine?.health === health && Number(mine.observed_at) === at)
              answers[i] = {};
            else rowByRow.push(i);
          } else if (row.health === health || Number(row.observed_at) > at)
            answers[i] = false;
          else rowByRow.push(i);
        });
      } catch (error) {
        unavailable(error);
      }
    }
    for (const i of rowByRow) {
      const { environmentKey, health, at } = changes[i];
      answers[i] = await this.transitionHealth(environmentKey, health, at);
    }
    return answers as Array<{ from?: HealthStatus } | false>;
  }

  private async storedHealth(
    keys: readonly string[],
  ): Promise<
    Map<string, { health: HealthStatus; observed_at: number | string }>
  > {
    const rows = new Map<
      string,
      { health: HealthStatus; observed_at: number | string }
    >();
    for (let i = 0; i < keys.length; i += WHERE_IN_BATCH) {
      const found = await this.db(HEALTH)
        .whereIn('environment_key', keys.slice(i, i + WHERE_IN_BATCH))
        .select('environment_key', 'health', 'observed_at');
      for (const row of found) rows.set(row.environment_key, row);
    }
    return rows;
  }

  /** Which environments an entity's timeline shows: replaces what was stored for it. */
  async setEntityEnvironments(
    entityRef: string,
    environments: ReadonlyArray<{ key: string; slug: string; name: string }>,
  ): Promise<void> {
    await this.setEntitiesEnvironments([{ entityRef, environments }]);
  }

  /**
   * setEntityEnvironments for many entities (distinct refs) in one
   * transaction, as a load locates them: one read of what is stored for
   * them, a delete of what they no longer have, one upsert of the rest.
   */
  async setEntitiesEnvironments(
    entries: ReadonlyArray<{
      entityRef: string;
      environments: ReadonlyArray<{ key: string; slug: string; name: string }>;
    }>,
  ): Promise<void> {
    const now = Date.now();
    const entities = entries.map(e => boundedKey(e.entityRef));
    if (new Set(entities).size !== entities.length) {
      for (const { entityRef, environments } of entries)
        await this.setEntityEnvironments(entityRef, environments);
      return;
    }
    const rows = entries.flatMap(({ environments }, i) =>
      environments.map(e => ({
        entity_ref: entities[i],
        environment_key: boundedKey(e.key),
        environment_slug: e.slug,
        environment_name: e.name,
      })),
    );
    const pair = (r: { entity_ref: string; environment_key: string }) =>
      `${r.entity_ref}\n${r.environment_key}`;
    const wanted = new Set(rows.map(pair));
    try {
      await this.db.transaction(async tx => {
        for (let i = 0; i < entities.length; i += WHERE_IN_BATCH) {
          const held: Array<{ entity_ref: string; environment_key: string }> =
            await tx(MAPPING)
              .whereIn('entity_ref', entities.slice(i, i + WHERE_IN_BATCH))
              .select('entity_ref', 'environment_key');
          const stale = new Map<string, string[]>();
          for (const row of held)
            if (!wanted.has(pair(row)))
              stale.set(row.entity_ref, [
                ...(stale.get(row.entity_ref) ?? []),
                row.environment_key,
              ]);
          for (const [entityRef, keys] of stale)
            for (let k = 0; k < keys.length; k += WHERE_IN_BATCH)
              await tx(MAPPING)
                .where({ entity_ref: entityRef })
                .whereIn('environment_key', keys.slice(k, k + WHERE_IN_BATCH))
                .delete();
        }
        await insertRows(
          tx,
          MAPPING,
          [
            'entity_ref',
            'environment_key',
            'environment_slug',
            'environment_name',
            'updated_at',
          ],
          rows.map(r => [
            r.entity_ref,
            r.environment_key,
            r.environment_slug,
            r.environment_name,
            now,
          ]),
          {
            columns: ['entity_ref', 'environment_key'],
            merge: ['environment_slug', 'environment_name', 'updated_at'],
          },
        );
      });
    } catch (error) {
      unavailable(error);
    }
  }

  /**
   * One page, newest first: a single query, keyset-paged on (time, id), on
   * the (environment, time, id) index.
   */
  async page(
    query: TimelinePageQuery,
  ): Promise<{ entries: TimelineEntry[]; nextCursor?: string }> {
    const after = query.cursor ? decodeCursor(query.cursor) : undefined;
    const limit = query.limit + 1;
    /** What an entry must be, as conditions on the timeline's `t`. */
    const entriesWanted = (q: Knex.QueryBuilder) => {
      if (query.kinds?.length) q.whereIn('t.kind', [...query.kinds]);
      if (query.from !== undefined) q.where('t.occurred_at', '>=', query.from);
      if (query.to !== undefined) q.where('t.occurred_at', '<', query.to);
      // A range on the index's time column, then the tie on id: an OR of
      // the two alone would leave the planner no range to scan.
      if (after)
        q.where('t.occurred_at', '<=', after.occurredAt).andWhereRaw(
          '(t.occurred_at, t.id) < (?, ?)',
          [after.occurredAt, after.id],
        );
    };
    const environments = (q: Knex.QueryBuilder) => {
      q.where('m.entity_ref', boundedKey(query.entityRef));
      if (query.environmentSlug)
        q.where('m.environment_slug', query.environmentSlug);
    };
    const newestFirst = (prefix: string) => [
      { column: `${prefix}.occurred_at`, order: 'desc' as const },
      { column: `${prefix}.id`, order: 'desc' as const },
    ];
    try {
      const rows: TimelineRow[] =
        this.db.client.config.client === 'pg'
          ? // Each environment's newest entries from its own index range
            // (LATERAL), then the newest of those: the planner cannot carry
            // ORDER BY … LIMIT through a plain join.
            await this.db(`${MAPPING} as m`)
              .modify(environments)
              .joinRaw('cross join lateral (?) as x', [
                // knex takes a builder as a binding: a parameterised subquery.
                this.db(`${TIMELINE} as t`)
                  .select('t.id', 't.kind', 't.occurred_at', 't.entry')
                  .whereRaw('t.environment_key = m.environment_key')
                  .modify(entriesWanted)
                  .orderBy(newestFirst('t'))
                  .limit(limit) as unknown as Knex.Raw,
              ])
              .orderBy(newestFirst('x'))
              .limit(limit)
              .select(
                'x.id',
                'x.kind',
                'x.occurred_at',
                'm.environment_slug',
                'x.entry',
              )
          : await this.db(`${TIMELINE} as t`)
              .join(`${MAPPING} as m`, 'm.environment_key', 't.environment_key')
              .modify(environments)
              .modify(entriesWanted)
              .orderBy(newestFirst('t'))
              .limit(limit)
              .select(
                't.id',
                't.kind',
                't.occurred_at',
                'm.environment_slug',
                't.entry',
              );
      const entries = rows.slice(0, query.limit).map(row => ({
        ...JSON.parse(row.entry),
        id: String(row.id),
        kind: row.kind,
        at: new Date(Number(row.occurred_at)).toISOString(),
        environment: row.environment_slug,
      }));
      const last = rows[query.limit - 1];
      return {
        entries,
        ...(rows.length > query.limit &&
          last && {
            nextCursor: encodeCursor(Number(last.occurred_at), Number(last.id)),
          }),
      };
    } catch (error) {
      return unavailable(error);
    }
  }

  /**
   * Deletes what retention and the size bound leave out: entries older than
   * `olderThan`, then, per environment over `maxPerEnvironment`, its oldest.
   */
  async prune(options: {
    olderThan: number;
    maxPerEnvironment: number;
  }): Promise<{ expired: number; overflow: number }> {
    const expired = await this.db(TIMELINE)
      .where('occurred_at', '<', options.olderThan)
      .delete();
    let overflow = 0;
    const crowded = await this.db(TIMELINE)
      .select('environment_key')
      .count({ n: '*' })
      .groupBy('environment_key')
      .having(this.db.raw('count(*) > ?', [options.maxPerEnvironment]));
    for (const { environment_key: key, n } of crowded as Array<{
      environment_key: string;
      n: number | string;
    }>) {
      const excess = Number(n) - options.maxPerEnvironment;
      const oldest = this.db(TIMELINE)
        .select('id')
        .where({ environment_key: key })
        .orderBy([
          { column: 'occurred_at', order: 'asc' },
          { column: 'id', order: 'asc' },
        ])
        .limit(excess);
      overflow += await this.db(TIMELINE)
        .whereIn('id', this.db.select('id').from(oldest.as('oldest')))
        .delete();
    }
    return { expired, overflow };
  }

  /** The row count (for tests and the benchmark). */
  async count(): Promise<number> {
    const [{ n }] = await this.db(TIMELINE).count({ n: '*' });
    return Number(n);
  }

  /** The database client, for the benchmark's baseline query. */
  get client(): Knex {
    return this.db;
  }
}
