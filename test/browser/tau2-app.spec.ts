/**
 * τ²-bench runs in the app: three files of ../shared/tau2/runs (airline, retail, telecom in solo mode)
 * opened by a same-origin `#run=` link, with ../shared/tau2/data served as the dev server's TAU2_DATA;
 * every row's recomputed reward must equal τ²'s own verdict (../shared/tau2/expected).
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeTau2, TAU2_DIR } from '../support/shared';
import { tau2Expected } from '../support/tau2';
import { COMPLETE, NO_BROWSER_SERVICES, offlinePage, READ_ALL_ROWS, skipBrowser, startAppAndBrowser, type AppServer } from './harness';

const FILES = ['sierra-research__gym-gpt-4.1-airline.json', 'sierra-research__gym-gpt-4.1-retail.json', 'sierra-research__gym-gpt-4.1-telecom-solo.json'];

/** Skipped only without Chromium when it is not required (as every browser spec); without ../shared/tau2 it fails under REQUIRE_SHARED=1. */
const suite = skipBrowser ? describe.skip : describeTau2;

suite('τ² runs opened by link in headless Chromium, judged against τ²’s own verdicts', () => {
  let server: AppServer;
  let browser: Browser;

  beforeAll(async () => {
    ({ server, browser } = await startAppAndBrowser(null, NO_BROWSER_SERVICES, join(TAU2_DIR, 'data')));
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
      const { context, page, blocked } = await offlinePage(browser);
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
        expect(blocked).toEqual([]);
      } finally {
        await context.close();
      }
    },
    180_000,
  );
});
