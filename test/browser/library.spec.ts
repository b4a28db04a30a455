/**
 * A library of runs in headless Chromium (issue 19): ../shared/runs, ../shared/tau2/runs and ../shared/forks indexed once
 * by the CLI (`tau-inspect index`, in the folder picked; made once per test run with test/cli/index-runs.spec.ts, see
 * test/support/runs-index.ts), opened as a library folder. The leaderboard's pass^k of a
 * τ-bench run and two τ² runs equals what each run's own overview shows once judged; a task no run passes is listed
 * under task health and one click opens its episodes; the filters go into a link that reopens the same view (the
 * folder asked for again); the same index served beside its runs opens by URL and a run opens from there.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIBRARY_PICK, libraryRunsIndex } from '../support/runs-index';
import { DATA_DIR, describeShared, TAU2_DIR } from '../support/shared';
import { COMPLETE, offlinePage, READ_ALL_ROWS, skipBrowser, startAppAndBrowser, type AppServer } from './harness';

const suite = skipBrowser ? describe.skip : describeShared;

/** The run `file` is the open one (named on the run line, not only in the reading progress beside it) and every row of it is judged. */
async function opened(page: Page, file: string): Promise<void> {
  const name = file.split('/').at(-1)!;
  await page.waitForFunction((n) => (document.querySelector('[data-testid="detection"]')?.textContent ?? '').split(' · ')[0]!.endsWith(n), name, {
    timeout: 60_000,
  });
  await page.waitForSelector(COMPLETE, { timeout: 120_000 });
}

/** The recomputed pass^k the open run `file`'s overview shows, once every row is judged (the chart's own words). */
async function overviewPassK(page: Page, file: string): Promise<string> {
  await opened(page, file);
  const label = (await page.getByTestId('pass-k-chart').getAttribute('aria-label')) ?? '';
  return /recomputed: (.*?);/.exec(label)?.[1] ?? label;
}

/** The runs of the folder without an index: one τ-bench file and two τ² ones. */
const FEW = [
  'runs/grok-4-tool-calling-retail.json',
  'tau2/runs/sierra-research__pr17-gpt-4o-telecom.json',
  'tau2/runs/sierra-research__pr73-aide-claude-sonnet-4-5-airline.json',
];

const leaderRow = (file: string) => `[data-testid="leader-row"][data-file="${file}"]`;

