/* eslint-disable no-console */
// The timeline of an environment with a year of entries (one every two
// minutes: 262,800, among four sibling environments of the same entity with
// 20,000 each), in the plugin's database: SQLite (a file, as the demo can
// keep it) and PostgreSQL (a throwaway cluster of Debian's server, when
// scripts/ensure-postgresql.sh can install it). Each page read is one
// query and no upstream request (counted); its time is printed against a
// primary-key lookup of one row in the same run, in alternating turns.
// Timings are printed, never asserted.
// Run: npm run bench:timeline -w plugins/gitlab-env-backend
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mockServices } from '@backstage/backend-test-utils';
import {
  TimelineEntryKind,
  TimelineRecord,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import knexFactory, { Knex } from 'knex';
import { startPostgresSync } from '../src/__testUtils__/postgresServer';
import { TimelineStore } from '../src/history/timeline/TimelineStore';

const ENTITY = 'component:default/checkout-api';
const YEAR_MS = 365 * 86_400_000;
const EVERY_MS = 2 * 60_000;
const SIBLINGS = 4;
const SIBLING_ENTRIES = 20_000;
const RUNS = Number(process.env.TIMELINE_BENCH_RUNS ?? 300);
const PAGE = 50;
const NOW = Date.parse('2026-12-01T00:00:00Z');

/** A realistic mix: Warning Events and rollouts most, health changes and deployments rarer. */
const KINDS: TimelineEntryKind[] = [
  ...Array<TimelineEntryKind>(50).fill('event'),
  ...Array<TimelineEntryKind>(25).fill('rollout'),
  ...Array<TimelineEntryKind>(15).fill('flux'),
  ...Array<TimelineEntryKind>(5).fill('deployment'),
  ...Array<TimelineEntryKind>(3).fill('health'),
  ...Array<TimelineEntryKind>(2).fill('action'),
];

function record(i: number, at: number, env: string): TimelineRecord {
  const kind = KINDS[i % KINDS.length];
  return {
    key: `${kind}:${env}:${i}`,
    kind,
    at: new Date(at).toISOString(),
    summary: `${kind} ${i}: Deployment checkout-api rolled out revision ${i}`,
    detail: 'api: registry.example.com/acme/shop/checkout-api:3.8.2',
    links: [
      {
        label: 'Deployment checkout-api',
        object: {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          namespace: 'checkout',
          name: 'checkout-api',
        },
      },
    ],
  };
}

async function load(knex: Knex, store: TimelineStore) {
  const environments = [
    { key: 'gitlab.example.com|1', slug: 'production', name: 'production' },
    ...Array.from({ length: SIBLINGS }, (_, i) => ({
      key: `gitlab.example.com|${i + 2}`,
      slug: `env-${i + 2}`,
      name: `env-${i + 2}`,
    })),
  ];
  await store.setEntityEnvironments(ENTITY, environments);
  const started = Date.now();
  const rows: Array<Record<string, unknown>> = [];
  const add = (env: string, slug: string, i: number, at: number) => {
    const { key, kind, at: _at, ...entry } = record(i, at, env);
    rows.push({
      environment_key: env,
      entry_key: key,
      kind,
      occurred_at: at,
      environment_slug: slug,
      entry: JSON.stringify(entry),
      recorded_at: at,
    });
  };
  let i = 0;
  for (let at = NOW - YEAR_MS; at < NOW; at += EVERY_MS)
    add(environments[0].key, 'production', i++, at);
  for (const sibling of environments.slice(1))
    for (let j = 0; j < SIBLING_ENTRIES; j++)
      add(
        sibling.key,
        sibling.slug,
        j,
        NOW - Math.floor((YEAR_MS / SIBLING_ENTRIES) * j),
      );
  await knex.transaction(async tx => {
    for (let at = 0; at < rows.length; at += 100)
      await tx('gitlab_env_timeline').insert(rows.slice(at, at + 100));
  });
  // What PostgreSQL's autovacuum does after bulk changes (and SQLite's
  // planner reads too): the table's statistics.
  await knex.raw('analyze');
  return { entries: rows.length, production: i, loadMs: Date.now() - started };
}

function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

async function measure(name: string, knex: Knex, store: TimelineStore) {
  const loaded = await load(knex, store);
  let queries = 0;
  knex.on('query', () => {
    queries += 1;
  });
  const [{ max }] = await knex('gitlab_env_timeline').max({ max: 'id' });
  const half = await store.page({
    entityRef: ENTITY,
    environmentSlug: 'production',
    to: NOW - YEAR_MS / 2,
    limit: 1,
  });
  const pages: Record<string, () => Promise<unknown>> = {
    'newest page of the environment': () =>
      store.page({
        entityRef: ENTITY,
        environmentSlug: 'production',
        limit: PAGE,
      }),
    'a page six months back (cursor)': () =>
      store.page({
        entityRef: ENTITY,
        environmentSlug: 'production',
        cursor: half.nextCursor,
        limit: PAGE,
      }),
    'health changes only (3 % of entries)': () =>
      store.page({
        entityRef: ENTITY,
        environmentSlug: 'production',
        kinds: ['health'],
        limit: PAGE,
      }),
    'one day, nine months back (zoom)': () =>
      store.page({
        entityRef: ENTITY,
        environmentSlug: 'production',
        from: NOW - 274 * 86_400_000,
        to: NOW - 273 * 86_400_000,
        limit: PAGE,
      }),
    "the entity's five environments": () =>
      store.page({ entityRef: ENTITY, limit: PAGE }),
  };
  const baseline = () =>
    knex('gitlab_env_timeline')
      .where({ id: 1 + Math.floor(Math.random() * Number(max)) })
      .first();
  // Warm both up, then alternate turns so load on the machine hits both.
  for (let r = 0; r < 20; r++) {
    await baseline();
    for (const page of Object.values(pages)) await page();
  }
  const base: number[] = [];
  const times: Record<string, number[]> = Object.fromEntries(
    Object.keys(pages).map(k => [k, []]),
  );
  const perPage: Record<string, number> = {};
  for (let r = 0; r < RUNS; r++) {
    base.push(await time(baseline));
    for (const [label, page] of Object.entries(pages)) {
      const before = queries;
      times[label].push(await time(page));
      perPage[label] = queries - before;
    }
  }
  const b = median(base);
  console.log(
    `\n${name}: ${loaded.entries.toLocaleString(
      'en',
    )} entries (${loaded.production.toLocaleString(
      'en',
    )} in production over a year), loaded in ${(loaded.loadMs / 1000).toFixed(
      1,
    )} s`,
  );
  console.log(
    `  baseline, one row by primary key: ${b.toFixed(
      3,
    )} ms (median of ${RUNS})`,
  );
  for (const [label, values] of Object.entries(times))
    console.log(
      `  ${label.padEnd(38)} ${median(values).toFixed(3)} ms = ${(
        median(values) / b
      ).toFixed(1)}x baseline; ${perPage[label]} query, 0 upstream requests`,
    );
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'timeline-bench-'));
  try {
    const sqlite = knexFactory({
      client: 'better-sqlite3',
      connection: { filename: join(dir, 'gitlab-env.sqlite') },
      useNullAsDefault: true,
    });
    await measure(
      'SQLite (file)',
      sqlite,
      await TimelineStore.create(mockServices.database({ knex: sqlite })),
    );
    await sqlite.destroy();
    let postgres: ReturnType<typeof startPostgresSync> | undefined;
    try {
      postgres = startPostgresSync();
    } catch (error) {
      console.log(
        `\nPostgreSQL: not measured (${String(error).split('\n')[0]})`,
      );
    }
    if (postgres) {
      const major = postgres.id.replace('POSTGRES_', '');
      const url =
        process.env[
          `BACKSTAGE_TEST_DATABASE_POSTGRES${major}_CONNECTION_STRING`
        ]!;
      const admin = knexFactory({ client: 'pg', connection: url });
      await admin.raw('create database timeline_bench');
      await admin.destroy();
      const pg = knexFactory({
        client: 'pg',
        connection: `${url}/timeline_bench`,
      });
      await measure(
        `PostgreSQL ${major}`,
        pg,
        await TimelineStore.create(mockServices.database({ knex: pg })),
      );
      await pg.destroy();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch(error => {
  console.error(error);
  process.exitCode = 1;
});
