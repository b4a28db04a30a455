/**
 * Teaching and reviewing τ² runs (issue 34) on runs of ../shared/tau2/runs opened by link: one numbering of
 * calls in every panel, and the verdict as τ² computes it (the task's reward_basis first, each component with
 * its evidence, then the product; the other checks after it, marked as not counting).
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeTau2, TAU2_DIR } from '../support/shared';
import { offlinePage, skipBrowser, startAppAndBrowser, type AppServer } from './harness';

const RETAIL = 'sierra-research__gym-gpt-4.1-retail.json';
const TELECOM = 'sierra-research__gym-gpt-4.1-telecom-solo.json';
const AIRLINE = 'sierra-research__gym-gpt-4.1-airline.json';

const suite = skipBrowser ? describe.skip : describeTau2;

const walkthrough = (page: Page): Promise<string[]> => page.locator('[data-testid="tau2-walkthrough"] li').allTextContents();
const numberIn = (text: string): number => Number(/call (\d+)/.exec(text)![1]);

suite('τ² for a class: one numbering of calls, the verdict in τ²’s order', () => {
  let server: AppServer;
  let browser: Browser;

  beforeAll(async () => {
    ({ server, browser } = await startAppAndBrowser(null, join(TAU2_DIR, 'data')));
    mkdirSync(join(server.outDir, 'tau2-runs'), { recursive: true });
    for (const f of [RETAIL, TELECOM, AIRLINE]) copyFileSync(join(TAU2_DIR, 'runs', f), join(server.outDir, 'tau2-runs', f));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function openSim(file: string, episode: number) {
    const o = await offlinePage(browser);
    await o.page.goto(`${server.url}#run=tau2-runs/${file}&episode=${episode}`);
    await o.page.waitForSelector(`[data-testid="tau2-sim"][data-index="${episode}"]`, { timeout: 120_000 });
    return o;
  }

  it('a call has one number in the walkthrough, the reference actions, the dialogue, the DB diff and state at step', async () => {
    // Retail simulation 14: the DB differs, 12 of 13 reference actions matched (τ²'s record).
    const { context, page } = await openSim(RETAIL, 14);
    try {
      // The DB diff: the call that wrote a differing record.
      await page.getByTestId('tab-diff').click();
      const blame = (await page.getByTestId('tau2-blame').allTextContents()).find((t) => /call \d+/.test(t))!;
      const writer = numberIn(blame);
      const writerCard = page.locator(`[data-testid="tau2-call"][data-call-index="${writer}"]`);
      expect(await writerCard.textContent()).toContain(`call ${writer}`);
      expect(await writerCard.textContent()).toContain('writes');

      // How τ² judged: each matched reference action names the same call in the panel and in the walkthrough.
      await page.getByTestId('tab-judged').click();
      const actions = page.getByTestId('tau2-action');
      const panel = (await actions.allTextContents()).filter((t) => /matched by call \d+/.test(t)).map(numberIn);
      expect(panel.length).toBe(12);
      const lines = (await walkthrough(page)).filter((l) => /action .*: called \(call \d+\)/i.test(l)).map(numberIn);
      expect(lines).toEqual(panel);
      // …and the dialogue's card of that number is a call of the same tool.
      for (const [k, text] of (await actions.allTextContents()).entries()) {
        if (!/matched by call \d+/.test(text)) continue;
        const name = await actions.nth(k).locator('.font-semibold').first().textContent();
        const card = page.locator(`[data-testid="tau2-call"][data-call-index="${numberIn(text)}"]`);
        expect(await card.textContent()).toContain(`call ${numberIn(text)}`);
        expect(await card.locator('.font-semibold').first().textContent()).toBe(name);
      }

      // State at step, at the last message: the same call wrote the same record.
      await page.getByTestId('tab-state').click();
      await page.keyboard.press('End');
      const last = await page.getByTestId('tau2-sim').getAttribute('data-message');
      await page.waitForSelector(`[data-testid="tau2-state"][data-message="${last}"]`);
      const writers = await page.getByTestId('tau2-state-writers').allTextContents();
      expect(writers.some((t) => new RegExp(`\\bcall ${writer}\\b`).test(t))).toBe(true);
    } finally {
      await context.close();
    }
  }, 180_000);

  it('retail: DB then COMMUNICATE (“the task has no communicate_info, so τ² counts 1”), the product, then the actions outside the reward', async () => {
    const { context, page } = await openSim(RETAIL, 14);
    try {
      await page.getByTestId('tab-judged').click();
      const lines = await walkthrough(page);
      const at = (re: RegExp): number => lines.findIndex((l) => re.test(l));
      const db = at(/^\d+\. DB \(in the reward = 0\.0\)/);
      const communicate = at(/^\d+\. COMMUNICATE \(in the reward = 1\.0\): the task has no communicate_info, so τ² counts 1/);
      const product = at(/^\d+\. Reward = DB 0\.0 × COMMUNICATE 1\.0 = 0\.0/);
      const action = at(/^\d+\. ACTION \(not in this task’s reward\)/);
      expect([db, communicate, product, action].every((i) => i > 0)).toBe(true);
      expect(db < communicate && communicate < product && product < action).toBe(true);
      // The verdict panel: the same order, each component with its evidence.
      const components = page.getByTestId('tau2-component');
      expect(await components.evaluateAll((els) => els.map((e) => [e.getAttribute('data-component'), e.getAttribute('data-in-basis')]))).toEqual([
        ['DB', 'true'],
        ['COMMUNICATE', 'true'],
        ['ACTION', 'false'],
      ]);
      expect(await components.nth(0).textContent()).toMatch(/1 record\(s\) differ|\d+ record\(s\) differ, written by call \d+/);
      expect(await components.nth(1).textContent()).toContain('the task has no communicate_info, so τ² counts 1');
      expect(await components.nth(2).textContent()).toMatch(
        /not in this task’s reward.*12 of 13 called as written; never called: return_delivered_order_items/,
      );
      // The checks below the verdict: what counts first.
      expect(await page.getByTestId('tau2-actions').textContent()).toContain('not in this task’s reward');
    } finally {
      await context.close();
    }
  }, 180_000);

  it('telecom: the env assertions first, the DB after the product and marked as not counting', async () => {
    const { context, page } = await openSim(TELECOM, 6);
    try {
      await page.getByTestId('tab-judged').click();
      const lines = await walkthrough(page);
      const at = (re: RegExp): number => lines.findIndex((l) => re.test(l));
      const env = at(/^2\. ENV_ASSERTION \(in the reward = 0\.0\): 3 env assertion\(s\), 2 of 3 not met/);
      const product = at(/^\d+\. Reward = ENV_ASSERTION 0\.0 = 0\.0/);
      const db = at(/^\d+\. DB \(not in this task’s reward\)/);
      expect(env).toBeGreaterThan(0);
      expect(env < product && product < db).toBe(true);
      const components = await page.getByTestId('tau2-component').evaluateAll((els) => els.map((e) => e.getAttribute('data-component')));
      expect(components[0]).toBe('ENV_ASSERTION');
      expect(components).toContain('DB');
      const dbLine = page.locator('[data-testid="tau2-component"][data-component="DB"]');
      expect(await dbLine.getAttribute('data-in-basis')).toBe('false');
      expect(await dbLine.textContent()).toContain('not in this task’s reward');
      // The first section under the verdict is the one that counts.
      const first = await page.locator('[data-testid="tau2-env"], [data-testid="tau2-actions"]').first().getAttribute('data-testid');
      expect(first).toBe('tau2-env');
    } finally {
      await context.close();
    }
  }, 180_000);
  it('what-if: an edit that makes a failed call succeed shows the edited run’s output, marked as changed, and no longer “(an error)”', async () => {
    // Airline simulation 11 of gpt-4.1: book_reservation paid 128 + 171 for a 375 booking, and τ²'s tool said so.
    const { context, page } = await openSim(AIRLINE, 11);
    try {
      const failed = page.locator('[data-testid="tau2-call"]', { hasText: 'total price is 375, but paid 299' });
      const index = await failed.getAttribute('data-call-index');
      const call = page.locator(`[data-testid="tau2-call"][data-call-index="${index}"]`);
      expect(await call.getByTestId('tau2-call-answer').textContent()).toContain('(an error)');
      await call.getByTestId('tau2-edit-args').click();
      const text = await call.locator('textarea').inputValue();
      await call.locator('textarea').fill(text.replace('"amount": 171', '"amount": 247'));
      await call.getByTestId('tau2-what-if-apply').click();
      await page.getByTestId('tau2-what-if-reward').waitFor({ timeout: 60_000 });
      await expect.poll(() => call.getByTestId('tau2-call-answer').textContent()).not.toContain('(an error)');
      const shown = await call.textContent();
      expect(shown).toContain('changed by the what-if');
      expect(shown).toMatch(/replayed output.*"reservation_id"/s);
      // The recorded error is still there, as the recorded one.
      expect(shown).toMatch(/recorded: Error: Payment amount does not add up/);
      // The agent's retry, which the recording shows succeeding, now books twice with a spent gift card: the edited run's
      // replay answers it with an error, marked as changed; every other call answers as before.
      const changed = await page
        .locator('[data-testid="tau2-call"]:has([data-testid="tau2-output-changed"])')
        .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-call-index'))));
      expect(changed).toEqual([Number(index), Number(index) + 1]);
      const retry = page.locator(`[data-testid="tau2-call"][data-call-index="${Number(index) + 1}"]`);
      expect(await retry.getByTestId('tau2-call-answer').textContent()).toContain('(an error)');
      expect(await retry.textContent()).toMatch(/recorded: \{/);
    } finally {
      await context.close();
    }
  }, 180_000);
  it('keyboard: the step bar is one tab stop with arrows inside it; the ? list names only keys that work on τ²', async () => {
    const { context, page } = await openSim(RETAIL, 14);
    try {
      const chips = page.locator('[data-testid="step-bar"] [role="group"] button');
      expect(await chips.count()).toBeGreaterThan(10);
      const stops = () => chips.evaluateAll((els) => els.filter((e) => (e as HTMLElement).tabIndex >= 0).length);
      expect(await stops()).toBe(1);
      // Tab reaches the current chip; the arrows move the step and the focus with it.
      await page.locator('[data-testid="step-bar"] [role="group"] button[aria-current="step"]').focus();
      const step = Number(await page.getByTestId('step-current').getAttribute('data-step'));
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => page.getByTestId('step-current').getAttribute('data-step')).toBe(String(step + 1));
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-current'))).toBe('step');
      await page.keyboard.press('End');
      await expect.poll(() => page.getByTestId('step-current').getAttribute('data-step')).toBe(String((await chips.count()) - 1));
      expect(await stops()).toBe(1);
      // Shift+Tab from the chips leaves the bar at once (to the Next button), not chip by chip.
      await page.keyboard.press('Shift+Tab');
      expect(await page.evaluate(() => document.activeElement?.closest('[role="group"]') === null)).toBe(true);
      // `?`: the τ² list has no `v` (τ-bench's verdict drawer) and no τ-bench panel keys; its own panel keys are there.
      await page.keyboard.press('?');
      const help = page.getByTestId('key-help');
      await help.waitFor();
      const rows = await help.locator('tr').allTextContents();
      expect(rows.some((r) => r.includes('verdict details'))).toBe(false);
      expect(rows.some((r) => r.includes('how τ-bench judged'))).toBe(false);
      expect(rows.some((r) => r.includes('τ² simulation:'))).toBe(true);
    } finally {
      await context.close();
    }
  }, 180_000);
});