suite('a library of runs in headless Chromium', () => {
  let server: AppServer;
  let browser: Browser;
  let dir = '';
  let lib = '';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tau-inspect-library-'));
    // The index (`index runs tau2/runs forks -o runs.parquet` in lib, read-only here) and the app at once: the index is most of this suite's time.
    const [started, made] = await Promise.all([startAppAndBrowser(DATA_DIR, join(TAU2_DIR, 'data')), libraryRunsIndex()]);
    ({ server, browser } = started);
    lib = made.lib;
    expect(made.first.code, made.first.err).toBe(0);
    // The same library served beside the app, for the URL case.
    cpSync(lib, join(server.outDir, 'lib'), { recursive: true });
    // A folder of a few runs without an index (and a file that is no run), judged in the browser.
    for (const f of FEW) cpSync(join(lib, f), join(dir, 'few', f));
    writeFileSync(join(dir, 'few', 'broken.json'), '{"simulations": [');
  }, 400_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the leaderboard shows each run’s pass^k as its own overview does; a task no run passes opens its episodes in one click', async () => {
    const { context, page } = await offlinePage(browser);
    try {
      await page.goto(server.url);
      await page.setInputFiles('[data-testid="library-folder-input"]', lib);
      await page.waitForSelector('[data-testid="leader-row"]', { timeout: 60_000 });
      expect(await page.getByTestId('library-summary').textContent()).toMatch(/^\d+ episodes in \d+ runs, from lib\/runs\.parquet/);
      // Every run of the library is on the board (the whole of ../shared is the soak's index).
      expect(await page.locator('[data-testid="leader-row"]').count()).toBe((LIBRARY_PICK.runs?.length ?? 0) + (LIBRARY_PICK.tau2?.length ?? 0));

      for (const file of [
        'runs/grok-4-tool-calling-retail.json',
        'tau2/runs/sierra-research__pr73-aide-claude-sonnet-4-5-airline.json',
        'tau2/runs/sierra-research__pr17-gpt-4o-telecom.json',
      ]) {
        const row = page.locator(leaderRow(file));
        const library = (await row.getAttribute('data-pass-k')) ?? '';
        expect(library, file).toMatch(/^pass\^1 \d\.\d{3}/);
        await row.getByRole('button').first().click();
        const overview = await overviewPassK(page, file);
        // The whole curve, τ² too: the index carries the file's info.num_trials, where the overview's k also stops.
        expect(overview, file).toBe(library);
        await page.getByTestId('library-button').click();
        await page.getByRole('button', { name: 'Show the library' }).click();
        await page.waitForSelector('[data-testid="leader-row"]');
      }

      await page.getByTestId('library-tab-health').click();
      const task = page.locator('[data-testid="health-noPass"] [data-testid="health-task"]').first();
      const open = task.getByTestId('health-open').first();
      const trials = Number(/· 0\/(\d+)$/.exec((await open.textContent()) ?? '')?.[1]);
      expect(trials).toBeGreaterThan(0);
      const runFile = (await open.getAttribute('data-run')) ?? '';
      await open.click();
      await opened(page, runFile);
      const rows = await page.evaluate(READ_ALL_ROWS);
      // The run opens at that task: its trials, all failing.
      expect(rows).toHaveLength(trials);
      expect(new Set(rows.map((r) => r.taskId)).size).toBe(1);
      expect(rows.every((r) => Number(r.reward) < 1)).toBe(true);
    } finally {
      await context.close();
    }
  }, 300_000);

  it('the leaderboard ranks within each benchmark and domain with 95 % intervals, compares two runs paired by task, fits pass^k in 390 px; the task audit lists findings', async () => {
    const { context, page } = await offlinePage(browser);
    try {
      await page.goto(server.url);
      await page.setInputFiles('[data-testid="library-folder-input"]', lib);
      await page.waitForSelector('[data-testid="leader-row"]', { timeout: 60_000 });
      // One table per benchmark and domain, never mixed; ranks start at 1 in each.
      const groups = await page.locator('[data-testid="leader-group"]').evaluateAll((gs) =>
        gs.map((g) => ({
          group: g.getAttribute('data-group'),
          ranks: [...g.querySelectorAll('[data-testid="leader-row"]')].map((r) => r.getAttribute('data-rank')),
          intervals: g.querySelectorAll('[data-testid="pass-1"] [data-testid="pass-interval"]').length,
          rows: g.querySelectorAll('[data-testid="leader-row"]').length,
        })),
      );
      expect(groups.map((g) => g.group)).toEqual(['τ-bench airline', 'τ-bench retail', 'τ² airline', 'τ² telecom']);
      for (const g of groups) {
        const ranked = g.ranks.filter((r) => r !== '');
        expect(ranked, g.group!).toEqual(ranked.map((_, i) => String(i + 1)));
        // Every run's pass^1 has its interval.
        expect(g.intervals, g.group!).toBe(g.rows);
      }
      // Cost and time as recorded: τ² runs record costs; a τ-bench file records the user's alone, never shown as a cost of 0.
      expect(await page.locator(`${leaderRow('tau2/runs/sierra-research__gym-gpt-4.1-airline.json')} [data-testid="spend"]`).textContent()).toMatch(
        /^\$\d\.\d{4}\/sim[\d.]+ pass\^1\/\$[\d.]+ s\/sim[\d,]+ tokens\/sim$/,
      );
      expect(await page.locator(`${leaderRow('runs/gpt-4o-airline.json')} [data-testid="spend"]`).textContent()).toMatch(
        /^agent cost not recordeduser \$\d\.\d{4}\/sim( \(\d+ of 200\))?not recordedtokens not recorded$/,
      );
      // The interval's method is named where the value is.
      expect(await page.locator('[data-testid="pass-1"]').first().getAttribute('title')).toMatch(/95 % interval .* percentile bootstrap over tasks/s);
      // Two τ² airline runs compared paired by task.
      const airline = page.locator('[data-testid="leader-group"][data-group="τ² airline"]');
      await airline.getByText('Compare two runs, paired by task').click();
      const result = (await airline.getByTestId('compare-result').textContent()) ?? '';
      expect(result).toMatch(
        /^(.+ better than .+|No difference shown between .+: the interval holds 0)\. pass\^1 difference per task [+-]\d\.\d{3} \(95 % interval /,
      );
      // A phone: the pass^k columns are on screen.
      await page.setViewportSize({ width: 390, height: 844 });
      const right = await page
        .locator('[data-testid="leaderboard"] th')
        .evaluateAll((ths) => ths.filter((th) => /^pass\^\d$/.test(th.textContent ?? '')).map((th) => th.getBoundingClientRect().right));
      expect(right.length).toBeGreaterThan(0);
      expect(Math.max(...right)).toBeLessThanOrEqual(390);
      await page.setViewportSize({ width: 1280, height: 900 });
      // The task audit: τ² airline's references that leave the DB as it started, each with a simulation one click away.
      await page.getByTestId('library-tab-health').click();
      const noop = page.locator('[data-testid="audit-finding"][data-kind="gold-no-op"][data-domain="airline"]');
      expect(await noop.count()).toBeGreaterThan(0);
      expect(await noop.first().getByTestId('audit-open').textContent()).toMatch(/ #\d+$/);
    } finally {
      await context.close();
    }
  }, 300_000);

  it('filters by benchmark and domain go into a link that reopens the same view once the folder is picked again', async () => {
    const { context, page } = await offlinePage(browser);
    try {
      await page.goto(server.url);
      await page.setInputFiles('[data-testid="library-folder-input"]', lib);
      await page.waitForSelector('[data-testid="leader-row"]', { timeout: 60_000 });
      await page.getByTestId('library-filter-benchmark').selectOption('tau2');
      await page.getByTestId('library-filter-domain').selectOption('airline');
      await page.getByTestId('library-tab-heatmap').click();
      await page.waitForFunction(() => location.hash.includes('lib-tab=heatmap'));
      const hash = await page.evaluate(() => location.hash);
      expect(hash).toBe('#library-folder=lib&lib-tab=heatmap&lib-benchmark=tau2&lib-domain=airline');
      const grids = await page.locator('[data-testid="heat-map"]').count();
      expect(grids).toBe(1);

      const again = await context.newPage();
      await again.goto(`${server.url}${hash}`);
      await again.waitForSelector('[data-testid="library-request"]');
      expect(await again.getByTestId('library-request').textContent()).toContain('“lib”');
      await again.setInputFiles('[data-testid="library-folder-input"]', lib);
      await again.waitForSelector('[data-testid="heat-map"]', { timeout: 60_000 });
      expect(await again.locator('[data-testid="heat-map"]').count()).toBe(1);
      expect(await again.getByTestId('library-filter-domain').inputValue()).toBe('airline');
      const cell = again.locator('[data-testid="heat-cell"]').first();
      expect(await cell.getAttribute('data-run')).toMatch(/^tau2\/runs\/.*airline/);
    } finally {
      await context.close();
    }
  }, 300_000);

  it('a runs.parquet served beside its runs opens by link, and a run opens from it by URL; a bad file is refused in words', async () => {
    const { context, page } = await offlinePage(browser);
    try {
      await page.goto(`${server.url}#library=lib/runs.parquet&lib-benchmark=tau-bench`);
      await page.waitForSelector('[data-testid="leader-row"]', { timeout: 60_000 });
      const files = await page.locator('[data-testid="leader-row"]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-file')));
      expect(files.every((f) => f !== null && !f.startsWith('tau2/'))).toBe(true);
      await page.locator(leaderRow('runs/grok-4-tool-calling-retail.json')).getByRole('button').first().click();
      await opened(page, 'runs/grok-4-tool-calling-retail.json');
      expect(await page.evaluate(() => location.hash)).toContain('run=');

      await page.goto(`${server.url}#library=lib/runs/gpt-4o-airline.json`);
      await page.waitForSelector('[data-testid="library-error"]', { timeout: 60_000 });
      expect(await page.getByTestId('library-error').textContent()).toMatch(/not a Parquet file/);
    } finally {
      await context.close();
    }
  }, 300_000);

  it('a folder without runs.parquet is judged file by file in the browser: the same pass^k as its index, a bad file listed with its reason', async () => {
    const { context, page } = await offlinePage(browser);
    try {
      await page.goto(server.url);
      await page.setInputFiles('[data-testid="library-folder-input"]', lib);
      await page.waitForSelector('[data-testid="leader-row"]', { timeout: 60_000 });
      const indexed = new Map<string, string | null>();
      for (const f of FEW) indexed.set(f, await page.locator(leaderRow(f)).getAttribute('data-pass-k'));

      await page.setInputFiles('[data-testid="library-folder-input"]', join(dir, 'few'));
      await page.waitForSelector('[data-testid="library-view"][data-loading="false"] [data-testid="leader-row"]', { timeout: 240_000 });
      expect(await page.getByTestId('library-summary').textContent()).toMatch(/judged in this browser/);
      expect(await page.locator('[data-testid="leader-row"]').count()).toBe(FEW.length);
      for (const f of FEW) expect(await page.locator(leaderRow(f)).getAttribute('data-pass-k'), f).toBe(indexed.get(f));
      expect(await page.getByTestId('library-problems').textContent()).toContain('broken.json');
    } finally {
      await context.close();
    }
  }, 400_000);
});
