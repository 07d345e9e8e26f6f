// What a person sees, measured in the page: words broken across lines,
// accessibility violations (axe-core, injected), boxes.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
// Evaluated rather than added as a script tag: the portal's content
// security policy refuses inline scripts.
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * The words inside `locator` that a line break cuts in two. By default a
 * break after a hyphen or a slash is a break between words
 * (`storefront-review-`/`feature-cart`); with `whole`, only spaces separate
 * words (a command's arguments, which must never break).
 */
export async function brokenWords(locator, { whole = false } = {}) {
  return locator.evaluate((root, keepWhole) => {
    const broken = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const pattern = keepWhole ? /\S+/g : /[^\s\-/]+/g;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const box = node.parentElement?.getBoundingClientRect();
      // Text for screen readers only (a 1 px box) is not seen.
      if (!box || box.width <= 1 || box.height <= 1) continue;
      for (const match of node.textContent.matchAll(pattern)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = new Set(
          [...range.getClientRects()]
            .filter(rect => rect.width > 0)
            .map(rect => Math.round(rect.top)),
        );
        if (lines.size > 1) broken.push(match[0]);
      }
    }
    return broken;
  }, whole);
}

/**
 * Runs axe-core in the page (on `selector`, or the whole document) and
 * returns the serious and critical violations: rule, impact, help and the
 * first elements concerned.
 */
export async function axeViolations(page, selector) {
  if (!(await page.evaluate(() => Boolean(window.axe))))
    await page.evaluate(AXE_SOURCE);
  // A dialog fading in is measured at its final colours, not mid-fade.
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        a =>
          a.playState !== 'running' ||
          a.effect?.getTiming().iterations === Infinity,
      ),
  );
  const violations = await page.evaluate(
    async context =>
      (
        await window.axe.run(context ?? document, {
          resultTypes: ['violations'],
        })
      ).violations.map(v => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ')),
      })),
    selector,
  );
  return violations.filter(v => ['serious', 'critical'].includes(v.impact));
}

/** Presses Tab until the focused element satisfies `isTarget` (run in the page). */
export async function tabTo(page, isTarget, arg, { max = 150 } = {}) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(isTarget, arg)) return;
  }
  throw new Error(`Tab never reached the element (${isTarget})`);
}
