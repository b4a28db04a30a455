/**
 * Issue 33 items 1 and 2 in headless Chromium: the library, a run opened from it and an episode are history entries
 * (Back shows the library as it was left — the same rows, nothing read or judged again —, Forward the run, still
 * open); a search in one run never empties another; a library judged before τ² data was there judges itself again once
 * the data folder is picked; an index whose files are named relative to it opens its runs from another place.
 * Every request the page sends its worker is counted (`Worker.prototype.postMessage`, by message type).
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexCli, libraryRunsIndex } from '../support/runs-index';
import { DATA_DIR, describeShared, SHARED_DIR, TAU2_DIR } from '../support/shared';
import { COMPLETE, offlinePage, READ_ALL_ROWS, skipBrowser, startAppAndBrowser, type AppServer } from './harness';

const suite = skipBrowser ? describe.skip : describeShared;

/** Counts the page's requests to its worker by type (window.__sent), from the first script on. */
const COUNT_REQUESTS = (): void => {
  const sent: Record<string, number> = {};
  (window as unknown as { __sent: Record<string, number> }).__sent = sent;
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (this: Worker, m: unknown, ...rest: unknown[]) {
    const type = (m as { type?: unknown } | null)?.type;
    if (typeof type === 'string') sent[type] = (sent[type] ?? 0) + 1;
    return (post as (...a: unknown[]) => void).call(this, m, ...rest);
  } as Worker['postMessage'];
};

const sent = (page: Page): Promise<Record<string, number>> => page.evaluate(() => ({ ...(window as unknown as { __sent: Record<string, number> }).__sent }));

/** The run `file` is the open one (named on the run line) and every row of it is judged. */
async function opened(page: Page, file: string): Promise<void> {
  const name = file.split('/').at(-1)!;
  await page.waitForFunction((n) => (document.querySelector('[data-testid="detection"]')?.textContent ?? '').split(' · ')[0]!.endsWith(n), name, {
    timeout: 60_000,
  });
  await page.waitForSelector(COMPLETE, { timeout: 120_000 });
}

/** What the library shows: its id (one per read), the tab, and every leaderboard row (file, pass^k). */
const libraryShown = (page: Page) =>
  page.evaluate(() => ({
    id: document.querySelector('[data-testid="library-view"]')?.getAttribute('data-library-id'),
    tab: document.querySelector('[role="tab"][aria-selected="true"]')?.textContent,
    rows: [...document.querySelectorAll('[data-testid="leader-row"]')].map((r) => `${r.getAttribute('data-file')} ${r.getAttribute('data-pass-k')}`),
  }));

const RETAIL = 'runs/grok-4-tool-calling-retail.json';
const RETAIL_2 = 'runs/qwen3-8b-react-retail.json';

