import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PANEL_KEYS } from '../../src/app/keys';
import { DATA_DIR, hasShared } from '../support/shared';
import { COMPLETE, offlinePage, SCROLL_TO_ROW, skipBrowser, startAppAndBrowser, type AppServer } from './harness';
import { MAX_TAB_ROWS, SIDE_TAB_ROWS } from './side-tabs';

const SCREEN = '[data-testid="episode-screen"]';
/** Episode 6 of the bundled sample: 61 messages, procedure notes, a DB diff. */
const EPISODE = 6;

async function openEpisode(page: Page, index: number): Promise<void> {
  await page.waitForSelector(COMPLETE, { timeout: 60_000 });
  // A first start shows the welcome line (once, until dismissed): the screen measured is the one used every day.
  const welcome = page.getByRole('button', { name: 'Dismiss the welcome line' });
  if (await welcome.isVisible()) await welcome.click();
  expect(await page.evaluate(SCROLL_TO_ROW, index), `row ${index} is in the list`).toBe(true);
  await page.locator(`[data-testid="episode-row"][data-index="${index}"]`).click();
  await page.waitForSelector(`${SCREEN}[data-episode="${index}"] [data-testid="verdict-reward"]`, { state: 'attached', timeout: 30_000 });
}

/** The part of an element inside the viewport, in px (height), and whether all of it is inside horizontally. */
const ON_SCREEN = (sel: string): { height: number; top: number; inside: boolean } | null => {
  const el = [...document.querySelectorAll(sel)].find((e) => e.getClientRects().length > 0);
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return { height: Math.max(0, Math.min(r.bottom, innerHeight) - Math.max(r.top, 0)), top: r.top, inside: r.left >= 0 && r.right <= innerWidth };
};

/** Tabs whose label is clipped (wider than their box, or outside the tab strip). */
const CLIPPED_TABS = (): string[] =>
  [...document.querySelectorAll<HTMLElement>('[role="tab"][id^="episode-tab-"]')]
    .filter((t) => {
      const strip = t.closest('[role="tablist"]')!.getBoundingClientRect();
      const r = t.getBoundingClientRect();
      return t.scrollWidth > t.clientWidth + 1 || r.left < strip.left - 1 || r.right > strip.right + 1;
    })
    .map((t) => t.textContent ?? '');

/** Whether the panel `id` is the one shown in the side column, with its top in view and some of it on screen. */
async function panelInView(page: Page, id: string): Promise<boolean> {
  const shown = await page.getAttribute('[data-testid="side-panel"]', 'data-panel').catch(() => null);
  if (shown !== id) return false;
  const r = await page.evaluate(ON_SCREEN, '[data-testid="side-panel"]');
  const tab = await page.getAttribute(`[data-testid="tab-${id}"]`, 'aria-selected');
  return r !== null && r.height >= 100 && r.top >= 0 && tab === 'true';
}

