// Drives Debian's Chromium against the portal that e2e/run.mjs started.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const PORTAL_URL = process.env.PORTAL_URL ?? 'http://localhost:7107';
export const ARTIFACTS_DIR = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  'artifacts',
);

// Chromium's background services try to reach Google's hosts, which this
// network refuses; these flags keep the browser quiet and the tests fast.
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * Opens the portal in Chromium. Each page gets a browser profile of its own:
 * a second tab in a profile that is already signed in never finishes the
 * guest session handshake, while a fresh profile signs in cleanly. Every page
 * records console errors and uncaught exceptions, so a test can assert the
 * page ran cleanly.
 */
export async function openPortal({
  viewport = { width: 1440, height: 900 },
  baseUrl = PORTAL_URL,
} = {}) {
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  const contexts = [];

  return {
    /** A new page, in a new profile, that records its errors in `page.errors`. */
    async page() {
      const profileDir = await mkdtemp(join(tmpdir(), 'gitlab-env-e2e-'));
      const context = await chromium.launchPersistentContext(profileDir, {
        executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
        headless: true,
        args: CHROMIUM_ARGS,
        viewport,
      });
      contexts.push({ context, profileDir });
      const page = context.pages()[0] ?? (await context.newPage());
      page.errors = [];
      page.on('pageerror', error => page.errors.push(String(error)));
      page.on('console', message => {
        if (message.type() === 'error') page.errors.push(message.text());
      });
      return page;
    },
    /** Navigates and signs in as guest when the sign-in page shows. */
    async goto(page, path) {
      await page.goto(new URL(path, baseUrl).toString());
      await signInIfAsked(page);
    },
    async screenshot(page, name) {
      const path = join(ARTIFACTS_DIR, `${name}.png`);
      await page.screenshot({ path, fullPage: true });
      return path;
    },
    async close() {
      for (const { context, profileDir } of contexts.splice(0)) {
        await context.close();
        await rm(profileDir, { recursive: true, force: true });
      }
    },
  };
}

async function signInIfAsked(page) {
  const enter = page.getByRole('button', { name: 'Enter' });
  const appShell = page.locator('nav, [data-testid="sidebar-root"], main');
  await Promise.race([
    enter.waitFor({ state: 'visible', timeout: 30_000 }),
    appShell.first().waitFor({ state: 'visible', timeout: 30_000 }),
  ]);
  if (await enter.isVisible()) {
    await enter.click();
    await enter.waitFor({ state: 'hidden', timeout: 30_000 });
  }
}
