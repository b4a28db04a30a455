/**
 * τ²-bench runs in the app: three files of ../shared/tau2/runs (airline, retail, telecom in solo mode)
 * opened by a same-origin `#run=` link, with ../shared/tau2/data served as the dev server's TAU2_DATA;
 * every row's recomputed reward must equal τ²'s own verdict (../shared/tau2/expected).
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeTau2, TAU2_DIR } from '../support/shared';
import { tau2Expected } from '../support/tau2';
import { COMPLETE, offlinePage, READ_ALL_ROWS, skipBrowser, startAppAndBrowser, type AppServer } from './harness';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const FILES = ['sierra-research__gym-gpt-4.1-airline.json', 'sierra-research__gym-gpt-4.1-retail.json', 'sierra-research__gym-gpt-4.1-telecom-solo.json'];

/** Skipped only without Chromium when it is not required (as every browser spec); without ../shared/tau2 it fails under REQUIRE_SHARED=1. */
const suite = skipBrowser ? describe.skip : describeTau2;

suite('τ² runs opened by link in headless Chromium, judged against τ²’s own verdicts', () => {
  let server: AppServer;
  let browser: Browser;

  beforeAll(async () => {
    ({ server, browser } = await startAppAndBrowser(null, join(TAU2_DIR, 'data')));
    mkdirSync(join(server.outDir, 'tau2-runs'), { recursive: true });
    for (const f of FILES) copyFileSync(join(TAU2_DIR, 'runs', f), join(server.outDir, 'tau2-runs', f));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it.each(FILES)(
    '%s: every row’s data-reward is τ²’s reward',
    async (file) => {
      const expected = tau2Expected(file);
      const { context, page } = await offlinePage(browser);
      try {
        await page.goto(`${server.url}#run=tau2-runs/${file}`);
        await page.waitForSelector(COMPLETE, { timeout: 120_000 });
        expect(await page.getByTestId('run-domain').textContent()).toContain(expected.domain);
        const rows = await page.evaluate(READ_ALL_ROWS);
        expect(rows.map((r) => r.index)).toEqual(expected.simulations.map((_, i) => i));
        const want = expected.simulations.map((s) => String(s.reward));
        const matching = rows.filter((r, i) => r.reward === want[i]).length;
        expect(rows.map((r) => r.reward)).toEqual(want);
        expect(matching).toBe(expected.simulations.length);
        // The recorded reward is shown beside it, as the file has it.
        expect(rows.every((r) => r.recordedReward !== '')).toBe(true);
        // The data came from the local server alone.
      } finally {
        await context.close();
      }
    },
    180_000,
  );

  /** Opens simulation `episode` of a shared run by link and waits for its screen. */
  async function openSim(file: string, episode: number) {
    const o = await offlinePage(browser);
    await o.page.goto(`${server.url}#run=tau2-runs/${file}&episode=${episode}`);
    await o.page.waitForSelector(`[data-testid="tau2-sim"][data-index="${episode}"]`, { timeout: 120_000 });
    return o;
  }

  it('an airline DB mismatch: the records that differ, predicted beside gold, blamed on the agent’s calls; actions lined up', async () => {
    // Simulation 4 of gpt-4.1 airline: DB differs, 3 of 4 reference actions matched (τ²'s record).
    const { context, page } = await openSim(FILES[0]!, 4);
    try {
      const records = page.getByTestId('tau2-db-record');
      expect(await records.count()).toBeGreaterThan(0);
      // Each record names the fields that differ, predicted beside gold.
      expect(await page.locator('[data-testid="tau2-db-fields"] [data-testid="diff-field"]').count()).toBeGreaterThan(0);
      const blame = await page.getByTestId('tau2-blame').allTextContents();
      expect(blame.some((t) => /changed by call \d+/.test(t))).toBe(true);
      // A blamed call is a call of the dialogue that writes.
      const callIndex = Number(/call (\d+)/.exec(blame.find((t) => /call \d+/.test(t))!)![1]);
      expect(await page.locator(`[data-testid="tau2-call"][data-call-index="${callIndex}"]`).textContent()).toContain('writes');
      // The checks are under "How τ² judged" (the screen opened on the DB diff, the check that failed).
      expect(await page.getByTestId('side-panel').getAttribute('data-panel')).toBe('diff');
      await page.getByTestId('tab-judged').click();
      const matches = await page.getByTestId('tau2-action').evaluateAll((els) => els.map((e) => e.getAttribute('data-match')));
      expect(matches).toEqual(['true', 'true', 'true', 'false']);
      expect(await page.getByTestId('tau2-action').first().textContent()).toMatch(/matched by call \d+/);
      expect(await page.getByTestId('tau2-reward').textContent()).toBe('0.0');
    } finally {
      await context.close();
    }
  }, 180_000);

  it('a telecom (solo) simulation: each env assertion with its expected and actual value', async () => {
    const expected = tau2Expected(FILES[2]!).simulations[6] as { env_assertions: { met: boolean }[] };
    const { context, page } = await openSim(FILES[2]!, 6);
    try {
      await page.keyboard.press('1');
      const rows = page.getByTestId('tau2-env-assertion');
      expect(await rows.count()).toBe(expected.env_assertions.length);
      const met = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-met') === 'true'));
      expect(met).toEqual(expected.env_assertions.map((a) => a.met));
      for (const t of await rows.allTextContents()) expect(t).toMatch(/expected (True|False), actual \S+/);
      expect(await page.getByTestId('tau2-walkthrough').textContent()).toContain('Reward =');
    } finally {
      await context.close();
    }
  }, 180_000);

  it('a retail simulation: each communicated info marked in the message it was found in', async () => {
    const { context, page } = await openSim(FILES[1]!, 0);
    try {
      await page.getByTestId('tab-judged').click();
      const infos = page.getByTestId('tau2-communicate-info');
      expect(await infos.count()).toBe(2);
      const marks = await page.locator('[data-testid="tau2-dialogue"] mark[aria-label="communicated info"]').allTextContents();
      expect(marks.length).toBeGreaterThan(0);
      const said = (await infos.allTextContents()).map((t) => /“(.*)”/.exec(t)![1]!.toLowerCase());
      for (const m of marks) expect(said).toContain(m.toLowerCase().replaceAll(',', ''));
    } finally {
      await context.close();
    }
  }, 180_000);
});

describe.skipIf(skipBrowser)('the τ² sample opens offline (no data served, no network)', () => {
  let server: AppServer;
  let browser: Browser;

  beforeAll(async () => {
    ({ server, browser } = await startAppAndBrowser(null));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('every row recomputed from the embedded invented data equals the recorded reward; an NL assertion is shown as recorded', async () => {
    const { context, page } = await offlinePage(browser);
    try {
      await page.goto(`${server.url}#sample=tau2-mock-sample`);
      await page.waitForSelector(COMPLETE, { timeout: 60_000 });
      const rows = await page.evaluate(READ_ALL_ROWS);
      expect(rows).toHaveLength(9);
      expect(rows.map((r) => r.reward)).toEqual(rows.map((r) => String(Number(r.recordedReward))));
      expect(rows.filter((r) => r.reward === '1')).toHaveLength(3);
      await page.locator('[data-testid="episode-row"][data-index="7"]').click();
      await page.waitForSelector('[data-testid="tau2-sim"][data-index="7"]');
      await page.getByTestId('tab-judged').click();
      expect(await page.getByTestId('tau2-nl-recorded').textContent()).toContain('not recomputed');
      // The user's own device call is told apart from the agent's.
      await page.locator('[data-testid="episode-row"][data-index="8"]').click();
      await page.waitForSelector('[data-testid="tau2-sim"][data-index="8"]');
      expect(await page.locator('[data-testid="tau2-call"]').getAttribute('data-requestor')).toBe('user');
      // Search looks in the messages and the calls' arguments.
      await page.getByPlaceholder('Search messages').fill('note_9');
      await expect.poll(() => page.locator('[data-testid="episode-row"]').count(), { timeout: 10_000 }).toBe(1);
      expect(await page.locator('[data-testid="episode-row"]').getAttribute('data-index')).toBe('8');
    } finally {
      await context.close();
    }
  }, 120_000);

  it('a τ² run without data asks for it (nothing fetched), and a picked tau2-bench folder judges it', async () => {
    mkdirSync(join(server.outDir, 'tau2-runs'), { recursive: true });
    copyFileSync(join(ROOT, 'sample-runs/runs/tau2-mock-sample.json'), join(server.outDir, 'tau2-runs', 'mock.json'));
    const { context, page } = await offlinePage(browser);
    try {
      await page.goto(`${server.url}#run=tau2-runs/mock.json`);
      await page.getByText('τ²-bench mock data needed').waitFor({ timeout: 60_000 });
      expect(await page.locator('body').textContent()).toContain('Pick a tau2-bench folder');
      // Recorded rewards show meanwhile; nothing is recomputed.
      const before = await page.evaluate(READ_ALL_ROWS);
      expect(before.map((r) => r.reward)).toEqual(before.map(() => ''));
      await page.setInputFiles('[data-testid="open-folder-input"]', join(ROOT, 'sample-runs/tau2-data'));
      await page.waitForSelector(COMPLETE, { timeout: 60_000 });
      const rows = await page.evaluate(READ_ALL_ROWS);
      expect(rows.map((r) => r.reward)).toEqual(rows.map((r) => String(Number(r.recordedReward))));
      expect(await page.getByTestId('detection').textContent()).toContain('local folder');
    } finally {
      await context.close();
    }
  }, 120_000);

  it('a τ² run folder (results.json + simulations/<id>.json) opens by folder pick, judged with the folder of data picked before', async () => {
    const run = JSON.parse(readFileSync(join(ROOT, 'sample-runs/runs/tau2-mock-sample.json'), 'utf8')) as { simulations: { id: string }[] };
    const dir = mkdtempSync(join(tmpdir(), 'tau2-run-folder-'));
    try {
      const folder = join(dir, 'submission');
      mkdirSync(join(folder, 'simulations'), { recursive: true });
      writeFileSync(join(folder, 'results.json'), JSON.stringify({ ...run, simulations: [] }));
      for (const sim of run.simulations) writeFileSync(join(folder, 'simulations', `${sim.id}.json`), JSON.stringify(sim));
      const { context, page } = await offlinePage(browser);
      try {
        await page.goto(server.url);
        await page.waitForSelector(COMPLETE, { timeout: 60_000 });
        await page.setInputFiles('[data-testid="open-folder-input"]', join(ROOT, 'sample-runs/tau2-data'));
        await page.setInputFiles('[data-testid="open-folder-input"]', folder);
        await page.getByTestId('run-domain').waitFor({ timeout: 60_000 });
        await page.waitForSelector(COMPLETE, { timeout: 60_000 });
        const rows = await page.evaluate(READ_ALL_ROWS);
        expect(rows).toHaveLength(run.simulations.length);
        expect(rows.map((r) => r.reward)).toEqual(rows.map((r) => String(Number(r.recordedReward))));
        expect(await page.getByTestId('detection').textContent()).toContain('submission/');
      } finally {
        await context.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
