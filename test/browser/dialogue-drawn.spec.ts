/**
 * The dialogue of a what-if link at the caps (issue #35 class 8) is drawn a slice at a time (src/ui/progressive.tsx),
 * so opening it holds the page's thread for no long task; these specs hold it to showing every message all the same, in
 * headless Chromium, for a τ-bench episode and a τ² simulation (`test/support/what-if-links.ts`, no ../shared needed):
 * scrolled to its end, the dialogue shows the episode's last message; the last step (End) is scrolled into view as soon
 * as the link opens; a search hit in the last message is found, marked and brought into view.
 */
import { rmSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_EDITS } from '../../src/protocol/share-context';
import { mockDataDir, tau2LinkAtCaps, tauBenchLinkAtCaps } from '../support/what-if-links';
import { offlinePage, skipBrowser, startAppAndBrowser, type AppServer } from './harness';

/** Whether `selector`'s last match is inside the visible part of its nearest scrolling ancestor (and of the window). */
function lastInView(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((sel) => {
    const all = document.querySelectorAll(sel);
    const el = all[all.length - 1];
    if (!el) return false;
    let box: Element | null = el.parentElement;
    while (box && !(/(auto|scroll)/.test(getComputedStyle(box).overflowY) && box.scrollHeight > box.clientHeight)) box = box.parentElement;
    const r = el.getBoundingClientRect();
    const b = box ? box.getBoundingClientRect() : { top: 0, bottom: innerHeight };
    return r.height > 0 && r.top < Math.min(b.bottom, innerHeight) && r.bottom > Math.max(b.top, 0);
  }, selector);
}

/** Scrolls `selector`'s last match's scrolling ancestor to its end (as a reader would, with the wheel), then whether that match shows. */
function scrollToEnd(page: Page, selector: string): Promise<boolean> {
  return page
    .evaluate((sel) => {
      const all = document.querySelectorAll(sel);
      let box: Element | null = all[all.length - 1]?.parentElement ?? null;
      while (box && !(/(auto|scroll)/.test(getComputedStyle(box).overflowY) && box.scrollHeight > box.clientHeight)) box = box.parentElement;
      if (box) box.scrollTop = box.scrollHeight;
    }, selector)
    .then(() => lastInView(page, selector));
}

describe.skipIf(skipBrowser)('the dialogue of a what-if link at the caps, drawn a slice at a time, shows every message', () => {
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

  it('τ-bench: a hit in the last message found and shown at once, the last step too (End), every message drawn, the end reached by scrolling', async () => {
    const { context, page } = await offlinePage(browser);
    try {
      await page.goto(`${server.url}${tauBenchLinkAtCaps()}`);
      const rows = page.locator('[data-testid="dialogue"] > li[data-message-index]');
      // The search as soon as the dialogue shows (while it is drawn, and drawn again for the what-if): its one hit is in
      // the last message, marked as current and brought into view — the rows up to it drawn with it.
      await rows.first().waitFor({ timeout: 120_000 });
      await page.getByTestId('search').fill('No, thanks!');
      await page.getByTestId('search').press('Enter');
      await page.getByTestId('what-if-reward').waitFor({ timeout: 120_000 });
      await expect.poll(() => page.getByTestId('search-counter').textContent(), { timeout: 10_000 }).toBe('1 of 1');
      const current = page.locator('[data-testid="dialogue"] [data-testid="search-hit"][data-current="true"]');
      await expect.poll(() => current.count(), { timeout: 10_000 }).toBe(1);
      expect(await current.evaluate((e) => e.closest('li[data-message-index]')?.getAttribute('data-message-index'))).toBe(
        await rows.last().getAttribute('data-message-index'),
      );
      await expect.poll(() => lastInView(page, '[data-testid="dialogue"] [data-testid="search-hit"][data-current="true"]'), { timeout: 10_000 }).toBe(true);
      await page.getByTestId('search').fill('');
      await page.getByTestId('search').blur();
      // The last step (End) at once: the rows up to it are drawn with it, and it is scrolled into the dialogue's view.
      await page.locator('body').press('End');
      const last = page.locator('[data-testid="dialogue"] > li[aria-current="step"]');
      await expect.poll(() => last.count(), { timeout: 10_000 }).toBeGreaterThan(0);
      const steps = await page
        .locator('[data-testid="dialogue"] > li[data-step]')
        .evaluateAll((ls) => Math.max(...ls.map((l) => Number(l.getAttribute('data-step')))));
      expect(Number(await last.first().getAttribute('data-step'))).toBe(steps);
      expect(steps, 'the inserted calls are steps').toBeGreaterThan(MAX_EDITS);
      await expect.poll(() => lastInView(page, '[data-testid="dialogue"] > li[aria-current="step"]'), { timeout: 10_000 }).toBe(true);

      // Every message, in order: the inserted calls and the episode's own, its last ("No, thanks! ###STOP###") at the end.
      await expect.poll(() => page.getByTestId('dialogue-drawing').count(), { timeout: 30_000 }).toBe(0);
      const indices = await rows.evaluateAll((ls) => ls.map((l) => Number(l.getAttribute('data-message-index'))));
      expect(indices.length).toBeGreaterThan(20 + MAX_EDITS);
      expect(indices).toEqual(indices.map((_, i) => indices[0]! + i));
      expect(await rows.last().textContent()).toContain('No, thanks! ###STOP###');
      await expect.poll(() => scrollToEnd(page, '[data-testid="dialogue"] > li[data-message-index]'), { timeout: 10_000 }).toBe(true);
    } finally {
      await context.close();
    }
  }, 300_000);

  it('τ²: the last message in view at once (End), every message drawn, the end reached by scrolling, a hit in the last message marked', async () => {
    const { context, page } = await offlinePage(browser);
    try {
      await page.goto(`${server.url}${tau2LinkAtCaps()}`);
      await page.getByTestId('tau2-what-if-reward').waitFor({ timeout: 120_000 });
      const messages = page.locator('[data-testid="tau2-dialogue"] > [data-testid="tau2-message"]');
      // The last message at once: the entries up to it are drawn with it, and it is scrolled into view.
      await page.locator('body').press('End');
      const selected = '[data-testid="tau2-dialogue"] > [data-testid="tau2-message"][data-selected="true"]';
      await expect.poll(() => page.locator(selected).textContent(), { timeout: 10_000 }).toContain('Great, thanks! ###STOP###');
      await expect.poll(() => lastInView(page, selected), { timeout: 10_000 }).toBe(true);

      // Every message: each inserted call with its answer, and the simulation's own to its last.
      await expect.poll(() => page.getByTestId('dialogue-drawing').count(), { timeout: 30_000 }).toBe(0);
      expect(await page.locator('[data-testid="tau2-dialogue"] [data-testid="tau2-call"]').count()).toBeGreaterThanOrEqual(MAX_EDITS);
      expect(await messages.last().textContent()).toContain('Great, thanks! ###STOP###');
      await page.locator('body').press('Home');
      await expect.poll(() => scrollToEnd(page, '[data-testid="tau2-dialogue"] > [data-testid="tau2-message"]'), { timeout: 10_000 }).toBe(true);

      // The run's search marks its hit in the last message.
      await page.getByTestId('search').fill('Great, thanks');
      const hit = messages.last().locator('mark:not([aria-label="communicated info"])');
      await expect.poll(() => hit.allTextContents(), { timeout: 10_000 }).toEqual(['Great, thanks']);
    } finally {
      await context.close();
    }
  }, 300_000);
});
