/**
 * The library view in headless Chromium (printed, never asserted): a runs.parquet of 20,000 rows in the columns
 * `tau-inspect index` writes (160 synthetic runs of 125 episodes, τ-bench and τ² alike, built with DuckDB in a
 * temporary folder) chosen in the app → the leaderboard on screen (`library_first_view_ms`), the longest main-thread
 * task meanwhile, and the tasks × runs tab and task health tab drawn after a click (`library_heatmap_ms`,
 * `library_health_ms`).
 * Run alone: npm run -s bench -- --json library
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { Page } from 'playwright-core';
import { hasChromium, launchChromium, startApp } from '../../test/browser/harness';
import type { BenchResult, Log } from '../bench-types';

const KEYS = [
  'library_rows',
  'library_first_view_ms',
  'library_longest_task_ms',
  'library_heatmap_ms',
  'library_health_ms',
  'library_1e6_rows',
  'library_1e6_first_view_ms',
  'library_1e6_longest_task_ms',
  'library_1e6_load_longest_task_ms',
  'library_1e6_heatmap_longest_task_ms',
  'library_1e6_health_longest_task_ms',
] as const;
const ROWS = 20_000;
/** The big library (issue #35 class 8): 10^6 rows, 8,000 runs of 125 rows, the same columns and rewards. */
const BIG_ROWS = 1_000_000;

/** 20,000 rows: run r = row / 125, task = row % 25, trial = (row / 25) % 5; rewards from a fixed hash of the row. */
export async function writeParquet(path: string, rows = ROWS): Promise<void> {
  const c = await (await DuckDBInstance.create(':memory:')).connect();
  await c.run(`COPY (
    SELECT
      CASE WHEN (r // 125) % 2 = 0 THEN 'runs/run-' || (r // 125) || '.json' ELSE 'tau2/run-' || (r // 125) END AS file,
      (r % 125)::INTEGER AS "index",
      CASE WHEN (r // 125) % 2 = 0 THEN 'tau-bench' ELSE 'tau2' END AS benchmark,
      ['airline', 'retail', 'telecom', 'mock'][1 + (r // 250) % 4] AS domain,
      (r % 25)::VARCHAR AS task_id,
      ((r // 25) % 5)::INTEGER AS trial,
      CASE WHEN hash(r) % 3 = 0 THEN 0.0 ELSE 1.0 END AS recorded_reward,
      CASE WHEN hash(r) % 97 = 0 THEN NULL WHEN hash(r * 7) % 3 = 0 THEN 0.0 ELSE 1.0 END AS reward,
      (hash(r) % 3 = 0) = (hash(r * 7) % 3 = 0) AS matches_recorded_reward,
      md5((r // 125)::VARCHAR) AS content_hash,
      '14bf0ef' AS data_version,
      'rule' AS rule,
      'model-' || ((r // 125) % 7) AS model,
      NULL::VARCHAR AS user_model,
      CASE WHEN hash(r) % 5 = 0 THEN ['db'] ELSE []::VARCHAR[] END AS failed_components,
      'user_stop' AS termination,
      CASE WHEN r % 25 = 3 THEN ['no-op-reference'] ELSE []::VARCHAR[] END AS finding_kinds,
      (r % 40)::INTEGER AS steps,
      CASE WHEN hash(r) % 97 = 0 THEN 'boom' ELSE NULL END AS error
    FROM range(${rows}) t(r)
  ) TO '${path}' (FORMAT parquet)`);
  c.closeSync();
}

/**
 * Milliseconds from a click on `tab` to its panel holding `selector`, drawn (the next frame). Page scripts are
 * strings: tsx names the functions it compiles (`__name`), which the page does not have.
 */
const tabTime = (page: Page, tab: string, selector: string): Promise<number> =>
  page.evaluate(`new Promise((resolve) => {
    const t0 = performance.now();
    const check = () => (document.querySelector(${JSON.stringify(selector)}) ? requestAnimationFrame(() => resolve(performance.now() - t0)) : requestAnimationFrame(check));
    document.querySelector('[data-testid="library-tab-${tab}"]').click();
    check();
  })`);

/**
 * The big library: chosen in a fresh page, the leaderboard on screen, then tasks × runs (scrolled across and down)
 * and task health; the longest main-thread task over all of it.
 */
