// The timeline outlives the backend (e2e/run.mjs runs this on a portal whose
// database is a SQLite file, restarts it on the same file, then runs
// after-restart.test.mjs): while an environment is viewed, a pod that
// crash-loops turns it Degraded, and the timeline records the transition.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openPortal } from '../lib/portal.mjs';
import { isAppError } from '../lib/tab.mjs';
import {
  crashOnePod,
  degradedEntry,
  openTimeline,
  ENTITY,
} from './scenario.mjs';

const TIMEOUT = 60_000;

let portal;
before(async () => {
  portal = await openPortal();
});
after(async () => {
  await portal?.close();
});

test('a health transition of a viewed environment shows on its timeline', async () => {
  const page = await portal.page();
  await portal.goto(page, `${ENTITY}?env=development`);
  await page
    .getByRole('status', { name: 'Updates: Live' })
    .first()
    .waitFor({ timeout: TIMEOUT });
  await crashOnePod();
  const panel = page.getByRole('region', { name: 'Resources of development' });
  await panel
    .getByRole('status', { name: /^Health: Degraded/ })
    .first()
    .waitFor({ timeout: TIMEOUT });
  // The resources stay followed while the timeline shows.
  const timeline = await openTimeline(page, panel);
  const entry = await degradedEntry(timeline, TIMEOUT);
  assert.match(await entry.innerText(), /caused by/);
  await portal.screenshot(page, 'timeline-before-restart');
  assert.deepEqual(page.errors.filter(isAppError), []);
});
