// The demo portal with `backend.database.client: pg` (e2e/run.mjs starts it on
// a throwaway PostgreSQL cluster): the catalog lives in PostgreSQL, and an
// entity's Environments tab works as on SQLite.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { openPortal } from '../lib/portal.mjs';

const TIMEOUT = 30_000;

function psql(database, sql) {
  return execFileSync('psql', [
    '-h',
    '127.0.0.1',
    '-p',
    process.env.PG_PORT,
    '-U',
    'postgres',
    '-d',
    database,
    '-Atc',
    sql,
  ])
    .toString()
    .trim()
    .split('\n');
}

let portal;
before(async () => {
  portal = await openPortal();
});
after(async () => {
  await portal?.close();
});

test('on PostgreSQL, the catalog is stored there and the Environments tab shows', async () => {
  const page = await portal.page();
  await portal.goto(page, '/catalog/default/component/storefront/gitlab-env');
  await page
    .locator('section[data-environment]')
    .first()
    .waitFor({ timeout: TIMEOUT });
  await page
    .getByRole('status', { name: /^Health: / })
    .first()
    .waitFor({ timeout: TIMEOUT });
  await portal.screenshot(page, 'postgres-entity-tab');

  // Backstage gives each plugin its own database on PostgreSQL.
  const databases = psql('postgres', 'select datname from pg_database');
  console.log(`databases: ${databases.join(', ')}`);
  assert.ok(databases.includes('backstage_plugin_catalog'));
  const [storefront] = psql(
    'backstage_plugin_catalog',
    'select count(*) from final_entities where final_entity like \'%"name":"storefront"%\'',
  );
  assert.equal(storefront, '1');
});
