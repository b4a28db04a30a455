import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPLETE, launchChromium, skipBrowser, startApp, type AppServer } from './harness';

const HOSTILE = '<img src=x onerror="document.title=1"><b>bold</b>';

describe.skipIf(skipBrowser)('notes in headless Chromium', () => {
  let server: AppServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startApp(null), launchChromium()]);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('keeps a note and a label across a reload, shows hostile text as text, counts and filters labels', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    try {
      await page.goto(server.url);
      await page.waitForSelector(COMPLETE, { timeout: 60_000 });
      await page.locator('[data-testid="episode-row"][data-index="1"]').click();
      await page.waitForSelector('[data-testid="episode-notes"]');
      await page.locator('[data-testid="episode-note"]').fill(HOSTILE);
      await page.locator('[data-testid="episode-note"]').blur();
      await page.locator('[data-testid="note-label"]').selectOption('agent error');
      await expect.poll(() => page.locator('[data-testid="note-status"]').textContent()).toBe('saved in this browser');
      await page.reload();
      await page.waitForSelector(COMPLETE, { timeout: 60_000 });
      await expect.poll(() => page.locator('[data-testid="label-counts"]').textContent()).toBe('agent error: 1');
      await page.locator('[data-testid="label-filter"]').selectOption('agent error');
      await expect.poll(() => page.locator('[data-testid="episode-row"]').count()).toBe(1);
      await page.locator('[data-testid="episode-row"][data-index="1"]').click();
      await expect.poll(() => page.locator('[data-testid="episode-note"]').inputValue()).toBe(HOSTILE);
      expect(await page.locator('[data-testid="note-label"]').inputValue()).toBe('agent error');
      expect(await page.title()).not.toBe('1');
      expect(await page.locator('img[src="x"]').count()).toBe(0);
    } finally {
      await context.close();
    }
  }, 180_000);
});
