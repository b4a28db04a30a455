/**
 * The τ² simulation screen as a user meets it: every side panel one key or click away (one tap on a
 * phone, no sideways scroll), the DB state at a chosen message tied to the call that wrote each record
 * (airline, and telecom's user device), parallel calls as one group with their answering tool
 * messages, recorded reviews labelled as recorded, and the τ² sample one click from the welcome line.
 * Shared runs from ../shared/tau2/runs with ../shared/tau2/data served as TAU2_DATA; expectations come
 * from the files and τ²'s own records (../shared/tau2/expected), none written out here.
 */
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeTau2, TAU2_DIR } from '../support/shared';
import { tau2Expected } from '../support/tau2';
import { COMPLETE, offlinePage, skipBrowser, startAppAndBrowser, type AppServer } from './harness';
import { MAX_TAB_ROWS, SIDE_TAB_ROWS } from './side-tabs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const AIRLINE = 'sierra-research__gym-gpt-4.1-airline.json';
const TELECOM = 'sierra-research__gym-gpt-4.1-telecom.json';

interface FileSim {
  messages: { role: string; tool_calls?: { name: string }[] | null }[];
}
const simsOf = (file: string): FileSim[] => (JSON.parse(readFileSync(join(TAU2_DIR, 'runs', file), 'utf8')) as { simulations: FileSim[] }).simulations;

interface ExpectedCall {
  message_index: number;
  requestor: string;
  mutating: boolean;
  known_tool: boolean;
}
const expectedCalls = (file: string, i: number): ExpectedCall[] => (tau2Expected(file).simulations[i] as unknown as { tool_calls: ExpectedCall[] }).tool_calls;

/** The state panel's changes as shown: each record with the calls and messages that wrote it. */
const readChanges = (page: Page) =>
  page.getByTestId('tau2-state-change').evaluateAll((els) =>
    els.map((e) => ({
      table: e.getAttribute('data-table')!,
      key: e.getAttribute('data-key')!,
      calls: [...e.querySelectorAll('[data-call]')].map((b) => Number(b.getAttribute('data-call'))),
    })),
  );

/** Selects message `m` with its `#` button in the dialogue and waits for the state panel to answer for it. */
async function selectMessage(page: Page, m: number): Promise<void> {
  await page.locator(`[data-testid="tau2-message"][data-index="${m}"] button[aria-pressed]`).click();
  await page.waitForSelector(`[data-testid="tau2-state"][data-message="${m}"]`, { timeout: 30_000 });
}

const suite = skipBrowser ? describe.skip : describeTau2;

