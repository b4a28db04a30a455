import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATA_DIR, hasShared, SHARED_DIR } from '../support/shared';
import { COMPLETE, NO_BROWSER_SERVICES, offlinePage, SCROLL_TO_ROW, skipBrowser, startAppAndBrowser, type AppServer } from './harness';

const SCREEN = '[data-testid="episode-screen"]';

async function clickRow(page: Page, index: number): Promise<void> {
  expect(await page.evaluate(SCROLL_TO_ROW, index), `row ${index} is in the list`).toBe(true);
  await page.locator(`[data-testid="episode-row"][data-index="${index}"]`).click();
}

/** How much of the dialogue is on screen, and whether the first user message is entirely on screen. */
const DIALOGUE_ON_SCREEN = (): { visible: number; firstUser: boolean } => {
  const list = document.querySelector('[data-testid="dialogue"]');
  const user = document.querySelector('[data-testid="dialogue"] li[data-role="user"]');
  if (!list || !user) return { visible: 0, firstUser: false };
  const r = list.getBoundingClientRect();
  const u = user.getBoundingClientRect();
  return {
    visible: Math.min(r.bottom, innerHeight) - Math.max(r.top, 0),
    firstUser: u.top >= 0 && u.bottom <= innerHeight && u.left >= 0 && u.right <= innerWidth,
  };
};

const stepOf = async (page: Page): Promise<string | null> => page.getAttribute(SCREEN, 'data-step');

describe.skipIf(skipBrowser)('workspace at 1440×900 and 390×844', () => {
  let server: AppServer;
  let browser: Browser;

  beforeAll(async () => {
    ({ server, browser } = await startAppAndBrowser(hasShared ? DATA_DIR : null, NO_BROWSER_SERVICES));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('an open episode shows the first user message and at least 500 px of dialogue; arrows move the step after a click on a row; ? lists the keys', async () => {
    const { context, page, blocked } = await offlinePage(browser, { width: 1440, height: 900 });
    try {
      await page.goto(server.url);
      await page.waitForSelector(COMPLETE, { timeout: 60_000 });
      // Episode 6 of the sample has procedure notes and 61 messages: the case where the dialogue used to be off screen.
      for (const index of [0, 6]) {
        await clickRow(page, index);
        await page.waitForSelector(`${SCREEN}[data-episode="${index}"]`, { timeout: 30_000 });
        const d = await page.evaluate(DIALOGUE_ON_SCREEN);
        expect(d.firstUser, `episode ${index}: first user message on screen`).toBe(true);
        expect(d.visible, `episode ${index}: px of dialogue on screen`).toBeGreaterThanOrEqual(500);
      }

      // A click on a row leaves the list: the arrows, Home and End move the step cursor, pressed at once (no waiting for the episode).
      await clickRow(page, 1);
      await page.keyboard.press('ArrowDown');
      await page.waitForSelector(`${SCREEN}[data-episode="1"]`, { timeout: 30_000 });
      await expect.poll(() => stepOf(page)).toBe('1');
      const count = Number((await page.getByTestId('step-current').textContent())?.match(/of (\d+)/)?.[1]);
      expect(count).toBeGreaterThan(2);
      await page.keyboard.press('End');
      await expect.poll(() => stepOf(page)).toBe(String(count - 1));
      await page.keyboard.press('ArrowUp');
      await expect.poll(() => stepOf(page)).toBe(String(count - 2));
      await page.keyboard.press('Home');
      await expect.poll(() => stepOf(page)).toBe('0');
      // A step-only change reaches the URL once stepping pauses (src/app/link-sync.ts).
      await expect.poll(() => page.evaluate(() => location.hash)).toContain('episode=1&step=0');
      // The list itself still has its arrows while focused, and Escape gives them back.
      await page.getByTestId('episode-table').focus();
      await page.keyboard.press('ArrowDown');
      expect(await stepOf(page)).toBe('0');
      await page.keyboard.press('Escape');
      await page.keyboard.press('j');
      await expect.poll(() => stepOf(page)).toBe('1');
      // n opens the next episode in list order.
      await page.keyboard.press('n');
      await page.waitForSelector(`${SCREEN}[data-episode="2"]`, { timeout: 30_000 });

      await page.keyboard.press('?');
      const help = page.getByTestId('key-help');
      await help.waitFor({ state: 'visible' });
      const text = (await help.textContent()) ?? '';
      for (const k of ['next step', 'previous step', 'next / previous episode', 'next / previous failed episode', 'Esc']) expect(text).toContain(k);
      await page.keyboard.press('Escape');
      await help.waitFor({ state: 'hidden' });
      expect(await page.locator(SCREEN).count()).toBe(1);
      expect(blocked).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('at 390×844: no sideways scroll on the overview or in an episode; the fixed header is at most 10 % of the height', async () => {
    const { context, page } = await offlinePage(browser, { width: 390, height: 844 });
    try {
      await page.goto(server.url);
      await page.waitForSelector(COMPLETE, { timeout: 60_000 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      const welcome = page.getByRole('button', { name: 'Dismiss the welcome line' });
      if (await welcome.count()) await welcome.click();
      const top = await page.evaluate(() => {
        const h = document.querySelector('header')!.getBoundingClientRect();
        const d = document.querySelector('[data-testid="detection"]')!.getBoundingClientRect();
        return Math.max(h.bottom, d.bottom);
      });
      expect(top).toBeLessThanOrEqual(84.4);
      await clickRow(page, 6);
      await page.waitForSelector(`${SCREEN}[data-episode="6"]`, { timeout: 30_000 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      // One scrolling area: the dialogue has no scroll box of its own.
      const own = await page.evaluate(() => {
        const d = document.querySelector<HTMLElement>('[data-testid="dialogue"]')!;
        return d.scrollHeight - d.clientHeight;
      });
      expect(own).toBeLessThanOrEqual(1);
    } finally {
      await context.close();
    }
  }, 90_000);

  describe.skipIf(!hasShared)('gpt-4o-airline', () => {
    it('episodes 0 and 52 (procedure notes) show the first user message and at least 500 px of dialogue at 1440×900', async () => {
      const { context, page } = await offlinePage(browser, { width: 1440, height: 900 });
      try {
        await page.goto(server.url);
        await page.waitForSelector('[data-testid="episode-row"]');
        await page.setInputFiles('[data-testid="open-file-input"]', join(SHARED_DIR, 'runs', 'gpt-4o-airline.json'));
        await page.waitForSelector('[data-testid="episode-table"][data-total="200"]', { timeout: 30_000 });
        for (const index of [0, 52]) {
          await clickRow(page, index);
          await page.waitForSelector(`${SCREEN}[data-episode="${index}"]`, { timeout: 60_000 });
          const d = await page.evaluate(DIALOGUE_ON_SCREEN);
          expect(d.firstUser, `episode ${index}: first user message on screen`).toBe(true);
          expect(d.visible, `episode ${index}: px of dialogue on screen`).toBeGreaterThanOrEqual(500);
        }
      } finally {
        await context.close();
      }
    }, 120_000);
  });
});
