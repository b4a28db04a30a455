/**
 * τ³'s banking_knowledge in the app: the invented banking sample (offline, embedded data) and a shared banking run
 * (../shared/tau2/banking, data served as the dev server's TAU2_DATA): rows equal the recorded (sample) or τ²'s own
 * (shared) rewards, a failed simulation shows its DB diff blamed on calls, and the retrieved documents open with
 * their titles. Screenshots of a failed banking simulation at 1440×900 and 390×844 go to $SCREENSHOT_DIR when set.
 */
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeTau2, TAU2_DIR } from '../support/shared';
import { COMPLETE, offlinePage, READ_ALL_ROWS, skipBrowser, startAppAndBrowser, type AppServer } from './harness';

const suite = skipBrowser ? describe.skip : describeTau2;
const RUN = 'banking-a-s1.json';
const SHOTS = process.env.SCREENSHOT_DIR;

suite('τ³ banking_knowledge in headless Chromium', () => {
  let server: AppServer;
  let browser: Browser;

  beforeAll(async () => {
    ({ server, browser } = await startAppAndBrowser(null, join(TAU2_DIR, 'data')));
    mkdirSync(join(server.outDir, 'tau2-runs'), { recursive: true });
    copyFileSync(join(TAU2_DIR, 'banking', 'runs', RUN), join(server.outDir, 'tau2-runs', RUN));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** The DB diff of the simulation on screen: records that differ, each blamed on the calls that wrote it. */
  async function seeDiff(page: Page): Promise<void> {
    await page.getByTestId('tab-diff').click();
    await expect.poll(() => page.getByTestId('tau2-db-record').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    const blame = await page.getByTestId('tau2-blame').allTextContents();
    expect(blame.some((t) => /changed by call \d+/.test(t))).toBe(true);
  }

  it('the invented sample: rows as recorded; a failed simulation shows the DB diff with blame and the document it retrieved', async () => {
    const { context, page } = await offlinePage(browser);
    try {
      await page.goto(`${server.url}#sample=tau2-banking-sample`);
      await page.waitForSelector(COMPLETE, { timeout: 60_000 });
      const rows = await page.evaluate(READ_ALL_ROWS);
      expect(rows.map((r) => r.reward)).toEqual(['1', '0', '1', '0']);
      expect(rows.map((r) => r.reward)).toEqual(rows.map((r) => String(Number(r.recordedReward))));
      await page.locator('[data-testid="episode-row"][data-index="3"]').click();
      await page.waitForSelector('[data-testid="tau2-sim"][data-index="3"]');
      await seeDiff(page);
      if (SHOTS) {
        mkdirSync(SHOTS, { recursive: true });
        await page.screenshot({ path: join(SHOTS, 'banking-sample-diff-1440x900.png') });
      }
      await page.getByTestId('tab-retrieval').click();
      await page.locator('[data-doc="doc_sample_verification_001"]').waitFor({ timeout: 20_000 });
      expect(await page.locator('[data-doc="doc_sample_verification_001"]').textContent()).toContain('Verifying a caller (invented sample)');
      expect(await page.getByText('Never retrieved 1 of the 1 document the task requires').count()).toBe(1);
      if (SHOTS) {
        mkdirSync(SHOTS, { recursive: true });
        await page.screenshot({ path: join(SHOTS, 'banking-sample-1440x900.png') });
      }
    } finally {
      await context.close();
    }
    if (SHOTS) {
      const phone = await offlinePage(browser, { width: 390, height: 844 }, { hasTouch: true });
      try {
        await phone.page.goto(`${server.url}#sample=tau2-banking-sample&episode=3`);
        await phone.page.waitForSelector('[data-testid="tau2-sim"][data-index="3"]', { timeout: 60_000 });
        await phone.page.getByTestId('phone-tab-retrieval').tap();
        await phone.page.locator('[data-doc="doc_sample_verification_001"]').waitFor({ timeout: 20_000 });
        await phone.page.screenshot({ path: join(SHOTS, 'banking-sample-390x844.png') });
      } finally {
        await phone.context.close();
      }
    }
  }, 180_000);

  it('a shared banking run: every row is τ²’s reward; a failed simulation’s DB diff is blamed on calls; the gold one’s retrieved document opens', async () => {
    const expected = JSON.parse(readFileSync(join(TAU2_DIR, 'banking', 'expected', RUN.replace(/\.json$/, '.expected.json')), 'utf8')) as {
      simulations: { reward: number; db_match: boolean | null; tool_calls: { name: string }[] }[];
    };
    const { context, page } = await offlinePage(browser);
    try {
      await page.goto(`${server.url}#run=tau2-runs/${RUN}`);
      await page.waitForSelector(COMPLETE, { timeout: 120_000 });
      const rows = await page.evaluate(READ_ALL_ROWS);
      expect(rows.map((r) => r.reward)).toEqual(expected.simulations.map((s) => String(s.reward)));
      // A failed simulation whose agent wrote something the gold run did not (an argument changed): its diff has calls to blame.
      const run = JSON.parse(readFileSync(join(TAU2_DIR, 'banking', 'runs', RUN), 'utf8')) as { simulations: { info?: { corpus_variant?: string } }[] };
      const failed = expected.simulations.findIndex((s, i) => s.db_match === false && run.simulations[i]!.info?.corpus_variant === 'arg_changed');
      await page.goto(`${server.url}#run=tau2-runs/${RUN}&episode=${failed}`);
      await page.waitForSelector(`[data-testid="tau2-sim"][data-index="${failed}"]`, { timeout: 120_000 });
      await seeDiff(page);
      const gold = expected.simulations.findIndex((s) => s.reward === 1 && s.tool_calls.some((c) => c.name.startsWith('KB_search')));
      await page.goto(`${server.url}#run=tau2-runs/${RUN}&episode=${gold}`);
      await page.waitForSelector(`[data-testid="tau2-sim"][data-index="${gold}"]`, { timeout: 120_000 });
      await page.getByTestId('tab-retrieval').click();
      const doc = page.locator('[data-doc]').first();
      await doc.waitFor({ timeout: 20_000 });
      const id = (await doc.getAttribute('data-doc'))!;
      const raw = JSON.parse(
        readFileSync(join(TAU2_DIR, 'data', 'a2c024725189473d2d7cea3a5cfdbcc67478e41f', 'data/tau2/domains/banking_knowledge/documents', `${id}.json`), 'utf8'),
      ) as { title: string };
      expect(await doc.textContent()).toContain(raw.title);
    } finally {
      await context.close();
    }
  }, 240_000);
});