suite('the τ² simulation screen on shared runs', () => {
  let server: AppServer;
  let browser: Browser;

  beforeAll(async () => {
    ({ server, browser } = await startAppAndBrowser(null, join(TAU2_DIR, 'data')));
    mkdirSync(join(server.outDir, 'tau2-runs'), { recursive: true });
    for (const f of [AIRLINE, TELECOM]) copyFileSync(join(TAU2_DIR, 'runs', f), join(server.outDir, 'tau2-runs', f));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function openSim(file: string, episode: number, viewport?: { width: number; height: number }) {
    const o = await offlinePage(browser, viewport, { hasTouch: viewport !== undefined });
    await o.page.goto(`${server.url}#run=tau2-runs/${file}&episode=${episode}`);
    await o.page.waitForSelector(`[data-testid="tau2-sim"][data-index="${episode}"]`, { timeout: 120_000, state: 'attached' });
    return o;
  }

  it('airline: a record changed by a write shows from the message of that call on, tied to it, and not before', async () => {
    // The first simulation whose DB check fails (τ²'s record): its agent wrote something.
    const episode = tau2Expected(AIRLINE).simulations.findIndex((s) => (s as { db_match: boolean | null }).db_match === false);
    const calls = expectedCalls(AIRLINE, episode);
    const { context, page } = await openSim(AIRLINE, episode);
    try {
      await page.keyboard.press('3');
      expect(await page.getByTestId('side-panel').getAttribute('data-panel')).toBe('state');
      await page.keyboard.press('End');
      const last = Number(await page.getByTestId('tau2-sim').getAttribute('data-message'));
      await page.waitForSelector(`[data-testid="tau2-state"][data-message="${last}"]`);
      const atEnd = await readChanges(page);
      expect(atEnd.length).toBeGreaterThan(0);
      for (const c of atEnd) for (const k of c.calls) expect(calls[k]!.mutating && calls[k]!.known_tool, `call ${k} writes`).toBe(true);
      const first = atEnd[0]!;
      const writer = first.calls[0]!;
      const at = calls[writer]!.message_index;
      // At the writer's message the record is there, written by that call; the call's card says what it changed.
      await selectMessage(page, at);
      const there = (await readChanges(page)).find((c) => c.table === first.table && c.key === first.key);
      expect(there?.calls[0]).toBe(writer);
      expect(await page.locator(`[data-testid="tau2-call"][data-call-index="${writer}"] [data-testid="tau2-call-wrote"]`).textContent()).toContain(first.key);
      // The message before it: not yet.
      const before = Math.max(...simsOf(AIRLINE)[episode]!.messages.map((m, i) => (m.role !== 'tool' && i < at ? i : -1)));
      await selectMessage(page, before);
      expect((await readChanges(page)).some((c) => c.table === first.table && c.key === first.key)).toBe(false);
      // The record browser shows any record at the message: the one written, once its call has run.
      await selectMessage(page, at);
      await page.getByTestId('tau2-record-table').selectOption(first.table);
      await page.getByTestId('tau2-record-key').fill(first.key);
      await page.getByTestId('tau2-record-key').press('Enter');
      expect(await page.getByTestId('tau2-record-text').textContent({ timeout: 30_000 })).toContain(first.key);
    } finally {
      await context.close();
    }
  }, 180_000);

  it('telecom: the user’s device at a message, each change written by a call the user made on their device', async () => {
    // A simulation where the user made device calls that write (τ²'s record of its calls).
    const sims = tau2Expected(TELECOM).simulations;
    const episode = sims.findIndex((_, i) => expectedCalls(TELECOM, i).some((c) => c.requestor === 'user' && c.mutating));
    const calls = expectedCalls(TELECOM, episode);
    const { context, page } = await openSim(TELECOM, episode);
    try {
      await page.getByTestId('tab-state').click();
      await page.getByTestId('tau2-state-db-user').click();
      await page.waitForSelector('[data-testid="tau2-state"][data-db="user"]');
      // At the first message nothing has changed yet.
      expect(await page.getByTestId('tau2-state-change').count()).toBe(0);
      await page.keyboard.press('End');
      const last = Number(await page.getByTestId('tau2-sim').getAttribute('data-message'));
      await page.waitForSelector(`[data-testid="tau2-state"][data-db="user"][data-message="${last}"]`);
      const changes = await readChanges(page);
      expect(changes.length).toBeGreaterThan(0);
      for (const c of changes)
        for (const k of c.calls) {
          expect(calls[k]!.requestor).toBe('user');
          expect(await page.locator(`[data-testid="tau2-call"][data-call-index="${k}"]`).getAttribute('data-requestor')).toBe('user');
        }
    } finally {
      await context.close();
    }
  }, 180_000);

  it('parallel calls: one group per message with several, each call with the tool message that answers it', async () => {
    const sims = simsOf(AIRLINE);
    const episode = sims.findIndex((s) => s.messages.some((m) => (m.tool_calls?.length ?? 0) > 1));
    const sizes = sims[episode]!.messages.map((m) => m.tool_calls?.length ?? 0).filter((n) => n > 1);
    const { context, page } = await openSim(AIRLINE, episode);
    try {
      const groups = page.getByTestId('tau2-call-group');
      expect(await groups.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-calls'))))).toEqual(sizes);
      const g = groups.first();
      expect(await g.getByTestId('tau2-call').count()).toBe(sizes[0]);
      // Answered in order by the tool messages that follow, one each, attached to their call (not listed apart).
      const answers = (await g.getByTestId('tau2-call-answer').allTextContents()).map((t) => Number(/tool message #(\d+)/.exec(t)![1]));
      expect(answers).toHaveLength(sizes[0]!);
      answers.forEach((a, i) => i > 0 && expect(a).toBe(answers[i - 1]! + 1));
      for (const a of answers) expect(await page.locator(`[data-testid="tau2-message"][data-index="${a}"]`).count()).toBe(0);
    } finally {
      await context.close();
    }
  }, 180_000);

  it('every panel one key and one click away at 1440×900 (tabs in two rows at most, one at 1920), one tap at 390×844 with no sideways scroll', async () => {
    const { context, page } = await openSim(AIRLINE, 0);
    try {
      const ids = await page.locator('[data-testid="side-tabs"] [role="tab"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!.slice(4)));
      expect(ids.length).toBeGreaterThanOrEqual(5);
      for (const [i, id] of ids.entries()) {
        await page.keyboard.press(String(i + 1));
        expect(await page.getByTestId('side-panel').getAttribute('data-panel')).toBe(id);
        expect(await page.getByTestId('side-panel').isVisible()).toBe(true);
      }
      for (const id of [...ids].reverse()) {
        await page.getByTestId(`tab-${id}`).click();
        expect(await page.getByTestId('side-panel').getAttribute('data-panel')).toBe(id);
      }
      // The dialogue keeps most of the height beside them.
      const box = await page.getByTestId('dialogue-column').boundingBox();
      expect(box!.height).toBeGreaterThan(900 * 0.7);
      // The tabs take at most two rows (short labels), each named in full for assistive tech and in its title.
      expect(await page.evaluate(SIDE_TAB_ROWS)).toBeLessThanOrEqual(MAX_TAB_ROWS[1440]!);
      for (const [id, name] of [
        ['judged', 'How τ² judged'],
        ['diff', /^DB diff/],
        ['state', 'State at step'],
        ['findings', /^Not counted \(\d+\)$/],
        ['reviews', /^Recorded reviews \(\d+\)$/],
        ['trial', 'Other trial'],
      ] as const) {
        const tab = page.getByRole('tab', { name, exact: true });
        expect(await tab.getAttribute('data-testid'), String(name)).toBe(`tab-${id}`);
        expect(await tab.getAttribute('title')).toMatch(/ \(\d\)$/);
      }
      // The same screen in a wider window (a resize: the simulation is not opened and judged again).
      await page.setViewportSize({ width: 1920, height: 1080 });
      await expect.poll(() => page.evaluate(SIDE_TAB_ROWS), { message: 'side tab rows at 1920' }).toBe(MAX_TAB_ROWS[1920]);
    } finally {
      await context.close();
    }
    const phone = await openSim(AIRLINE, 0, { width: 390, height: 844 });
    try {
      const { page } = phone;
      const ids = await page.locator('[data-testid="phone-tabs"] button').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!.slice(10)));
      expect(ids.slice(0, 2)).toEqual(['dialogue', 'verdict']);
      for (const id of ids) {
        await page.getByTestId(`phone-tab-${id}`).tap();
        if (id === 'dialogue') expect(await page.getByTestId('tau2-dialogue').isVisible()).toBe(true);
        else if (id === 'verdict') expect(await page.locator('[data-testid="tau2-verdict"]:visible').count()).toBe(1);
        else {
          expect(await page.getByTestId('side-panel').getAttribute('data-panel')).toBe(id);
          expect(await page.getByTestId('side-panel').isVisible()).toBe(true);
        }
        expect(await page.evaluate(() => document.documentElement.scrollWidth), `${id}: no sideways scroll`).toBeLessThanOrEqual(390);
      }
    } finally {
      await phone.context.close();
    }
  }, 180_000);
});

describe.skipIf(skipBrowser)('the τ² sample: from the welcome line, with recorded reviews', () => {
  let server: AppServer;
  let browser: Browser;

  beforeAll(async () => {
    ({ server, browser } = await startAppAndBrowser(null));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('the welcome line opens the τ² sample in one click; a simulation’s recorded reviews are labelled as recorded, as the file has them', async () => {
    const file = JSON.parse(readFileSync(join(ROOT, 'sample-runs/runs/tau2-mock-sample.json'), 'utf8')) as { simulations: Record<string, unknown>[] };
    const REVIEWS = ['review', 'user_only_review', 'auth_classification', 'hallucination_check'];
    const withReviews = file.simulations.findIndex((s) => REVIEWS.some((k) => s[k] != null));
    const without = file.simulations.findIndex((s) => REVIEWS.every((k) => s[k] == null));
    const { context, page } = await offlinePage(browser);
    try {
      // A first start opens the τ-bench sample with the welcome line.
      await page.goto(server.url);
      await page.waitForSelector(COMPLETE, { timeout: 60_000 });
      await page.locator('[data-testid="welcome-sample-tau2-mock-sample"]:visible').click();
      await page.waitForFunction(() => document.querySelector('[data-testid="run-domain"]')?.textContent?.includes('mock'), null, { timeout: 60_000 });
      await page.waitForSelector(COMPLETE, { timeout: 60_000 });
      expect(await page.locator('[data-testid="episode-row"]').count()).toBe(file.simulations.length);
      await page.locator(`[data-testid="episode-row"][data-index="${withReviews}"]`).click();
      await page.waitForSelector(`[data-testid="tau2-sim"][data-index="${withReviews}"]`);
      await page.getByTestId('tab-reviews').click();
      expect(await page.getByTestId('tau2-reviews-recorded').textContent()).toContain('not recomputed');
      const shown = await page.getByTestId('tau2-review').evaluateAll((els) => els.map((e) => e.getAttribute('data-field')));
      expect(shown).toEqual(REVIEWS.filter((k) => file.simulations[withReviews]![k] != null));
      for (const f of shown) expect(await page.locator(`[data-testid="tau2-review"][data-field="${f}"]`).textContent()).toContain('recorded');
      // A recorded text shows as the file has it.
      const review = file.simulations[withReviews]!.review as { summary: string } | undefined;
      if (review) expect(await page.locator('[data-testid="tau2-review"][data-field="review"]').textContent()).toContain(review.summary);
      await page.locator(`[data-testid="episode-row"][data-index="${without}"]`).click();
      await page.waitForSelector(`[data-testid="tau2-sim"][data-index="${without}"]`);
      expect(await page.getByTestId('tau2-reviews-none').isVisible()).toBe(true);
    } finally {
      await context.close();
    }
  }, 120_000);
});
