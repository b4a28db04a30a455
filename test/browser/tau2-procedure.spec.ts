/**
 * What the reward ignores, on a τ² run: the overview counts the procedure findings by kind over the run, and the
 * simulation's "Not counted" panel shows each one apart from the reward, naming the call and the message that show it
 * (a click brings the call into view); the report downloaded from an edited view explains the failed simulation (the
 * differing field and the call that wrote it) and shows the edit. gym gpt-4.1 retail from ../shared/tau2/runs, its data served as TAU2_DATA; the
 * expectations are core's findings on the same file (opened here as the CLI opens it).
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countIgnored, ignoredText, tau2Ignored, TAU2_PROCEDURE_KINDS } from '../../src/core/contract';
import type { Tau2Report } from '../../src/core/view/tau2/report';
import { describeTau2, TAU2_DIR } from '../support/shared';
import { openTau2 } from '../support/tau2';
import { COMPLETE, offlinePage, skipBrowser, startAppAndBrowser, type AppServer } from './harness';

const RETAIL = 'sierra-research__gym-gpt-4.1-retail.json';

const suite = skipBrowser ? describe.skip : describeTau2;

suite('what the reward ignores on a τ² run', () => {
  let server: AppServer;
  let browser: Browser;
  let reports: Tau2Report[];

  beforeAll(async () => {
    ({ server, browser } = await startAppAndBrowser(null, join(TAU2_DIR, 'data')));
    mkdirSync(join(server.outDir, 'tau2-runs'), { recursive: true });
    copyFileSync(join(TAU2_DIR, 'runs', RETAIL), join(server.outDir, 'tau2-runs', RETAIL));
    const s = await openTau2(RETAIL);
    reports = Array.from({ length: s.size }, (_, i) => s.report(i));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('the report downloaded from an edited view explains the failed simulation and shows the edit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tau2-report-'));
    const { context, page } = await offlinePage(browser);
    try {
      await page.goto(`${server.url}#run=tau2-runs/${RETAIL}&episode=26`);
      await page.waitForSelector('[data-testid="tau2-sim"][data-index="26"]', { timeout: 120_000 });
      // Drop the write the DB diff blames (call 10, modify_pending_order_items): the what-if passes.
      await page.locator('[data-testid="tau2-call"][data-call-index="10"]').getByTestId('tau2-drop-call').click();
      await page.getByTestId('tau2-what-if-reward').waitFor({ timeout: 60_000 });
      expect(await page.getByTestId('tau2-what-if-reward').textContent()).toBe('1.0');
      await page.waitForSelector(COMPLETE, { timeout: 120_000 });
      const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid="report-button"]').click()]);
      const path = join(dir, 'report.html');
      await download.saveAs(path);
      const html = readFileSync(path, 'utf8');
      const at = html.indexOf('<section id="sim-26">');
      const s = html.slice(at, html.indexOf('</section>', at));
      expect(s).toContain('<li>removed call 10 (modify_pending_order_items, message #40)</li>');
      expect(s).toMatch(/reward 0\.0 → <b class="pass">1\.0<\/b>/);
      expect(s).toContain('written by call 10 (modify_pending_order_items, message #40)');
      expect(s).toContain('<tr data-field="status">');
      expect(html).not.toMatch(/<script/i);
    } finally {
      await context.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);

  it('the overview counts them by kind over the run, as core counts them', async () => {
    const expected = ignoredText(countIgnored(reports.map((r) => tau2Ignored(r.findings))), 'simulations');
    expect(expected).toContain(`${TAU2_PROCEDURE_KINDS['write-without-consent']} 1`);
    const { context, page } = await offlinePage(browser);
    try {
      await page.goto(`${server.url}#run=tau2-runs/${RETAIL}`);
      const line = page.getByTestId('run-ignored');
      await expect.poll(() => line.textContent().catch(() => ''), { timeout: 120_000 }).toContain(expected);
      expect(await line.textContent()).toContain('not part of the reward');
    } finally {
      await context.close();
    }
  });

  it('a write without an explicit yes is shown apart from the reward, with its call and the user’s message; its call link shows the call', async () => {
    // The one such simulation (checked by hand: cancel_pending_order after "Please cancel order #W9348897", no yes).
    const episode = reports.findIndex((r) => r.findings.some((f) => f.kind === 'write-without-consent'));
    const finding = reports[episode]!.findings.find((f) => f.kind === 'write-without-consent')!;
    expect([episode, finding.call, finding.message]).toEqual([23, 12, 39]);
    const call = reports[episode]!.tool_calls[finding.call!]!;
    expect(call.name).toBe('cancel_pending_order');
    const { context, page } = await offlinePage(browser);
    try {
      await page.goto(`${server.url}#run=tau2-runs/${RETAIL}&episode=${episode}`);
      await page.waitForSelector(`[data-testid="tau2-sim"][data-index="${episode}"]`, { timeout: 120_000, state: 'attached' });
      await page.getByTestId('tab-findings').click();
      const shown = page.locator('[data-testid="tau2-procedure-finding"][data-kind="write-without-consent"]');
      await shown.waitFor({ timeout: 30_000 });
      const text = await shown.textContent();
      expect(text).toContain(finding.text);
      expect(text).toContain('not part of τ²’s reward');
      expect(text).toContain('message #39');
      // The findings about how τ² judged stay apart from the procedure's.
      expect(await page.getByTestId('tau2-procedure').getByText('What the reward ignores').count()).toBe(1);
      await shown.getByRole('button', { name: 'call 12', exact: true }).click();
      await expect.poll(() => page.getByTestId('tau2-sim').getAttribute('data-message')).toBe(String(call.message_index));
      await expect
        .poll(() =>
          page
            .locator('[data-testid="tau2-call"][data-call-index="12"]')
            .evaluate((el) => el.getBoundingClientRect().top < innerHeight && el.getBoundingClientRect().bottom > 0)
            .catch(() => false),
        )
        .toBe(true);
      await shown.getByRole('button', { name: 'message #39', exact: true }).click();
      await expect.poll(() => page.getByTestId('tau2-sim').getAttribute('data-message')).toBe('39');
    } finally {
      await context.close();
    }
  });
});
