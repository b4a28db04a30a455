/**
 * Leaderboard submissions in the app's library (issue #33 item 6): the invented sample submissions
 * (sample-runs/submissions: `<entry>/submission.json` + `trajectories/`) picked as a library folder, their trajectories
 * judged in the browser on the invented τ² data served beside the app, each entry's claimed pass^k beside the
 * recomputed one — the higher claim flagged, the missing trajectory file listed, the malformed submission.json named
 * field by field — the same numbers as `tau-inspect submissions` prints; the trajectories on the leaderboard under it.
 * Screenshots at 1440×900 and 390×844 go to $SCREENSHOT_DIR.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TAU2_PINNED_COMMIT } from '../../src/core/contract';
import { appRequestsProblem, offlinePage, skipBrowser, startAppAndBrowser, type AppServer } from './harness';

const suite = skipBrowser ? describe.skip : describe;
const ROOT = resolve(import.meta.dirname, '../..');
const SHOTS = process.env.SCREENSHOT_DIR;

suite('leaderboard submissions in headless Chromium', () => {
  let server: AppServer;
  let browser: Browser;

  let data = '';

  beforeAll(async () => {
    // The invented τ² data served as the dev server serves $TAU2_DATA (`<commit>/data/tau2/domains/…`).
    data = mkdtempSync(join(tmpdir(), 'tau-inspect-subs-data-'));
    cpSync(join(ROOT, 'sample-runs/tau2-data/data'), join(data, TAU2_PINNED_COMMIT, 'data'), { recursive: true });
    ({ server, browser } = await startAppAndBrowser(null, data));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (data) rmSync(data, { recursive: true, force: true });
  });

  it('a submissions folder shows claimed beside recomputed pass^k per entry and domain, with flags, missing files and field errors', async () => {
    const o = await offlinePage(browser);
    const { context, page } = o;
    try {
      await page.goto(server.url);
      await page.setInputFiles('[data-testid="library-folder-input"]', join(ROOT, 'sample-runs/submissions'));
      await page.waitForSelector('[data-testid="library-view"][data-loading="false"] [data-testid="submissions-view"]', { timeout: 120_000 });
      const entries = page.getByTestId('submission-entry');
      expect(await entries.evaluateAll((es) => es.map((e) => [e.getAttribute('data-entry'), e.getAttribute('data-flagged')]))).toEqual([
        ['invented-model-a_example-lab_2026-11-30', '0'],
        ['invented-model-b_other-lab_2026-12-01', '1'],
        ['invented-model-c_broken-lab_2026-12-02', '0'],
      ]);
      const passK = (entry: string) =>
        page
          .locator(`[data-testid="submission-entry"][data-entry="${entry}"] [data-testid="submission-passk"]`)
          .evaluateAll((rows) =>
            rows.map((r) => [
              r.getAttribute('data-domain'),
              r.getAttribute('data-k'),
              r.querySelector('[data-testid="claimed"]')?.textContent,
              r.querySelector('[data-testid="recomputed"]')?.textContent,
              r.getAttribute('data-flag'),
            ]),
          );
      // Claims equal to the recomputed pass^k.
      expect(await passK('invented-model-a_example-lab_2026-11-30')).toEqual([
        ['retail', '1', '75.00', '75.00', ''],
        ['retail', '2', '50.00', '50.00', ''],
      ]);
      // A claim higher than recomputed, flagged; a telecom file named but missing.
      expect(await passK('invented-model-b_other-lab_2026-12-01')).toEqual([
        ['retail', '1', '62.50', '25.00', 'higher'],
        ['retail', '2', '0.00', '0.00', ''],
        ['telecom', '1', '40.00', '—', ''],
      ]);
      const b = page.locator('[data-testid="submission-entry"][data-entry="invented-model-b_other-lab_2026-12-01"]');
      expect(await b.getByTestId('submission-missing').textContent()).toBe('Named in trajectory_files but not under trajectories/: telecom.json');
      expect(await b.locator('[data-testid="submission-passk"][data-flag="higher"]').textContent()).toContain('claim higher than recomputed by 37.50 points');
      // A malformed submission.json: each field named; the rest still compared.
      const c = page.locator('[data-testid="submission-entry"][data-entry="invented-model-c_broken-lab_2026-12-02"]');
      expect(await c.getByTestId('submission-errors').locator('li').allTextContents()).toEqual([
        'submission.json: model_organization: missing (the leaderboard requires it)',
        'submission.json: results.retail.pass_1: should be a percentage from 0 to 100, not "high"',
      ]);
      expect(await passK('invented-model-c_broken-lab_2026-12-02')).toEqual([
        ['retail', '1', '—', '75.00', ''],
        ['retail', '2', '50.00', '50.00', ''],
      ]);
      // The trajectories are the library's runs too.
      expect(await page.locator('[data-testid="leader-row"]').count()).toBe(3);
      // Nothing left the app's origin (the data came from the app's own server).
      expect(appRequestsProblem(o)).toBeNull();
      if (SHOTS) {
        mkdirSync(SHOTS, { recursive: true });
        for (const [w, h] of [
          [1440, 900],
          [390, 844],
        ] as const) {
          await page.setViewportSize({ width: w, height: h });
          await page.screenshot({ path: join(SHOTS, `submissions-${w}.png`) });
        }
      }
    } finally {
      await context.close();
    }
  }, 240_000);
});