suite('library navigation in headless Chromium (issue 33)', () => {
  let server: AppServer;
  let browser: Browser;
  let lib = '';

  beforeAll(async () => {
    const [started, made] = await Promise.all([startAppAndBrowser(DATA_DIR, join(TAU2_DIR, 'data')), libraryRunsIndex()]);
    ({ server, browser } = started);
    lib = made.lib;
    expect(made.first.code, made.first.err).toBe(0);
  }, 400_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('library → heat-map cell → run → Back → the same library, nothing read or judged again → Forward → the same run; an episode is an entry too', async () => {
    const { context, page } = await offlinePage(browser);
    try {
      await page.addInitScript(COUNT_REQUESTS);
      await page.goto(server.url);
      await page.waitForSelector(COMPLETE, { timeout: 60_000 });
      await page.setInputFiles('[data-testid="library-folder-input"]', lib);
      await page.waitForSelector('[data-testid="leader-row"]', { timeout: 60_000 });
      await page.getByTestId('library-filter-benchmark').selectOption('tau-bench');
      await page.getByTestId('library-filter-domain').selectOption('retail');
      await page.getByTestId('library-tab-heatmap').click();
      await page.waitForFunction(() => location.hash.includes('lib-tab=heatmap') && location.hash.includes('lib-domain=retail'));
      const before = await libraryShown(page);
      const libraryHash = await page.evaluate(() => location.hash);
      expect(before.tab).toBe('Tasks × runs');

      const cell = page.locator(`[data-testid="heat-cell"][data-run="${RETAIL}"]`).first();
      const task = await cell.getAttribute('data-task');
      await cell.click();
      await opened(page, RETAIL);
      // The URL says where the page is.
      const runHash = await page.evaluate(() => location.hash);
      expect(runHash).not.toBe(libraryHash);
      expect(runHash).toContain(`task=${task}`);
      const runRows = await page.evaluate(READ_ALL_ROWS);
      expect(runRows.length).toBeGreaterThan(0);
      const counts = await sent(page);
      expect(counts['open-library']).toBe(1);

      await page.goBack();
      await page.waitForSelector('[data-testid="library-view"] [data-testid="heat-map"]', { timeout: 10_000 });
      expect(await page.evaluate(() => location.hash)).toBe(libraryHash);
      // The same view: the same library read (no second open-library), the same tab, the same rows; nothing asked of the worker.
      expect(await libraryShown(page)).toEqual(before);
      expect(await sent(page)).toEqual(counts);

      await page.goForward();
      await page.waitForSelector(COMPLETE, { timeout: 10_000 });
      expect(await page.evaluate(() => location.hash)).toBe(runHash);
      // The way back is on screen.
      expect(await page.getByTestId('library-crumb').textContent()).toContain(RETAIL);
      // The run still open: not opened or judged again, the same rows at the same task.
      expect(await page.evaluate(READ_ALL_ROWS)).toEqual(runRows);
      expect((await sent(page))['open-run']).toBe(counts['open-run']);

      // An episode is an entry of its own: Back closes it, Forward opens it again.
      await page.locator('[data-testid="episode-row"]').first().click();
      await page.waitForFunction(() => /[#&]episode=\d+/.test(location.hash));
      const episodeHash = await page.evaluate(() => location.hash);
      await page.goBack();
      await page.waitForFunction((h) => location.hash === h, runHash);
      await page.waitForSelector('[data-testid="overview-column"][data-compact="false"]');
      await page.goForward();
      await page.waitForFunction((h) => location.hash === h, episodeHash);
      await page.waitForSelector('[data-testid="overview-column"][data-compact="true"]');
      // The crumb goes back to the library as it was, again without reading it.
      await page.getByTestId('library-crumb-back').click();
      await page.waitForSelector('[data-testid="library-view"] [data-testid="heat-map"]');
      expect(await libraryShown(page)).toEqual(before);
      expect((await sent(page))['open-library']).toBe(1);
    } finally {
      await context.close();
    }
  }, 300_000);

  it('a search in one run does not empty another opened from the library', async () => {
    const { context, page } = await offlinePage(browser);
    try {
      await page.goto(server.url);
      await page.waitForSelector(COMPLETE, { timeout: 60_000 });
      await page.setInputFiles('[data-testid="library-folder-input"]', lib);
      await page.waitForSelector('[data-testid="leader-row"]', { timeout: 60_000 });
      await page.locator(`[data-testid="leader-row"][data-file="${RETAIL}"]`).getByRole('button').first().click();
      await opened(page, RETAIL);
      await page.getByTestId('search').fill('Lakeview');
      await page.waitForFunction(() => /of \d+$/.test(document.querySelector('[role="search"] [aria-live]')?.textContent ?? ''), null, { timeout: 30_000 });

      await page.getByTestId('library-button').click();
      await page.getByRole('button', { name: 'Show the library' }).click();
      await page.getByTestId('library-filter-benchmark').selectOption('tau-bench');
      await page.getByTestId('library-filter-domain').selectOption('retail');
      await page.getByTestId('library-tab-heatmap').click();
      const cell = page.locator(`[data-testid="heat-cell"][data-run="${RETAIL_2}"]`).first();
      const trials = Number(/\/(\d+)$/.exec((await cell.textContent()) ?? '')?.[1]);
      expect(trials).toBeGreaterThan(0);
      await cell.click();
      await opened(page, RETAIL_2);
      // Let any search answer still on its way arrive.
      await page.waitForTimeout(1500);
      expect(await page.getByTestId('search').inputValue()).toBe('');
      expect(await page.locator('[data-testid="no-match"]').count()).toBe(0);
      expect(await page.evaluate(READ_ALL_ROWS)).toHaveLength(trials);
    } finally {
      await context.close();
    }
  }, 300_000);
  it('an index that names its files from its own folder opens every run from another place: served under another URL path, or a copy picked', async () => {
    const src = mkdtempSync(join(tmpdir(), 'tau-inspect-published-'));
    const { context, page } = await offlinePage(browser);
    try {
      mkdirSync(join(src, 'lib', 'runs'), { recursive: true });
      mkdirSync(join(src, 'lib', 'tau2'), { recursive: true });
      cpSync(join(SHARED_DIR, RETAIL_2), join(src, 'lib', 'runs', 'retail.json'));
      cpSync(join(TAU2_DIR, 'runs', 'sierra-research__pr170-e2e-telecom-baseline.json'), join(src, 'lib', 'tau2', 'telecom.json'));
      // Indexed from elsewhere, by absolute paths, into a folder of its own beside the runs.
      const made = await indexCli(
        tmpdir(),
        join(src, 'lib', 'runs'),
        join(src, 'lib', 'tau2'),
        '--data',
        DATA_DIR,
        '--data',
        join(TAU2_DIR, 'data'),
        '--jobs',
        '1',
        '-o',
        join(src, 'lib', 'index', 'runs.parquet'),
      );
      expect(made.code, made.err).toBe(0);
      const board = ['../runs/retail.json', '../tau2/telecom.json'];

      // Published under another path of a web server: every run opens from the index's URL.
      cpSync(join(src, 'lib'), join(server.outDir, 'published', 'team-a', 'library'), { recursive: true });
      await page.goto(`${server.url}#library=published/team-a/library/index/runs.parquet`);
      await page.waitForSelector('[data-testid="leader-row"]', { timeout: 60_000 });
      expect(await page.locator('[data-testid="leader-row"]').evaluateAll((rs) => rs.map((r) => r.getAttribute('data-file')).sort())).toEqual(board);
      for (const [file, name] of [
        [board[0]!, 'retail.json'],
        [board[1]!, 'telecom.json'],
      ] as const) {
        await page.locator(`[data-testid="leader-row"][data-file="${file}"]`).getByRole('button').first().click();
        await opened(page, name);
        // The fragment says where the page is: the library, and its run.
        expect(await page.evaluate(() => decodeURIComponent(location.hash))).toMatch(
          new RegExp(`^#library=.*published/team-a/library/index/runs\\.parquet.*&lib-run=${file.replace(/\./g, '\\.')}`),
        );
        if (name === 'telecom.json') {
          // So a reload (or the link sent to someone) opens the same run of the same library.
          await page.reload();
          await opened(page, name);
          expect(await page.getByTestId('library-crumb').textContent()).toContain(file);
        }
        await page.goBack();
        await page.waitForSelector('[data-testid="leader-row"]');
      }

      // A copy of the folder elsewhere, picked: the same runs open from it.
      const copy = join(src, 'elsewhere', 'shared-copy');
      cpSync(join(src, 'lib'), copy, { recursive: true });
      await page.setInputFiles('[data-testid="library-folder-input"]', copy);
      await page.waitForSelector('[data-testid="library-view"][data-loading="false"] [data-testid="leader-row"]', { timeout: 60_000 });
      await page.locator(`[data-testid="leader-row"][data-file="${board[1]}"]`).getByRole('button').first().click();
      await opened(page, 'telecom.json');
    } finally {
      await context.close();
      rmSync(src, { recursive: true, force: true });
    }
  }, 300_000);
});

suite('a library judged before τ² data was there (issue 33)', () => {
  let server: AppServer;
  let browser: Browser;
  let dir = '';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tau-inspect-library-nav-'));
    // No data on the server: each benchmark's comes from the folder picked for it.
    ({ server, browser } = await startAppAndBrowser(null, null));
    const few = join(dir, 'few');
    mkdirSync(join(few, 'tau2'), { recursive: true });
    cpSync(join(TAU2_DIR, 'runs', 'sierra-research__pr170-e2e-telecom-baseline.json'), join(few, 'tau2', 'telecom.json'));
    cpSync(join(SHARED_DIR, RETAIL_2), join(few, 'retail.json'));
  }, 400_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the τ² run that could not be judged is judged once the τ² data folder is picked, and the τ-bench data picked before is kept', async () => {
    const { context, page } = await offlinePage(browser);
    try {
      await page.goto(server.url);
      await page.waitForSelector(COMPLETE, { timeout: 60_000 });
      // Picked (or dropped) folders, each used for the benchmark whose data it holds.
      await page.setInputFiles('[data-testid="open-folder-input"]', DATA_DIR);
      await page.getByText(/τ-bench data: using the folder/).waitFor({ timeout: 30_000 });
      await page.setInputFiles('[data-testid="library-folder-input"]', join(dir, 'few'));
      await page.waitForSelector('[data-testid="library-view"][data-loading="false"] [data-testid="library-problems"]', { timeout: 120_000 });
      expect(await page.getByTestId('library-problems').textContent()).toMatch(/telecom\.json: no τ² telecom data/);
      expect(await page.locator('[data-testid="leader-row"]').evaluateAll((rs) => rs.map((r) => r.getAttribute('data-file')))).toEqual(['retail.json']);

      await page.setInputFiles('[data-testid="open-folder-input"]', join(TAU2_DIR, 'data'));
      // The toast names the τ² data; the library judges itself again, with the τ-bench data still there.
      await page.getByText(/τ²-bench data: using the folder/).waitFor({ timeout: 30_000 });
      await page.waitForSelector('[data-testid="library-view"][data-loading="false"] [data-testid="leader-row"][data-file="tau2/telecom.json"]', {
        timeout: 240_000,
      });
      expect(await page.locator('[data-testid="library-problems"]').count()).toBe(0);
      expect(await page.locator('[data-testid="leader-row"][data-file="retail.json"]').count()).toBe(1);

      // The Open menu offers each benchmark's data folder: a τ² one picked there is τ²'s (τ-bench's kept).
      // (The toast of the folder before is gone: an info toast leaves after 6 s.)
      await page.getByText(/τ²-bench data: using the folder/).waitFor({ state: 'detached', timeout: 30_000 });
      await page.getByRole('button', { name: 'Open', exact: true }).click();
      const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('open-tau2-data').click()]);
      await chooser.setFiles(join(TAU2_DIR, 'data'));
      await page.getByText(/τ²-bench data: using the folder/).waitFor({ timeout: 30_000 });
      // A τ-bench run opened now does not ask for τ-bench data again.
      await page.locator('[data-testid="leader-row"][data-file="retail.json"]').getByRole('button').first().click();
      await opened(page, 'retail.json');
      expect(await page.getByText('τ-bench retail data needed').count()).toBe(0);
    } finally {
      await context.close();
    }
  }, 400_000);
});
