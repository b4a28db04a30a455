/**
 * A what-if link at the app's caps and one past them (issue #35 class 8), in headless Chromium: a `#ep=` link with
 * `MAX_EDITS` inserted calls filling `MAX_EDITS_CHARS` opens with its what-if judged (τ-bench and τ²); one edit more,
 * or more text, opens the episode without the edits and says why in a sentence. How long the page's thread is held
 * meanwhile is measured by `npm run bench` (whatif_link_at_caps_longest_task_ms), not here.
 */
import { rmSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_EDITS, MAX_EDITS_CHARS } from '../../src/protocol/share-context';
import { argsAtCaps, mockDataDir, tau2LinkAtCaps, tauBenchLinkAtCaps } from '../support/what-if-links';
import { offlinePage, skipBrowser, startAppAndBrowser, type AppServer } from './harness';

const WHY = 'a bigger what-if would hold up the page while its dialogue is drawn';

describe.skipIf(skipBrowser)('what-if links at the caps in headless Chromium', () => {
  let server: AppServer;
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    dir = mockDataDir();
    ({ server, browser } = await startAppAndBrowser(null, dir));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('a τ-bench episode’s link at the caps opens with its what-if judged; one edit more is refused in a sentence', async () => {
    const { context, page } = await offlinePage(browser);
    try {
      await page.goto(`${server.url}${tauBenchLinkAtCaps()}`);
      await page.getByTestId('what-if-reward').waitFor({ timeout: 120_000 });
      expect(await page.getByTestId('what-if-banner').textContent()).toContain(`${MAX_EDITS} changes`);

      await page.goto(`${server.url}${tauBenchLinkAtCaps(MAX_EDITS + 1, 100)}`);
      await page.reload();
      await expect
        .poll(() => page.getByTestId('shared-from').textContent(), { timeout: 60_000 })
        .toContain(
          `Part of the link could not be used: its what-if edits were left out: there are ${MAX_EDITS + 1} of them, more than the ${MAX_EDITS} a link may carry (${WHY}).`,
        );
      await page.locator('[data-testid="episode-screen"]').waitFor({ timeout: 60_000 });
      expect(await page.getByTestId('what-if-banner').count()).toBe(0);
    } finally {
      await context.close();
    }
  }, 300_000);

  it('a τ² simulation’s link at the caps opens with its what-if judged; more text than the caps is refused in a sentence', async () => {
    const { context, page } = await offlinePage(browser);
    try {
      await page.goto(`${server.url}${tau2LinkAtCaps()}`);
      await page.getByTestId('tau2-what-if-reward').waitFor({ timeout: 120_000 });
      expect(await page.getByTestId('tau2-what-if-banner').textContent()).toContain(`what-if: ${MAX_EDITS} edits`);

      // Each call's arguments ten characters longer: the edits together past MAX_EDITS_CHARS.
      await page.goto(`${server.url}${tau2LinkAtCaps(MAX_EDITS, argsAtCaps('transfer_to_human_agents') + 10)}`);
      await page.reload();
      const refused = new RegExp(
        `Part of the link could not be used: its what-if edits were left out: together they hold 20\\d,\\d{3} characters of text, more than the ${MAX_EDITS_CHARS.toLocaleString('en-US')} a link's what-if may hold \\(${WHY}\\)\\.`,
      );
      await expect.poll(() => page.getByTestId('shared-from').textContent(), { timeout: 60_000 }).toMatch(refused);
      await page.locator('[data-testid="tau2-sim"][data-index="0"]').waitFor({ timeout: 60_000 });
      expect(await page.getByTestId('tau2-what-if-banner').count()).toBe(0);
    } finally {
      await context.close();
    }
  }, 300_000);
});
