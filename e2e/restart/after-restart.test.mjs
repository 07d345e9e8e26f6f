// Run by e2e/run.mjs on the portal restarted on the database of
// before-restart.test.mjs: the transition recorded before the restart is
// still on the timeline (the simulator restarted too: the pod is healthy).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openPortal } from '../lib/portal.mjs';
import { isAppError } from '../lib/tab.mjs';
import { axeViolations } from '../lib/look.mjs';
import { degradedEntry, openTimeline, ENTITY } from './scenario.mjs';

const TIMEOUT = 60_000;
const RESTARTED_AT = Number(process.env.RESTARTED_AT);

let portal;
before(async () => {
  portal = await openPortal();
});
after(async () => {
  await portal?.close();
});

test('after a backend restart, the timeline still shows the transition recorded before it', async () => {
  assert.ok(RESTARTED_AT > 0, 'e2e/run.mjs says when it restarted the portal');
  const page = await portal.page();
  await portal.goto(page, `${ENTITY}?env=development&panel=timeline`);
  const panel = page.getByRole('region', { name: 'Resources of development' });
  const timeline = await openTimeline(page, panel);
  const entry = await degradedEntry(timeline, TIMEOUT);
  assert.match(await entry.innerText(), /caused by/);
  const at = Date.parse(await entry.locator('time').getAttribute('datetime'));
  assert.ok(
    at < RESTARTED_AT,
    `recorded at ${new Date(
      at,
    ).toISOString()}, before the restart at ${new Date(
      RESTARTED_AT,
    ).toISOString()}`,
  );
  await portal.screenshot(page, 'timeline-after-restart');
  assert.deepEqual(await axeViolations(page, 'main'), []);
  assert.deepEqual(page.errors.filter(isAppError), []);
});