async function bigLibrary(browser: Awaited<ReturnType<typeof launchChromium>>, url: string, path: string): Promise<BenchResult> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  try {
    await page.goto(url);
    await page.waitForSelector('[data-testid="episode-table"]');
    await page.evaluate(PROBE);
    await page.setInputFiles('[data-testid="library-file-input"]', path);
    await page.waitForFunction(() => (window as unknown as { __lib: { shown: number | null } }).__lib.shown !== null, null, { timeout: 600_000 });
    const rows = Number(/^(\d+) episodes/.exec((await page.getByTestId('library-summary').textContent()) ?? '')?.[1] ?? NaN);
    await page.waitForTimeout(500);
    // The longest task of each phase (the longest of all is the key the issue names).
    const phase = async (): Promise<number> =>
      page.evaluate(
        '(() => { const l = window.__lib.longest; window.__lib.phase = Math.max(window.__lib.phase ?? 0, l); window.__lib.longest = 0; return l; })()',
      );
    const load = await phase();
    await tabTime(page, 'heatmap', '[data-testid="heat-cell"]');
    for (const [x, y] of [
      [4000, 0],
      [8000, 200],
      [0, 400],
    ] as const) {
      await page.evaluate(`(() => { const s = document.querySelector('[data-testid="heat-scroller"]'); if (s) s.scrollTo(${x}, ${y}); })()`);
      await page.waitForTimeout(300);
    }
    await page.evaluate('window.scrollTo(0, document.body.scrollHeight)');
    await page.waitForTimeout(300);
    const heat = await phase();
    await tabTime(page, 'health', '[data-testid="health-noPass"]');
    await tabTime(page, 'leaderboard', '[data-testid="leader-row"]');
    await page.waitForTimeout(500);
    const rest = await phase();
    const m = await page.evaluate<{ t0: number; shown: number }>('window.__lib');
    return {
      library_1e6_rows: rows,
      library_1e6_first_view_ms: Math.round(m.shown - m.t0),
      library_1e6_longest_task_ms: Math.round(Math.max(load, heat, rest)),
      library_1e6_load_longest_task_ms: Math.round(load),
      library_1e6_heatmap_longest_task_ms: Math.round(heat),
      library_1e6_health_longest_task_ms: Math.round(rest),
    };
  } finally {
    await page.close();
  }
}

/** Notes when the file is chosen (`t0`), when the leaderboard is drawn (`shown`) and the longest task between. */
const PROBE = `(() => {
  const w = window;
  w.__lib = { t0: null, shown: null, longest: 0 };
  document.querySelector('[data-testid="library-file-input"]').addEventListener('change', () => (w.__lib.t0 = performance.now()), { capture: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (w.__lib.t0 !== null) w.__lib.longest = Math.max(w.__lib.longest, e.duration);
  }).observe({ type: 'longtask', buffered: false });
  const check = () => {
    if (w.__lib.t0 !== null && document.querySelector('[data-testid="leader-row"]')) requestAnimationFrame(() => (w.__lib.shown ??= performance.now()));
    else requestAnimationFrame(check);
  };
  check();
})()`;

export async function runLibraryBench(log: Log): Promise<BenchResult> {
  if (!hasChromium) {
    log('library bench skipped: /usr/bin/chromium missing');
    return Object.fromEntries(KEYS.map((k) => [k, null]));
  }
  const dir = mkdtempSync(join(tmpdir(), 'library-bench-'));
  const path = join(dir, 'runs.parquet');
  const big = join(dir, 'big', 'runs.parquet');
  mkdirSync(join(dir, 'big'));
  const [server, browser] = await Promise.all([startApp(null), launchChromium(), writeParquet(path), writeParquet(big, BIG_ROWS)]);
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(server.url);
    await page.waitForSelector('[data-testid="episode-table"]');
    await page.evaluate(PROBE);
    await page.setInputFiles('[data-testid="library-file-input"]', path);
    await page.waitForFunction(() => (window as unknown as { __lib: { shown: number | null } }).__lib.shown !== null, null, { timeout: 120_000 });
    const m = await page.evaluate<{ t0: number; shown: number; longest: number }>('window.__lib');
    const rows = Number(/^(\d+) episodes/.exec((await page.getByTestId('library-summary').textContent()) ?? '')?.[1] ?? NaN);
    const heatmap = await tabTime(page, 'heatmap', '[data-testid="heat-cell"]');
    const health = await tabTime(page, 'health', '[data-testid="health-noPass"]');
    const out: BenchResult = {
      library_rows: rows,
      library_first_view_ms: Math.round(m.shown - m.t0),
      library_longest_task_ms: Math.round(m.longest),
      library_heatmap_ms: Math.round(heatmap),
      library_health_ms: Math.round(health),
      ...(await bigLibrary(browser, server.url, big)),
    };
    log(
      `library: ${rows} rows of runs.parquet → leaderboard ${out.library_first_view_ms} ms (longest task ${out.library_longest_task_ms} ms); tasks × runs ${out.library_heatmap_ms} ms, task health ${out.library_health_ms} ms`,
    );
    log(
      `library: ${out.library_1e6_rows} rows → leaderboard ${out.library_1e6_first_view_ms} ms; longest main-thread task through leaderboard, tasks × runs (scrolled) and task health: ${out.library_1e6_longest_task_ms} ms`,
    );
    return out;
  } finally {
    await browser.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
