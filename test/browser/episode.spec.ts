import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATA_DIR, describeShared, hasShared, SHARED_DIR } from '../support/shared';
import { COMPLETE, offlinePage, READ_ALL_ROWS, SCROLL_TO_ROW, skipBrowser, startAppAndBrowser, type AppServer, type OfflinePage } from './harness';

interface Expected {
  readonly index: number;
  readonly reward: number;
  readonly r_actions: boolean | null;
  readonly done_by: 'stop' | 'terminate_tool' | null;
  readonly steps: readonly unknown[];
  readonly diff_records: readonly string[];
  readonly outputs: Readonly<Record<string, boolean>> | null;
}

const SCREEN = '[data-testid="episode-screen"]';

/** Clicks the row of episode `index` in the list and waits for its episode screen. */
async function openEpisode(page: Page, index: number): Promise<void> {
  expect(await page.evaluate(SCROLL_TO_ROW, index), `row ${index} is in the list`).toBe(true);
  await page.locator(`[data-testid="episode-row"][data-index="${index}"]`).click();
  await page.waitForSelector(`${SCREEN}[data-episode="${index}"]`, { timeout: 30_000 });
}

const hashParam = async (page: Page, key: string): Promise<string | null> =>
  new URLSearchParams((await page.evaluate(() => location.hash)).replace(/^#/, '')).get(key);

/** Where the step cursor is, as each part of the screen shows it. */
async function cursor(page: Page): Promise<{ screen: string | null; bar: string | null; current: string[]; hash: string | null }> {
  const [screen, bar, current, hash] = await Promise.all([
    page.getAttribute(SCREEN, 'data-step'),
    page.getAttribute('[data-testid="step-current"]', 'data-step'),
    page.locator('li[data-message-index][aria-current="step"]').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.step ?? '')),
    hashParam(page, 'step'),
  ]);
  return { screen, bar, current, hash };
}

async function expectStep(page: Page, step: number, what: string): Promise<void> {
  const s = String(step);
  await expect.poll(() => cursor(page), { message: what, timeout: 5_000 }).toMatchObject({ screen: s, bar: s, hash: s });
  const c = await cursor(page);
  expect(c.current.length, `${what}: a dialogue row is the current step`).toBeGreaterThan(0);
  expect(new Set(c.current), `${what}: every current dialogue row belongs to step ${step}`).toEqual(new Set([s]));
}

const ENDING = { stop: 'the user sent ###STOP###', terminate_tool: 'the agent transferred to a human agent', none: 'never ended' } as const;

/** τ-bench's outputs check: lower-cased, commas removed from the message. */
const normalised = (text: string): string => text.toLowerCase().replaceAll(',', '');

