import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATA_DIR, hasShared, SHARED_DIR } from '../support/shared';
import { COMPLETE, offlinePage, SCROLL_TO_ROW, skipBrowser, startAppAndBrowser, type AppServer } from './harness';

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
    ({ server, browser } = await startAppAndBrowser(hasShared ? DATA_DIR : null));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('an open episode shows the first user message and at least 500 px of dialogue; arrows move the step after a click on a row; ? lists the keys', async () => {
    const { context, page } = await offlinePage(browser, { width: 1440, height: 900 });
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
    } finally {
      await context.close();
    }
  }, 120_000);

  it('a <think> block comes folded and opens; a search marks every hit in the episode and Enter steps to the next one, in view', async () => {
    // Episode 0 of the invented sample, its first agent text given a Qwen-style <think> block that mentions "order" three times.
    const run = JSON.parse(readFileSync(join(import.meta.dirname, '../../sample-runs/runs/retail-sample.json'), 'utf8')) as {
      traj: { role: string; content?: string | null }[];
    }[];
    const episode = run[0]!;
    const agent = episode.traj.find((m) => m.role === 'assistant' && (m.content ?? '') !== '')!;
    const thinking = 'The user wants to cancel an order. Authenticate first, then look up the order and check the order is pending.';
    agent.content = `<think>\n${thinking}\n</think>\n\n${agent.content}`;
    const { context, page } = await offlinePage(browser, { width: 1440, height: 900 });
    try {
      await page.goto(server.url);
      await page.waitForSelector('[data-testid="episode-row"]');
      await page.setInputFiles('[data-testid="open-file-input"]', {
        name: 'think.json',
        mimeType: 'application/json',
        buffer: Buffer.from(JSON.stringify([episode])),
      });
      await page.waitForSelector('[data-testid="episode-table"][data-total="1"]', { timeout: 30_000 });
      await clickRow(page, 0);
      // The transcript shows before the replay; wait for the verdict so the screen is the final one.
      await page.waitForSelector('[data-testid="verdict-reward"]', { timeout: 30_000 });
      const block = page.getByTestId('reasoning');
      await block.waitFor({ timeout: 30_000 });
      const toggle = block.getByRole('button');
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      expect(await toggle.textContent()).toContain(`Reasoning · ${thinking.length} chars`);
      const dialogue = page.getByTestId('dialogue');
      expect(await dialogue.textContent()).not.toContain(thinking);
      expect(await dialogue.textContent()).not.toContain('<think>');
      expect(await dialogue.textContent()).toContain(agent.content.slice(agent.content.indexOf('</think>') + 10, agent.content.indexOf('</think>') + 40));
      await toggle.click();
      await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('true');
      expect(await block.textContent()).toContain(thinking);
      await toggle.click();
      await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('false');

      // Every hit of "order" in the user, agent and tool text is marked; the block says it holds three.
      const expected = episode.traj.filter((m) => m.role !== 'system').reduce((n, m) => n + ((m.content ?? '').match(/order/giu)?.length ?? 0), 0);
      expect(expected).toBeGreaterThan(4);
      await page.getByTestId('search').fill('order');
      await page.getByTestId('search').press('Enter');
      const counter = page.getByTestId('search-counter');
      await expect.poll(() => counter.textContent(), { timeout: 10_000 }).toBe(`1 of ${expected}`);
      const hits = page.locator('[data-testid="search-hit"]');
      const current = page.locator('[data-testid="search-hit"][data-current="true"]');
      expect(await block.getByTestId('reasoning-hits').textContent()).toBe('3 search hits');
      expect(await hits.count(), 'every hit outside the folded block marked').toBe(expected - 3);
      expect(await current.count()).toBe(1);
      const first = await current.evaluate((e) => e.closest('li')?.dataset.messageIndex);
      // The first hit is in the user's first message; Enter goes to the next, inside the folded block, which opens.
      await page.getByTestId('search').press('Enter');
      await expect.poll(() => counter.textContent()).toBe(`2 of ${expected}`);
      await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('true');
      expect(await hits.count(), 'every hit marked, the block open').toBe(expected);
      expect(await current.count()).toBe(1);
      expect(await current.evaluate((e) => e.closest('[data-testid="reasoning"]') !== null)).toBe(true);
      expect(await current.evaluate((e) => e.closest('li')?.dataset.messageIndex)).not.toBe(first);
      // Step on to the last hit (Shift+Enter wraps back from the first) and see it scrolled into the dialogue's view.
      await page.getByTestId('search').press('Enter');
      await page.getByTestId('search').press('Shift+Enter');
      await page.getByTestId('search').press('Shift+Enter');
      await page.getByTestId('search').press('Shift+Enter');
      await expect.poll(() => counter.textContent()).toBe(`${expected} of ${expected}`);
      await expect
        .poll(() =>
          current.evaluate((e) => {
            const r = e.getBoundingClientRect();
            const box = document.querySelector('[data-testid="dialogue"]')!.getBoundingClientRect();
            return r.top >= box.top && r.bottom <= box.bottom;
          }),
        )
        .toBe(true);
    } finally {
      await context.close();
    }
  }, 90_000);

  it('at 390×844: no sideways scroll on the overview or in an episode; the fixed header is at most 10 % of the height, also while the welcome line shows', async () => {
    const { context, page } = await offlinePage(browser, { width: 390, height: 844 });
    try {
      await page.goto(server.url);
      await page.waitForSelector(COMPLETE, { timeout: 60_000 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      const fixedTop = (): Promise<number> =>
        page.evaluate(() => {
          const h = document.querySelector('header')!.getBoundingClientRect();
          const d = document.querySelector('[data-testid="detection"]')!.getBoundingClientRect();
          return Math.max(h.bottom, d.bottom);
        });
      // A fresh context is a first start: the welcome line shows, outside the fixed header (in the overview, under it).
      const welcome = await page.evaluate(() => {
        const shown = [...document.querySelectorAll('[data-testid="welcome"]')].find((e) => e.getClientRects().length > 0);
        const main = document.querySelector('main');
        return shown && main ? { top: shown.getBoundingClientRect().top, mainTop: main.getBoundingClientRect().top, text: shown.textContent ?? '' } : null;
      });
      expect(welcome, 'the welcome line shows on first start').not.toBeNull();
      expect(welcome!.text).toContain('invented sample');
      expect(welcome!.top, 'the welcome line is not part of the fixed header').toBeGreaterThanOrEqual(welcome!.mainTop);
      expect(await fixedTop()).toBeLessThanOrEqual(84.4);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.getByRole('button', { name: 'Got it: dismiss the welcome line' }).click();
      await page.getByTestId('welcome').first().waitFor({ state: 'detached' });
      expect(await fixedTop()).toBeLessThanOrEqual(84.4);
      await clickRow(page, 6);
      await page.waitForSelector(`${SCREEN}[data-episode="6"]`, { timeout: 30_000 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      // One scrolling area under the phone's tab bar: the dialogue scrolls, the page and the pane do not.
      const scrolls = await page.evaluate(() => {
        const over = (e: Element | null): number => (e ? e.scrollHeight - e.clientHeight : -1);
        return {
          dialogue: over(document.querySelector('[data-testid="dialogue"]')),
          pane: over(document.querySelector('[data-testid="episode-pane"]')),
          page: over(document.scrollingElement),
        };
      });
      expect(scrolls.dialogue).toBeGreaterThan(1);
      expect(scrolls.pane).toBeLessThanOrEqual(1);
      expect(scrolls.page).toBeLessThanOrEqual(1);
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
