/**
 * τ³ voice (full-duplex) runs in the app, on the invented sample run folder (sample-runs/voice-runs, offline): the voice
 * panel's timeline shows the user cutting in; its audio (the folder's both.wav, fetched when the panel opens, played from
 * an object URL under `media-src blob:`) plays and the cursor follows; a click on a tick seeks; keys step by tick and by
 * utterance and the step cursor follows; the simulation without audio shows the timeline alone. The dialogue shows the
 * speech merged from the ticks between the tool calls, the tick keys work with the voice panel closed, and a search finds
 * and marks words said only in speech. No request leaves the
 * app's origin. Screenshots at 1440×900 and 390×844 of simulation 0 (its communicate check failed) go to $SCREENSHOT_DIR.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRequestsProblem, COMPLETE, offlinePage, READ_ALL_ROWS, skipBrowser, startAppAndBrowser, type AppServer } from './harness';

const suite = skipBrowser ? describe.skip : describe;
const SHOTS = process.env.SCREENSHOT_DIR;
const SAMPLE = 'tau2-retail-voice-sample';

const cursorTick = (page: Page): Promise<number> => page.getByTestId('tau2-voice').getAttribute('data-tick').then(Number);
const audioState = (page: Page) =>
  page.getByTestId('voice-audio').evaluate((a: HTMLAudioElement) => ({ time: a.currentTime, paused: a.paused, ready: a.readyState, src: a.src }));

suite('τ³ voice runs in headless Chromium', () => {
  let server: AppServer;
  let browser: Browser;

  beforeAll(async () => {
    ({ server, browser } = await startAppAndBrowser(null));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('the sample run folder: an interruption on the timeline, audio that plays with the cursor following, a click on a tick seeks', async () => {
    const o = await offlinePage(browser);
    const { context, page } = o;
    try {
      await page.goto(`${server.url}#sample=${SAMPLE}`);
      await page.waitForSelector(COMPLETE, { timeout: 60_000 });
      const rows = await page.evaluate(READ_ALL_ROWS);
      expect(rows.map((r) => r.reward)).toEqual(['0', '1']);
      // The run's interaction metrics, pooled over its simulations as τ² pools them, in the overview.
      expect(await page.getByTestId('run-about').textContent()).toMatch(/^Interaction \(whole run\): /);
      await page.locator('[data-testid="episode-row"][data-index="0"]').click();
      await page.waitForSelector('[data-testid="tau2-sim"][data-index="0"]');
      // A voice simulation opens on its voice panel.
      await page.getByTestId('tau2-voice').waitFor({ timeout: 20_000 });

      // The interruption: the user cuts in at tick 18 while the agent speaks (both at once there), the agent's speech cut off.
      const timeline = page.getByTestId('voice-timeline');
      expect(await timeline.locator('[data-interruption]').evaluateAll((els) => els.map((e) => e.getAttribute('data-interruption')))).toEqual(['18']);
      expect(await timeline.locator('[data-interruption="18"]').getAttribute('aria-label')).toBe('user cuts in at tick 18');
      expect(await timeline.locator('[data-overlap]').count()).toBeGreaterThan(0);
      expect(await timeline.locator('[data-lane="agent"] .ring-red-500').count()).toBe(1);
      // The failed communicate check with its nearest miss (split over two merged messages).
      const check = page.getByTestId('voice-communicate').locator('[data-met="false"]');
      expect(await check.locator('[data-near-miss="split-across-messages"]').count()).toBe(1);
      // τ²'s interaction metrics of this simulation, from its ticks.
      expect(await page.getByTestId('voice-metrics').textContent()).toMatch(/^interaction metrics \(τ²'s, from the ticks of 1 simulation\): response latency/);

      // Audio: this simulation's file, fetched from the app's own files once the panel opened, played from an object URL.
      const audio = page.getByTestId('voice-audio');
      await audio.waitFor({ timeout: 20_000 });
      await expect.poll(async () => (await audioState(page)).ready, { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
      expect((await audioState(page)).src).toMatch(/^blob:/);
      expect(await page.getByTestId('tau2-voice').textContent()).toContain(
        'artifacts/task_voice_cancel_by_mistake/sim_5a0e7c1d-voice-0000-0000-sample000001/audio/both.wav',
      );

      // Play: the cursor follows playback.
      const before = await cursorTick(page);
      expect(before).toBe(0);
      await page.getByTestId('voice-play').click();
      await expect.poll(() => cursorTick(page), { timeout: 15_000 }).toBeGreaterThanOrEqual(before + 3);
      const playing = await audioState(page);
      expect(playing.paused).toBe(false);
      // The cursor is the tick playback is in (0.2 s ticks), give or take the tick it is passing.
      expect(Math.abs((await cursorTick(page)) - Math.floor(playing.time / 0.2))).toBeLessThanOrEqual(2);
      await page.getByTestId('voice-play').click();
      await expect.poll(async () => (await audioState(page)).paused).toBe(true);

      // A click on a tick seeks there.
      await timeline.locator('button[data-tick="40"]').click();
      await expect.poll(() => cursorTick(page)).toBe(40);
      await expect.poll(async () => (await audioState(page)).time, { timeout: 10_000 }).toBeCloseTo(8, 1);

      // Keys: → a tick, ] the next utterance, [ the one before; the step cursor (the dialogue's message) follows the tick.
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => cursorTick(page)).toBe(41);
      await expect.poll(async () => (await audioState(page)).time).toBeCloseTo(8.2, 1);
      await page.keyboard.press(']');
      const next = await cursorTick(page);
      expect(next).toBeGreaterThan(41);
      await page.keyboard.press('[');
      expect(await cursorTick(page)).toBeLessThan(next);
      await timeline.locator('button[data-tick="0"]').click();
      await expect.poll(() => page.getByTestId('tau2-sim').getAttribute('data-message')).toBe('0');
      await page.keyboard.press('End');
      const last = Number(await page.getByTestId('tau2-sim').getAttribute('data-message'));
      expect(last).toBeGreaterThan(0);
      // j/k moved the step: the tick cursor went to that message's tick.
      expect(await cursorTick(page)).toBeGreaterThan(0);

      if (SHOTS) {
        mkdirSync(SHOTS, { recursive: true });
        await timeline.locator('button[data-tick="44"]').click();
        await page.screenshot({ path: join(SHOTS, 'voice-sim0-1440x900.png') });
      }

      // Simulation 1 has no audio in the folder: the timeline alone, and why.
      await page.keyboard.press('n');
      await page.waitForSelector('[data-testid="tau2-sim"][data-index="1"]');
      await page.getByTestId('voice-no-audio').filter({ hasText: 'No audio' }).waitFor({ timeout: 20_000 });
      expect(await page.getByTestId('voice-no-audio').textContent()).toContain('the run folder has no artifacts/task_voice_cancel_by_mistake/');
      expect(await page.getByTestId('voice-timeline').count()).toBe(1);
      expect(appRequestsProblem(o)).toBeNull();
    } finally {
      await context.close();
    }
  }, 120_000);

  it('the dialogue: speech from the ticks between the tool calls; the tick keys with the voice panel closed; search finds and marks speech', async () => {
    const o = await offlinePage(browser);
    const { context, page } = o;
    try {
      await page.goto(`${server.url}#sample=${SAMPLE}&episode=0`);
      await page.waitForSelector('[data-testid="tau2-sim"][data-index="0"]', { timeout: 60_000 });
      const dialogue = page.getByTestId('tau2-dialogue');
      await dialogue.getByTestId('tau2-speech').first().waitFor({ timeout: 20_000 });
      // In tick order: the calls of the history τ² derives from the ticks (messages #0–#5), the merged turns between them.
      const order = await dialogue
        .locator(':scope > li')
        .evaluateAll((els) => els.map((e) => (e.dataset.testid === 'tau2-speech' ? `${e.dataset.speaker}@${e.dataset.start}` : `#${e.dataset.index}`)));
      expect(order).toEqual(['agent@0', 'user@5', 'agent@12', 'user@18', '#0', '#2', 'agent@30', 'user@37', '#4', 'agent@41', 'agent@46', 'user@50']);
      const found = dialogue.locator('[data-testid="tau2-speech"][data-start="30"]');
      expect(await found.textContent()).toContain('Found it: a teapot and a kitchen scale. Cancel it as ordered by mistake?');
      expect(await found.textContent()).toMatch(/^agent · speechticks 30–36 · 6\.0–7\.4 sfrom the ticks/);
      expect(await page.getByTestId('tau2-speech-note').textContent()).toContain('not a message of the history τ² replays');
      // No what-if controls on a full-duplex simulation (core refuses its edits): the voice panel says why.
      expect(await dialogue.locator('[data-testid="tau2-call-tools"], [data-testid="tau2-message-tools"]').count()).toBe(0);
      expect(await page.getByTestId('voice-no-what-if').textContent()).toContain('what-if edits a text simulation’s messages only');

      // The voice panel closed (how τ² judged it instead): ←/→ and [/] still move the tick, the turn and the step follow.
      await page.keyboard.press('1');
      await page.getByTestId('tau2-voice').waitFor({ state: 'detached' });
      await dialogue.locator('[data-testid="tau2-message"][data-index="4"] button[aria-pressed]').click();
      await page.keyboard.press('[');
      await expect.poll(() => dialogue.locator('[data-testid="tau2-speech"][aria-current="true"]').getAttribute('data-start')).toBe('37');
      // The dialogue scrolled away: the next turn the cursor reaches is brought into view (the step, #4, stays).
      await dialogue.evaluate((el) => (el.closest('[data-scroll]')!.scrollTop = 0));
      await page.keyboard.press(']');
      await expect.poll(() => dialogue.locator('[data-testid="tau2-speech"][aria-current="true"]').getAttribute('data-start')).toBe('41');
      const inView = (): Promise<boolean> =>
        dialogue.locator('[data-testid="tau2-speech"][aria-current="true"]').evaluate((el) => {
          const box = el.closest('[data-scroll]')!.getBoundingClientRect();
          const r = el.getBoundingClientRect();
          return r.top >= box.top && r.bottom <= box.bottom;
        });
      await expect.poll(inView).toBe(true);
      expect(await page.getByTestId('tau2-sim').getAttribute('data-message')).toBe('4');
      await page.keyboard.press('ArrowLeft');
      await expect.poll(() => dialogue.locator('[data-testid="tau2-speech"][aria-current="true"]').count()).toBe(0);
      // The ? list says so.
      await page.keyboard.press('?');
      expect(await page.getByTestId('key-help').textContent()).toContain('previous / next tick, whichever panel is open');
      await page.keyboard.press('Escape');

      // Search: a word said only in speech finds its simulation (not the other) and is marked in the dialogue.
      await page.getByTestId('search').fill('thanks for calling');
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="tau2-speech"] mark').length > 0, null, { timeout: 30_000 });
      expect((await dialogue.locator('[data-testid="tau2-speech"] mark').allTextContents()).map((m) => m.toLowerCase())).toEqual(['thanks for calling']);
      await expect.poll(() => page.getByTestId('search').locator('xpath=..').textContent(), { timeout: 30_000 }).toContain('1 episode');
      expect(appRequestsProblem(o)).toBeNull();
    } finally {
      await context.close();
    }
  }, 120_000);

  it('on a phone: the voice tab of simulation 0, opened by link', async () => {
    const o = await offlinePage(browser, { width: 390, height: 844 }, { hasTouch: true });
    const { context, page } = o;
    try {
      await page.goto(`${server.url}#sample=${SAMPLE}&episode=0`);
      await page.waitForSelector('[data-testid="tau2-sim"][data-index="0"]', { timeout: 60_000 });
      await page.getByTestId('phone-tabs').getByText('Voice', { exact: true }).click();
      await page.getByTestId('tau2-voice').waitFor({ timeout: 20_000 });
      await page.getByTestId('voice-audio').waitFor({ timeout: 20_000 });
      expect(await page.getByTestId('voice-timeline').locator('[data-interruption="18"]').count()).toBe(1);
      if (SHOTS) {
        mkdirSync(SHOTS, { recursive: true });
        await page.screenshot({ path: join(SHOTS, 'voice-sim0-390x844.png') });
        await page.screenshot({ path: join(SHOTS, 'voice-sim0-390x844-full.png'), fullPage: true });
      }
      expect(appRequestsProblem(o)).toBeNull();
    } finally {
      await context.close();
    }
  }, 120_000);
});