describe.skipIf(skipBrowser)('episode screen in headless Chromium', () => {
  let server: AppServer;
  let browser: Browser;

  beforeAll(async () => {
    ({ server, browser } = await startAppAndBrowser(hasShared ? DATA_DIR : null));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('opens the sample run with no network at all; each episode verdict shows the recorded reward', async () => {
    const { context, page } = await offlinePage(browser);
    try {
      await page.goto(server.url);
      await page.waitForSelector(COMPLETE, { timeout: 60_000 });
      const rows = await page.evaluate(READ_ALL_ROWS);
      expect(rows.length).toBeGreaterThan(0);
      for (const r of rows) {
        await openEpisode(page, r.index);
        const verdict = page.locator(`${SCREEN}[data-episode="${r.index}"] [data-testid="verdict-reward"]`);
        expect(Number(await verdict.textContent()), `episode ${r.index}: verdict vs recorded reward`).toBe(Number(r.recordedReward));
        expect(await verdict.getAttribute('aria-label')).toMatch(/^Reward \d/);
        expect(await page.locator(`${SCREEN} [data-testid="verdict-sentence"]`).textContent()).not.toBe('');
      }
      expect(await page.getByTestId('detection').textContent()).toContain('embedded sample data');
    } finally {
      await context.close();
    }
  }, 90_000);

  describeShared('gpt-4o-airline with data from ../shared/tau-bench', () => {
    const expected = hasShared ? (JSON.parse(readFileSync(join(SHARED_DIR, 'expected', 'gpt-4o-airline.expected.json'), 'utf8')) as Expected[]) : [];
    let offline: OfflinePage;
    let page: Page;

    beforeAll(async () => {
      offline = await offlinePage(browser);
      page = offline.page;
      await page.goto(server.url);
      await page.waitForSelector('[data-testid="episode-row"]');
      await page.setInputFiles('[data-testid="open-file-input"]', join(SHARED_DIR, 'runs', 'gpt-4o-airline.json'));
      await page.waitForSelector('[data-testid="episode-table"][data-total="200"]', { timeout: 30_000 });
      await page.waitForSelector(COMPLETE, { timeout: 170_000 });
    }, 200_000);

    afterAll(async () => {
      await offline?.context.close();
    });

    it('steps through an episode by keyboard: j/k, ArrowDown/ArrowUp, Home/End; the link follows', async () => {
      const ep = expected.find((e) => e.steps.length >= 8)!;
      await openEpisode(page, ep.index);
      const count = ep.steps.length;
      expect(await page.getByTestId('step-current').textContent()).toMatch(new RegExp(`^Step 1 of ${count}:`));
      expect(await hashParam(page, 'episode')).toBe(String(ep.index));
      await expectStep(page, 0, 'opened');
      // The list keeps arrow keys while it has focus; a click on the step label leaves focus on the page.
      await page.getByTestId('step-current').click();
      const moves: readonly [string, number][] = [
        ['j', 1],
        ['j', 2],
        ['ArrowDown', 3],
        ['k', 2],
        ['ArrowUp', 1],
        ['End', count - 1],
        ['j', count - 1],
        ['ArrowDown', count - 1],
        ['Home', 0],
        ['k', 0],
        ['ArrowUp', 0],
        ['ArrowDown', 1],
      ];
      for (const [key, step] of moves) {
        await page.keyboard.press(key);
        await expectStep(page, step, `after ${key}`);
        expect(await page.getByTestId('step-current').textContent()).toMatch(new RegExp(`^Step ${step + 1} of ${count}:`));
      }
    }, 60_000);

    it('DB diff of failed episodes lists τ-bench’s differing records; "last written by step N" moves the cursor there', async () => {
      const failed = expected.filter((e) => e.r_actions === false).slice(0, 5);
      expect(failed.length).toBeGreaterThan(0);
      let clicked = false;
      for (const ep of failed) {
        await openEpisode(page, ep.index);
        await page.getByTestId('tab-diff').click();
        const panel = page.getByTestId('db-diff');
        await panel.waitFor();
        const records = await panel.getByTestId('diff-record').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
        expect([...records].sort(), `episode ${ep.index}: records in the DB diff`).toEqual([...ep.diff_records].sort());
        expect(await page.getByTestId('verdict-ending').textContent(), `episode ${ep.index}: ending`).toContain(ENDING[ep.done_by ?? 'none']);
        if (clicked) continue;
        const links = panel.getByRole('button', { name: /^last written by step \d+: go to that step \(/ });
        if ((await links.count()) === 0) continue;
        await page.getByTestId('step-current').click();
        await page.keyboard.press('Home');
        await expectStep(page, 0, `episode ${ep.index} at Home`);
        const link = links.last();
        const n = Number((await link.textContent())?.match(/^last written by step (\d+)$/)?.[1]);
        expect(n, 'the link names a step').toBeGreaterThan(1);
        await link.click();
        await expectStep(page, n - 1, `episode ${ep.index} after "last written by step ${n}"`);
        clicked = true;
      }
      expect(clicked, 'some failed episode has a field written by an agent step').toBe(true);
    }, 90_000);

    it('required outputs: found / not found as τ-bench decided; a found one highlights the matched text', async () => {
      const all = expected.filter((e) => e.outputs !== null);
      const someFound = all.filter((e) => Object.values(e.outputs!).some(Boolean));
      const noneFound = all.filter((e) => !Object.values(e.outputs!).some(Boolean)).slice(0, 2);
      const withOutputs = [...someFound.slice(0, 4), ...noneFound];
      expect(someFound.length).toBeGreaterThan(0);
      let highlighted = 0;
      for (const ep of withOutputs) {
        await openEpisode(page, ep.index);
        await page.getByTestId('tab-outputs').click();
        const panel = page.getByTestId('outputs-panel');
        await panel.waitFor();
        const rows = panel.locator('[data-testid="output-row"][data-found]');
        const shown = await rows.evaluateAll((els) =>
          els.map((e) => [e.querySelector('code')?.textContent ?? '', (e as HTMLElement).dataset.found ?? ''] as const),
        );
        expect(Object.fromEntries(shown.map(([o, f]) => [o, f === 'true'])), `episode ${ep.index}: outputs`).toEqual(ep.outputs);
        for (const [output, found] of Object.entries(ep.outputs!)) {
          if (!found) continue;
          const exact = new RegExp(`^${output.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
          const row = rows.filter({ has: page.locator('code', { hasText: exact }) }).filter({ has: page.getByTestId('output-match') });
          expect(await row.count(), `episode ${ep.index}: "${output}" has its match`).toBe(1);
          const marked = await row.getByTestId('output-match').locator('mark').textContent();
          expect(normalised(marked ?? ''), `episode ${ep.index}: highlighted text for "${output}"`).toContain(output.toLowerCase());
          await row.getByRole('button', { name: /^Show where ".*" matched, in step \d+$/ }).click();
          const inDialogue = page.locator(`[data-testid="dialogue"] li[aria-current="step"] mark[aria-label="required output \\"${output}\\" matched here"]`);
          await inDialogue.waitFor({ timeout: 5_000 });
          expect(normalised((await inDialogue.textContent()) ?? '')).toContain(output.toLowerCase());
          highlighted++;
        }
      }
      expect(highlighted, 'some output was found').toBeGreaterThan(0);
    }, 120_000);
  });
});
