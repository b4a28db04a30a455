import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPLETE, READ_ALL_ROWS, launchChromium, skipBrowser, startApp, type AppServer } from './harness';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SAMPLE_PATH = join(ROOT, 'sample-runs/runs/retail-sample.json');
const SAMPLE_TEXT = readFileSync(SAMPLE_PATH, 'utf8');
const HOSTILE_NAME = '<img src=x onerror="document.title=1">run.json';
const HOSTILE_NOTE = '<script>document.title="pwned"</script><img src=x onerror="document.title=1"><b>bold</b>';

interface Message {
  role: string;
  tool_calls?: { function: { name: string } }[];
}
interface Episode {
  task_id: number;
  traj: Message[];
}

/** The sample run with task 0's episodes (both passed) cut before their cancel call: the recomputed reward drops to 0. */
function flippedSample(): string {
  const eps = JSON.parse(SAMPLE_TEXT) as Episode[];
  for (const ep of eps) {
    if (ep.task_id !== 0) continue;
    const cut = ep.traj.findIndex((m) => m.tool_calls?.some((c) => c.function.name === 'cancel_pending_order'));
    expect(cut).toBeGreaterThan(0);
    ep.traj = ep.traj.slice(0, cut);
  }
  return JSON.stringify(eps);
}

describe.skipIf(skipBrowser)('review runs together in headless Chromium', () => {
  let server: AppServer;
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tau-inspect-review-'));
    [server, browser] = await Promise.all([startApp(null), launchChromium()]);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('downloads a report that opens from disk with no request and no script: every episode with its reward, notes as text', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
    const page = await context.newPage();
    let reportPath: string;
    let rows: Awaited<ReturnType<typeof READ_ALL_ROWS>>;
    try {
      await page.goto(server.url);
      await page.waitForSelector(COMPLETE, { timeout: 60_000 });
      // The sample again, under a hostile file name (it ends up in the report's title).
      await page
        .locator('[data-testid="open-file-input"]')
        .setInputFiles({ name: HOSTILE_NAME, mimeType: 'application/json', buffer: Buffer.from(SAMPLE_TEXT) });
      await page.waitForFunction((name) => document.body.textContent?.includes(name) ?? false, HOSTILE_NAME);
      await page.waitForSelector(COMPLETE, { timeout: 60_000 });
      await page.locator('[data-testid="episode-row"][data-index="1"]').click();
      await page.getByTestId('tab-notes').click();
      await page.locator('[data-testid="episode-note"]').fill(HOSTILE_NOTE);
      await page.locator('[data-testid="episode-note"]').blur();
      await expect.poll(() => page.locator('[data-testid="note-status"]').textContent()).toBe('saved in this browser');
      await page.keyboard.press('Escape');
      rows = await page.evaluate(READ_ALL_ROWS);
      expect(rows.length).toBe(14);
      const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid="report-button"]').click()]);
      expect(download.suggestedFilename()).toMatch(/run-report\.html$/);
      reportPath = join(dir, 'report.html');
      await download.saveAs(reportPath);
    } finally {
      await context.close();
    }

    // A fresh context: every request is recorded, and anything but the file itself is refused.
    const offline = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const fileUrl = pathToFileURL(reportPath).href;
    const requests: string[] = [];
    offline.on('request', (r) => void requests.push(r.url()));
    await offline.route('**/*', (route) => (route.request().url() === fileUrl ? route.continue() : route.abort('blockedbyclient')));
    try {
      const p = await offline.newPage();
      await p.goto(fileUrl);
      const eps = p.locator('[data-testid="report-episode"]');
      expect(await eps.count()).toBe(rows.length);
      const got = await eps.evaluateAll((els) => els.map((e) => ({ index: Number(e.getAttribute('data-index')), reward: e.getAttribute('data-reward') })));
      // Failed episodes first, then passed ones, each in file order.
      const failedFirst = [...rows.filter((r) => Number(r.reward) < 1), ...rows.filter((r) => Number(r.reward) >= 1)];
      expect(got.map((g) => g.index)).toEqual(failedFirst.map((r) => r.index));
      expect(got.map((g) => Number(g.reward))).toEqual(failedFirst.map((r) => Number(r.reward)));
      // Failed episodes in full: verdict and dialogue; the hostile note and file name are text.
      const failed = p.locator('[data-testid="report-episode"][data-index="1"]');
      expect(await failed.locator('h3', { hasText: 'Dialogue' }).count()).toBe(1);
      expect(await failed.locator('h3', { hasText: 'How τ-bench judged it' }).count()).toBe(1);
      expect(await failed.locator('.note pre').textContent()).toBe(HOSTILE_NOTE);
      expect(await p.locator('h1').textContent()).toContain(HOSTILE_NAME);
      expect(await p.title()).toBe(`tau-inspect report: ${HOSTILE_NAME}`);
      expect(await p.locator('img, script, .note b').count()).toBe(0);
      await p.screenshot({ path: join(dir, 'report.png') }).catch(() => undefined);
      expect(requests).toEqual([fileUrl]);
    } finally {
      await offline.close();
    }
  }, 180_000);

  it('one reward text: the reward of an episode reads the same in the table, the verdict, the report and the CLI', async () => {
    // The CLI on the same sample file and its data.
    const cli = spawnSync(
      process.execPath,
      [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), join(ROOT, 'src/cli/tau-inspect.ts'), 'evaluate', SAMPLE_PATH, '--data', join(ROOT, 'sample-runs/data')],
      {
        encoding: 'utf8',
      },
    );
    expect(cli.status, cli.stderr).toBe(0);
    const cliReward = new Map<number, string>();
    for (const line of cli.stdout.split('\n')) {
      const m = /^(\d+)\s+\S+\s+\S+\s+\S+\s+(\S+)\s/.exec(line);
      if (m) cliReward.set(Number(m[1]), m[2]!);
    }
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
    const page = await context.newPage();
    try {
      await page.goto(server.url);
      await page.waitForSelector(COMPLETE, { timeout: 60_000 });
      const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid="report-button"]').click()]);
      const reportPath = join(dir, 'reward-text.html');
      await download.saveAs(reportPath);
      const report = readFileSync(reportPath, 'utf8');
      let passed = 0;
      let failed = 0;
      for (const index of [0, 1, 2, 3]) {
        const row = page.locator(`[data-testid="episode-row"][data-index="${index}"]`);
        const table = (await row.locator('[data-testid="row-reward"]').textContent())?.trim();
        await row.click();
        const verdict = (await page.locator('[data-testid="verdict-reward"]').textContent())?.trim();
        const inReport = new RegExp(`data-index="${index}" data-reward="([^"]*)"`).exec(report)?.[1];
        expect(table).toMatch(/^\d\.\d+$/);
        expect([verdict, inReport, cliReward.get(index)]).toEqual([table, table, table]);
        if (table === '1.0') passed++;
        else failed++;
        await page.keyboard.press('Escape');
      }
      // Both kinds were compared, not only one.
      expect(passed).toBeGreaterThan(0);
      expect(failed).toBeGreaterThan(0);
    } finally {
      await context.close();
    }
  }, 180_000);

  it('opens a second file beside the first: the flipped task shows, filters, and drills into both episodes', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    try {
      await page.goto(server.url);
      await page.waitForSelector(COMPLETE, { timeout: 60_000 });
      await page
        .locator('[data-testid="compare-file-input"]')
        .setInputFiles({ name: HOSTILE_NAME, mimeType: 'application/json', buffer: Buffer.from(flippedSample()) });
      await page.waitForSelector('[data-testid="compare-table"]', { timeout: 60_000 });
      expect(await page.locator('[data-testid="compare-label-b"]').textContent()).toContain(HOSTILE_NAME);
      const task0 = page.locator('[data-testid="compare-task"][data-task-id="0"]');
      expect(await task0.getAttribute('data-flip')).toBe('lost');
      expect(await task0.locator('[data-testid="compare-a"]').textContent()).toBe('2/2');
      expect(await task0.locator('[data-testid="compare-b"]').textContent()).toBe('0/2');
      expect(await page.locator('[data-testid="compare-task"]').count()).toBe(7);
      expect(await page.locator('[data-testid="compare-task"][data-flip="lost"], [data-testid="compare-task"][data-flip="gained"]').count()).toBe(1);
      await page.locator('[data-testid="compare-flips-only"]').check();
      await expect.poll(() => page.locator('[data-testid="compare-task"]').count()).toBe(1);
      await task0.getByRole('button').click();
      const a = page.locator('[data-testid="compare-episode"][data-side="a"]');
      const b = page.locator('[data-testid="compare-episode"][data-side="b"]');
      await expect.poll(() => a.getAttribute('data-reward')).toBe('1');
      await expect.poll(() => b.getAttribute('data-reward')).toBe('0');
      expect(await a.getAttribute('data-index')).toBe('0');
      expect(await b.getAttribute('data-index')).toBe('0');
      expect(await a.locator('[data-testid="compare-dialogue"]').textContent()).toContain('cancel_pending_order');
      expect(await b.locator('[data-testid="compare-dialogue"]').textContent()).not.toContain('cancel_pending_order');
      // The other trial of the task, on B's side.
      await b.getByRole('button', { name: /#7 trial 1/ }).click();
      await expect.poll(() => b.getAttribute('data-index')).toBe('7');
      await expect.poll(() => b.getAttribute('data-reward')).toBe('0');
      expect(await page.locator('img[src="x"]').count()).toBe(0);
      expect(await page.title()).not.toBe('1');
    } finally {
      await context.close();
    }
  }, 180_000);
});