describe.skipIf(skipBrowser)('episode layout: every panel in reach, the dialogue at full height', () => {
  let server: AppServer;
  let browser: Browser;

  beforeAll(async () => {
    ({ server, browser } = await startAppAndBrowser(hasShared ? DATA_DIR : null));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const [width, height, measure] of [
    [1440, 900, true],
    [1920, 1080, true],
    [1280, 720, false],
  ] as const)
    it(`at ${width}×${height}: each side panel by a click and by its digit key, the verdict by v${measure ? '; the dialogue keeps ≥ 70 % of the height' : ''}`, async () => {
      const { context, page } = await offlinePage(browser, { width, height });
      try {
        await page.goto(server.url);
        await openEpisode(page, EPISODE);
        if (measure) {
          const list = (await page.evaluate(ON_SCREEN, '[data-testid="dialogue"]'))!;
          const column = (await page.evaluate(ON_SCREEN, '[data-testid="dialogue-column"]'))!;
          console.log(
            `${width}×${height}: dialogue messages ${Math.round(list.height)} px (${((100 * list.height) / height).toFixed(1)} %), dialogue column with its step bar ${Math.round(column.height)} px (${((100 * column.height) / height).toFixed(1)} %)`,
          );
          expect(list.height / height, 'the dialogue messages keep ≥ 70 % of the viewport').toBeGreaterThanOrEqual(0.7);
        }
        // The verdict sentence wraps, never cut; every tab's label whole.
        const sentence = page.getByTestId('verdict-sentence');
        expect(
          await sentence.evaluate(
            (e) => e.scrollHeight <= e.clientHeight + 1 && e.scrollWidth <= e.clientWidth + 1 && getComputedStyle(e).textOverflow !== 'ellipsis',
          ),
        ).toBe(true);
        expect(await page.evaluate(CLIPPED_TABS)).toEqual([]);
        // The tabs in one row at 1920, two at 1440 (short labels), each named in full for assistive tech and in its title.
        const rows = await page.evaluate(SIDE_TAB_ROWS);
        if (MAX_TAB_ROWS[width] !== undefined) expect(rows, `side tab rows at ${width}`).toBeLessThanOrEqual(MAX_TAB_ROWS[width]);
        for (const name of [/^DB at step \d+$/, /^DB diff \(/, /^Outputs \(/, 'How τ-bench judged']) {
          const tab = page.getByRole('tab', { name, exact: true });
          expect(await tab.count(), String(name)).toBe(1);
          expect(await tab.getAttribute('title')).toMatch(/ \(\d\)$/);
        }

        for (const id of PANEL_KEYS) {
          await page.getByTestId(`tab-${id}`).click();
          await expect.poll(() => panelInView(page, id), { message: `${id} by a click` }).toBe(true);
        }
        // Keys: each digit from wherever the focus is (here the dialogue), also when the side column was hidden with s.
        await page.getByTestId('dialogue').click({ position: { x: 5, y: 5 } });
        await page.keyboard.press('s');
        await expect.poll(() => page.locator('[data-testid="side-column"]').isVisible()).toBe(false);
        for (const [i, id] of PANEL_KEYS.entries()) {
          await page.keyboard.press(String(i + 1));
          await expect.poll(() => panelInView(page, id), { message: `${id} by the key ${i + 1}` }).toBe(true);
        }
        // The verdict's details by v and by a click.
        const details = page.getByTestId('verdict-details');
        const open = await details.isVisible();
        await page.keyboard.press('v');
        await expect.poll(() => details.isVisible()).toBe(!open);
        await page.getByTestId('verdict-toggle').click();
        await expect.poll(() => details.isVisible()).toBe(open);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      } finally {
        await context.close();
      }
    }, 120_000);

  it('at 390×844: the dialogue, the verdict and each panel one tap away, from anywhere in the dialogue; nothing scrolls sideways', async () => {
    const { context, page } = await offlinePage(browser, { width: 390, height: 844 }, { hasTouch: true });
    try {
      await page.goto(server.url);
      await openEpisode(page, EPISODE);
      const bar = page.getByTestId('phone-tabs');
      // Scrolled to the end of the dialogue, the tab bar is still all on screen.
      await page.keyboard.press('End');
      await expect.poll(() => page.getAttribute(SCREEN, 'data-step')).not.toBe('0');
      const tabs = await bar.locator('button').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.testid!.replace('phone-tab-', '')));
      expect(tabs).toEqual(['dialogue', 'verdict', ...PANEL_KEYS]);
      const allOnScreen = (): Promise<boolean> =>
        bar.locator('button').evaluateAll((els) =>
          els.every((e) => {
            const r = e.getBoundingClientRect();
            return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth;
          }),
        );
      expect(await allOnScreen()).toBe(true);
      for (const id of [...PANEL_KEYS, 'verdict', 'dialogue']) {
        await page.getByTestId(`phone-tab-${id}`).tap();
        if (id === 'dialogue') await expect.poll(() => page.evaluate(ON_SCREEN, '[data-testid="dialogue"]').then((r) => r?.height ?? 0)).toBeGreaterThan(400);
        else if (id === 'verdict') await expect.poll(() => page.getByTestId('verdict-details').isVisible()).toBe(true);
        else await expect.poll(() => page.getAttribute('[data-testid="side-panel"]', 'data-panel').catch(() => null), { message: id }).toBe(id);
        if (id !== 'dialogue' && id !== 'verdict')
          expect(await page.evaluate(ON_SCREEN, '[data-testid="side-panel"]').then((r) => r?.height ?? 0), id).toBeGreaterThan(200);
        expect(await page.getAttribute(`[data-testid="phone-tab-${id}"]`, 'aria-pressed')).toBe('true');
        expect(await page.evaluate(() => document.documentElement.scrollWidth), id).toBeLessThanOrEqual(390);
        expect(await allOnScreen(), `${id}: the tab bar stays on screen`).toBe(true);
      }
      // A link in a panel leads to the dialogue: "step N" in the DB diff.
      await page.getByTestId('phone-tab-diff').tap();
      const link = page.getByRole('button', { name: /written by step/ }).first();
      if ((await link.count()) > 0) {
        await link.tap();
        await expect.poll(() => page.getAttribute(SCREEN, 'data-phone')).toBe('dialogue');
      }
    } finally {
      await context.close();
    }
  }, 120_000);
});
