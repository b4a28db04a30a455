/**
 * Size (issue 9): a generated ~100 MB / 5,000-episode results file and its half (~50 MB / 2,500)
 * opened in the built app in headless Chromium with the data already in the browser, and one
 * episode with a 10, 25 and 50 MB message through the CLI. Prints numbers, asserts nothing; the
 * half and full rows side by side show whether time and memory grow linearly.
 * Run alone: npm run -s bench -- --json big   (or npx tsx bench/big-bench.ts)
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, CDPSession } from 'playwright-core';
import { cliBundle } from '../test/support/cli-bundle';
import { DATA_DIR, hasShared, SHARED_DIR } from '../test/support/shared';
import { hasChromium, launchChromium, startApp } from '../test/browser/harness';
import type { BenchOptions, BenchResult, Log } from './bench-types';
import { benchDir, writeBigRun, writeLongMessage } from './big-files';
import { probeLoad } from './browser/load-probe';

const ROOT = resolve(import.meta.dirname, '..');
const FULL = 5000;
const HALF = 2500;
const MESSAGE_MB = [10, 25, 50] as const;
/** An argument Chromium ignores, to find its processes. */
const MARKER = `--tau-inspect-big-bench=${process.pid}`;

/** Scrolls the episode list from top to bottom and back in screen-sized jumps, one per frame. */
async function scrollList(): Promise<number> {
  const el = document.querySelector<HTMLElement>('[data-testid="episode-scroller"]');
  if (!el) return 0;
  const frame = (): Promise<void> => new Promise((ok) => requestAnimationFrame(() => ok()));
  let moves = 0;
  const step = Math.max(200, el.clientHeight);
  for (let y = 0; y < el.scrollHeight; y += step, moves++) {
    el.scrollTop = y;
    await frame();
  }
  for (let y = el.scrollHeight; y > 0; y -= step * 7, moves++) {
    el.scrollTop = y;
    await frame();
  }
  return moves;
}

/**
 * Resident memory (VmRSS now, VmHWM at its peak) of the renderer processes of the Chromium started
 * with `marker` (the page and its worker live in one), the largest, in bytes (Linux /proc); with
 * `browser`, of the browser process itself (where Blobs are kept).
 */
function rendererBytes(marker: string, field: 'VmRSS' | 'VmHWM', which: 'renderer' | 'browser' = 'renderer'): number | null {
  const procs = new Map<number, { ppid: number; cmd: string }>();
  for (const p of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      procs.set(Number(p), { ppid: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]), cmd: readFileSync(`/proc/${p}/cmdline`, 'utf8') });
    } catch {
      // the process ended meanwhile
    }
  }
  const root = [...procs].find(([, v]) => v.cmd.includes(marker) && !v.cmd.includes('--type='))?.[0];
  if (root === undefined) return null;
  if (which === 'browser') {
    try {
      const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${root}/status`, 'utf8'));
      return m ? Number(m[1]) * 1024 : null;
    } catch {
      return null;
    }
  }
  const under = (pid: number): boolean => {
    for (let p = procs.get(pid)?.ppid, k = 0; p !== undefined && p > 1 && k < 10; p = procs.get(p)?.ppid, k++) if (p === root) return true;
    return false;
  };
  let peak: number | null = null;
  for (const [pid, v] of procs) {
    if (!v.cmd.includes('--type=renderer') || !under(pid)) continue;
    try {
      const hwm = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (hwm) peak = Math.max(peak ?? 0, Number(hwm[1]) * 1024);
    } catch {
      // the process ended meanwhile
    }
  }
  return peak;
}

/** The JS heap in use (after a collection) of each worker of the page, through the page's CDP session. */
async function workerHeaps(cdp: CDPSession): Promise<number[]> {
  const sessions: string[] = [];
  const replies = new Map<string, (v: unknown) => void>();
  cdp.on('Target.attachedToTarget', (e) => {
    if (e.targetInfo.type === 'worker') sessions.push(e.sessionId);
  });
  cdp.on('Target.receivedMessageFromTarget', (e) => {
    const m = JSON.parse(e.message) as { id?: number; result?: unknown };
    replies.get(`${e.sessionId}/${m.id}`)?.(m.result ?? null);
  });
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  await new Promise((ok) => setTimeout(ok, 500));
  let id = 0;
  const call = (sessionId: string, method: string): Promise<unknown> =>
    new Promise((ok) => {
      const k = ++id;
      replies.set(`${sessionId}/${k}`, ok);
      cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: k, method }) }).catch(() => ok(null));
      setTimeout(() => ok(null), 30_000);
    });
  const heaps: number[] = [];
  for (const s of sessions) {
    await call(s, 'HeapProfiler.collectGarbage');
    const r = (await call(s, 'Runtime.getHeapUsage')) as { usedSize?: number } | null;
    if (typeof r?.usedSize === 'number') heaps.push(r.usedSize);
  }
  return heaps;
}

interface AppRow {
  bytes: number;
  opened: number | null;
  first: number | null;
  all: number | null;
  /** Every row's fingerprint in (the key of its notes, computed after the verdicts), after the file was chosen. */
  keyed: number | null;
  longestLoad: number;
  /** Long tasks (≥ 50 ms) while loading: how many, when the longest began (after the file was chosen), how many over 200 ms. */
  longTasks: { count: number; worstAt: number | null; over200: number };
  longestScroll: number;
  heap: number | null;
  pageHeap: number | null;
  workerHeap: number | null;
  renderer: number | null;
  rendererPeak: number | null;
  /** The browser process's resident memory before the file was chosen and after all verdicts. */
  browserBefore: number | null;
  browserAfter: number | null;
  /** A search over every episode: typed query → episode count shown, for a common word and for one found nowhere. */
  searchCommon: number | null;
  searchNone: number | null;
  /** An episode opened (click → its verdict shown) while a search runs through every episode. */
  openDuringSearch: number | null;
  /** The Report button: click → download, its size, and an episode opened meanwhile (click → verdict). */
  reportMs: number | null;
  reportBytes: number | null;
  openDuringReport: number | null;
  /** The renderer's peak resident memory once the report was built too. */
  rendererPeakWithReport: number | null;
  /** Threads that judged the run at once (the list's `data-threads`: 2 with the judge helper). */
  threads: number | null;
}

/** Clicks Report and, while the worker builds it, opens another episode: both timed. */
async function timeReport(
  page: import('playwright-core').Page,
): Promise<{ reportMs: number | null; reportBytes: number | null; openDuringReport: number | null }> {
  const t0 = Date.now();
  const download = page.waitForEvent('download', { timeout: 600_000 });
  await page.locator('[data-testid="report-button"]').first().click();
  const row = page.locator('[data-testid="episode-row"]').nth(4);
  const index = await row.getAttribute('data-index');
  const t1 = Date.now();
  await row.click();
  const opened = await page
    .waitForSelector(`[data-testid="episode-screen"][data-episode="${index}"] [data-testid="verdict-reward"]`, { timeout: 600_000 })
    .then(
      () => Date.now() - t1,
      () => null,
    );
  const d = await download.catch(() => null);
  const reportMs = d ? Date.now() - t0 : null;
  const path = d ? await d.path().catch(() => null) : null;
  const reportBytes = path ? statSync(path).size : null;
  return { reportMs, reportBytes, openDuringReport: opened };
}

/** Starts a search through every episode and at once opens an episode: milliseconds until its verdict shows. */
async function openWhileSearching(page: import('playwright-core').Page): Promise<number | null> {
  const box = '[data-testid="search"]';
  await page.fill(box, 'refund');
  await page.press(box, 'Enter');
  const t0 = Date.now();
  await page.locator('[data-testid="episode-row"]').nth(2).click();
  const shown = await page.waitForSelector('[data-testid="verdict-reward"]', { timeout: 120_000 }).then(
    () => true,
    () => false,
  );
  return shown ? Date.now() - t0 : null;
}

/** Types `q` in the search box and waits for the episode count: milliseconds. */
async function timeSearch(page: import('playwright-core').Page, q: string): Promise<number | null> {
  const box = '[data-testid="search"]';
  const counted = (): boolean => {
    const span = document.querySelector('[data-testid="search"]')?.parentElement?.querySelector('span');
    return span !== null && span !== undefined && /^\d+ episodes?$/.test(span.textContent ?? '');
  };
  await page.fill(box, '');
  await page.press(box, 'Enter');
  await page.waitForFunction(() => !document.querySelector('[data-testid="search"]')?.parentElement?.querySelector('span'));
  await page.fill(box, q);
  const t0 = Date.now();
  await page.press(box, 'Enter');
  await page.waitForFunction(counted, undefined, { timeout: 120_000, polling: 20 }).catch(() => null);
  const t = Date.now() - t0;
  await page.fill(box, '');
  await page.press(box, 'Enter');
  return t;
}

/** Warm-up: the data files, the parsed DB and its hashes end up in this browser context (IndexedDB). */
async function warmUp(context: BrowserContext, linked: string): Promise<void> {
  const warm = await context.newPage();
  await warm.goto(linked);
  await warm.waitForSelector('[data-testid="episode-row"]');
  await warm.setInputFiles('[data-testid="open-file-input"]', join(SHARED_DIR, 'runs', 'gpt-4o-airline.json'));
  await warm.waitForSelector('[data-testid="episode-table"][data-total="200"][data-complete="true"]', { timeout: 300_000 });
  await warm.waitForTimeout(1000);
  await warm.close();
}

/** One file opened in a fresh page (its own renderer process) of the warmed-up context. */
async function measureApp(context: BrowserContext, linked: string, file: string, n: number, bytes: number): Promise<AppRow> {
  const page = await context.newPage();
  try {
    await page.goto(linked);
    await page.waitForSelector('[data-testid="episode-table"][data-complete="true"]');
    await page.evaluate(probeLoad, n);
    const browserBefore = rendererBytes(MARKER, 'VmRSS', 'browser');
    await page.setInputFiles('[data-testid="open-file-input"]', file);
    await page.waitForFunction(() => window.__load.all !== null, undefined, { timeout: 900_000, polling: 500 });
    // The fingerprints follow the verdicts: memory and searches are measured once they are in (as they were before they came later).
    await page.waitForFunction(() => window.__load.keyed !== null, undefined, { timeout: 120_000, polling: 100 }).catch(() => null);
    await page.waitForTimeout(500);
    const b = await page.evaluate(() => window.__load);
    const threads = Number(await page.getAttribute('[data-testid="episode-table"]', 'data-threads')) || null;
    const t0 = b.t0 ?? 0;
    const during = b.longtasks.filter((t) => t.start >= t0 && b.all !== null && t.start <= b.all);
    const longestLoad = during.reduce((m, t) => Math.max(m, t.duration), 0);
    const worst = during.find((t) => t.duration === longestLoad);
    const longTasks = { count: during.length, worstAt: worst ? worst.start - t0 : null, over200: during.filter((t) => t.duration > 200).length };
    const cdp = await context.newCDPSession(page);
    await cdp.send('HeapProfiler.collectGarbage').catch(() => undefined);
    await cdp.send('Performance.enable');
    const metrics = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
    const pageHeap = metrics.metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? null;
    const workers = await workerHeaps(cdp).catch(() => []);
    const workerHeap = workers.length ? workers.reduce((a, x) => a + x, 0) : null;
    const heap = pageHeap === null ? null : pageHeap + (workerHeap ?? 0);
    const renderer = rendererBytes(MARKER, 'VmRSS');
    const browserAfter = rendererBytes(MARKER, 'VmRSS', 'browser');
    const searchCommon = await timeSearch(page, 'refund');
    const searchNone = await timeSearch(page, 'qzxv nowhere');

    const before = await page.evaluate(() => window.__load.longtasks.length);
    await page.evaluate(scrollList);
    await page.waitForTimeout(300);
    const scrollTasks = await page.evaluate((k) => window.__load.longtasks.slice(k), before);
    const longestScroll = scrollTasks.reduce((m, t) => Math.max(m, t.duration), 0);
    const rendererPeak = rendererBytes(MARKER, 'VmHWM');
    const openDuringSearch = await openWhileSearching(page);
    const report = await timeReport(page);
    const rendererPeakWithReport = rendererBytes(MARKER, 'VmHWM');
    const rel = (x: number | null): number | null => (x === null ? null : x - t0);
    return {
      bytes,
      opened: rel(b.opened),
      first: rel(b.first),
      all: rel(b.all),
      keyed: rel(b.keyed),
      longestLoad,
      longTasks,
      longestScroll,
      heap,
      pageHeap,
      workerHeap,
      renderer,
      rendererPeak,
      browserBefore,
      browserAfter,
      searchCommon,
      searchNone,
      openDuringSearch,
      ...report,
      rendererPeakWithReport,
      threads,
    };
  } finally {
    await page.close();
  }
}

/**
 * One CLI `evaluate --json` run under /usr/bin/time: wall time, when its first line came (it prints each
 * episode's line as soon as it is judged, while the file is read), and peak RSS of the child.
 */
async function timeCli(
  cli: string,
  file: string,
  data = join(ROOT, 'sample-runs', 'data'),
): Promise<{ ms: number; firstLineMs: number | null; peakBytes: number | null; ok: boolean }> {
  const args = [cli, 'evaluate', file, '--data', data, '--json'];
  const timed = existsSync('/usr/bin/time');
  const t0 = performance.now();
  const child = timed ? spawn('/usr/bin/time', ['-f', 'maxrss_kb=%M', process.execPath, ...args]) : spawn(process.execPath, args);
  let firstLineMs: number | null = null;
  let err = '';
  child.stdout.on('data', (d: Buffer) => {
    if (firstLineMs === null && d.includes(10)) firstLineMs = performance.now() - t0;
  });
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const code = await new Promise<number | null>((ok) => child.on('close', ok));
  const ms = performance.now() - t0;
  const rss = /maxrss_kb=(\d+)/.exec(err);
  return { ms, firstLineMs, peakBytes: rss ? Number(rss[1]) * 1024 : null, ok: code === 0 };
}

const MB = 1024 * 1024;
const r1 = (x: number | null): number | null => (x === null ? null : Number(x.toFixed(1)));
const ms = (x: number | null): string => (x === null ? 'n/a' : `${x.toFixed(0)} ms`);
const mb = (x: number | null): string => (x === null ? 'n/a' : `${(x / MB).toFixed(0)} MB`);

const APP_KEYS = [
  'big_file_runs',
  'big_file_load_ms',
  'big_file_load_ms_min',
  'big_file_load_ms_max',
  'big_file_all_verdicts_ms',
  'big_file_all_verdicts_ms_min',
  'big_file_all_verdicts_ms_max',
  'big_file_keys_after_verdicts_ms',
  'big_file_keys_after_verdicts_ms_max',
  'big_file_threads',
  'big_file_longest_task_ms',
  'big_file_scroll_longest_task_ms',
  'big_file_heap_mb',
  'big_file_worker_heap_mb',
  'big_file_renderer_mb',
  'big_file_renderer_peak_mb',
  'big_file_browser_process_growth_mb',
  'big_file_search_ms',
  'big_file_search_nowhere_ms',
  'big_file_open_during_search_ms',
  'big_file_report_ms',
  'big_file_report_mb',
  'big_file_open_during_report_ms',
  'big_file_renderer_peak_with_report_mb',
] as const;

/** The median of some numbers (the mean of the middle two for an even count). */
function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export async function runBigBench(log: Log, options: BenchOptions = { repeat: 1 }): Promise<BenchResult> {
  const dir = benchDir();
  const result: BenchResult = {};
  try {
    // The CLI on one episode with a long message.
    // The CLI as `npm run build:cli` makes it (the specs' bundle: one build per process here).
    const cli = await cliBundle();
    const sample = join(ROOT, 'sample-runs', 'runs', 'retail-sample.json');
    log(
      `\nbig bench: the CLI on one episode whose last agent message is ${MESSAGE_MB.join(', ')} MB (machine load ${loadavg()[0]!.toFixed(1)} on ${cpus().length} CPUs)`,
    );
    const rows: { mb: number; ms: number; peak: number | null }[] = [];
    for (const size of MESSAGE_MB) {
      const file = join(dir, `long-message-${size}mb.json`);
      writeLongMessage(sample, size, file);
      const t = await timeCli(cli, file);
      rows.push({ mb: size, ms: t.ms, peak: t.peakBytes });
      log(
        `  ${String(size).padStart(3)} MB message: ${ms(t.ms)} (${(t.ms / size).toFixed(0)} ms/MB), peak RSS ${mb(t.peakBytes)}${t.ok ? '' : '  (the CLI FAILED)'}`,
      );
      rmSync(file);
    }
    const largest = rows.at(-1)!;
    result.long_message_cli_ms_per_mb = r1(largest.ms / largest.mb);
    result.long_message_cli_peak_mb = largest.peak === null ? null : r1(largest.peak / MB);
    for (const r of rows) result[`long_message_cli_peak_mb_${r.mb}`] = r.peak === null ? null : r1(r.peak / MB);
    log(`  goal: the 50 MB message under 1 GB peak; time and peak grow linearly with the message`);

    // The app on the big file and its half.
    if (!hasChromium || !hasShared) {
      log(`big bench (app) skipped: ${hasChromium ? '' : '/usr/bin/chromium missing '}${hasShared ? '' : '../shared missing'}`);
      return { ...result, ...Object.fromEntries(APP_KEYS.map((k) => [k, null])) };
    }
    const source = join(SHARED_DIR, 'runs', 'gpt-4o-airline.json');
    const files = [HALF, FULL].map((n) => {
      const file = join(dir, `big-${n}.json`);
      return { n, file, bytes: writeBigRun(source, n, file).bytes };
    });
    const [server, browser] = await Promise.all([startApp(DATA_DIR), launchChromium([MARKER])]);
    const app: (AppRow & { n: number })[] = [];
    try {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      await context.addInitScript('globalThis.__name ??= (f) => f;');
      const linked = `${server.url}#data=${encodeURIComponent(`${server.url}tau-bench-data`)}`;
      await warmUp(context, linked);
      // The half file once, the full file `repeat` times (its figures are the median run's; load and all verdicts also as median, smallest, largest).
      for (const f of files)
        for (let k = 0; k < (f.n === FULL ? options.repeat : 1); k++) {
          app.push({ n: f.n, ...(await measureApp(context, linked, f.file, f.n, f.bytes)) });
          await new Promise((ok) => setTimeout(ok, 1000));
        }
      await context.close();
    } finally {
      await browser.close();
      await server.close();
    }
    log(
      `\nbig bench: gpt-4o-airline.json's episodes repeated with varied text, in headless Chromium, data cached in the browser (machine load ${loadavg()[0]!.toFixed(1)} on ${cpus().length} CPUs)`,
    );
    log(
      `  ${'episodes'.padEnd(10)}${'file'.padEnd(10)}${'opened'.padEnd(11)}${'1st verdict'.padEnd(13)}${'all verdicts'.padEnd(14)}${'longest task'.padEnd(14)}${'scrolling'.padEnd(12)}${'JS heap (page + worker)'.padEnd(25)}${'renderer'.padEnd(10)}renderer peak (RSS, with the worker)`,
    );
    for (const a of app)
      log(
        `  ${String(a.n).padEnd(10)}${mb(a.bytes).padEnd(10)}${ms(a.opened).padEnd(11)}${ms(a.first).padEnd(13)}${ms(a.all).padEnd(14)}${ms(a.longestLoad).padEnd(14)}${ms(a.longestScroll).padEnd(12)}${`${mb(a.heap)} (${mb(a.pageHeap)} + ${mb(a.workerHeap)})`.padEnd(25)}${mb(a.renderer).padEnd(10)}${mb(a.rendererPeak)}`,
      );
    for (const a of app)
      log(
        `  ${a.n} episodes: browser process ${mb(a.browserBefore)} → ${mb(a.browserAfter)}; search "refund" ${ms(a.searchCommon)}, a query found nowhere ${ms(a.searchNone)}; an episode opened during a search ${ms(a.openDuringSearch)}; report ${mb(a.reportBytes)} in ${ms(a.reportMs)}, an episode opened meanwhile ${ms(a.openDuringReport)}, renderer peak after ${mb(a.rendererPeakWithReport)}`,
      );
    for (const a of app)
      log(
        `  ${a.n} episodes: ${a.longTasks.count} long tasks (≥ 50 ms) while loading, ${a.longTasks.over200} over 200 ms, the longest beginning ${ms(a.longTasks.worstAt)} after the file was chosen; judged on ${a.threads ?? '?'} thread(s)`,
      );
    log('  goal: no main-thread task > 200 ms while loading or scrolling; time and memory of the full file about twice the half');
    log('  (long tasks are wall time: on a machine busy with other work they stretch with the load)');
    const fulls = app.filter((a) => a.n === FULL);
    // The full file's run whose all-verdicts time is the median (the lower middle one for an even count; a run that never finished counts as slowest).
    const full = [...fulls].sort((a, b) => (a.all ?? Infinity) - (b.all ?? Infinity))[(fulls.length - 1) >> 1]!;
    const half = app.find((a) => a.n === HALF)!;
    const spread = (pick: (a: AppRow) => number | null): { median: number | null; min: number | null; max: number | null } => {
      const xs = fulls.map(pick);
      if (xs.some((x) => x === null)) return { median: null, min: null, max: null };
      const ns = xs as number[];
      return { median: median(ns), min: Math.min(...ns), max: Math.max(...ns) };
    };
    const firsts = spread((a) => a.first);
    const alls = spread((a) => a.all);
    const keysAfter = spread((a) => (a.keyed === null || a.all === null ? null : Math.max(0, a.keyed - a.all)));
    if (fulls.length > 1)
      log(
        `  ${FULL} episodes, ${fulls.length} runs: 1st verdict median ${ms(firsts.median)} (${ms(firsts.min)}–${ms(firsts.max)}), all verdicts median ${ms(alls.median)} (${ms(alls.min)}–${ms(alls.max)}), longest task ${ms(Math.max(...fulls.map((a) => a.longestLoad)))} at most`,
      );
    log(`  ${FULL} episodes: every row's fingerprint in ${ms(keysAfter.median)} after the last verdict (median; ${ms(keysAfter.min)}–${ms(keysAfter.max)})`);
    // The CLI on the same two files (every report printed as a JSON line).
    log(`\nbig bench: the CLI on the same files, evaluate --json (machine load ${loadavg()[0]!.toFixed(1)} on ${cpus().length} CPUs)`);
    const cliRows = [];
    for (const f of files) cliRows.push({ n: f.n, bytes: f.bytes, ...(await timeCli(cli, f.file, DATA_DIR)) });
    for (const c of cliRows)
      log(
        `  ${String(c.n).padEnd(6)} episodes, ${mb(c.bytes)}: first line ${ms(c.firstLineMs)}, all ${ms(c.ms)}, peak RSS ${mb(c.peakBytes)}${c.ok ? '' : '  (the CLI FAILED)'}`,
      );
    log('  goal: the first line long before the file is read to its end (each line is printed as soon as its episode is judged)');
    const [cliHalf, cliFull] = cliRows;
    return {
      ...result,
      big_file_cli_ms: r1(cliFull!.ms),
      big_file_cli_first_line_ms: r1(cliFull!.firstLineMs),
      half_file_cli_first_line_ms: r1(cliHalf!.firstLineMs),
      big_file_cli_peak_mb: cliFull!.peakBytes === null ? null : r1(cliFull!.peakBytes / MB),
      half_file_cli_ms: r1(cliHalf!.ms),
      half_file_cli_peak_mb: cliHalf!.peakBytes === null ? null : r1(cliHalf!.peakBytes / MB),
      big_file_runs: fulls.length,
      big_file_load_ms: r1(firsts.median),
      big_file_load_ms_min: r1(firsts.min),
      big_file_load_ms_max: r1(firsts.max),
      big_file_all_verdicts_ms: r1(alls.median),
      big_file_all_verdicts_ms_min: r1(alls.min),
      big_file_all_verdicts_ms_max: r1(alls.max),
      big_file_keys_after_verdicts_ms: r1(keysAfter.median),
      big_file_keys_after_verdicts_ms_max: r1(keysAfter.max),
      big_file_threads: full.threads,
      big_file_longest_task_ms: r1(Math.max(half.longestLoad, ...fulls.map((a) => a.longestLoad))),
      big_file_scroll_longest_task_ms: r1(Math.max(full.longestScroll, half.longestScroll)),
      big_file_heap_mb: full.heap === null ? null : r1(full.heap / MB),
      big_file_worker_heap_mb: full.workerHeap === null ? null : r1(full.workerHeap / MB),
      big_file_renderer_mb: full.renderer === null ? null : r1(full.renderer / MB),
      big_file_renderer_peak_mb: full.rendererPeak === null ? null : r1(full.rendererPeak / MB),
      big_file_browser_process_growth_mb: full.browserBefore === null || full.browserAfter === null ? null : r1((full.browserAfter - full.browserBefore) / MB),
      big_file_search_ms: r1(full.searchCommon),
      big_file_search_nowhere_ms: r1(full.searchNone),
      big_file_open_during_search_ms: r1(full.openDuringSearch),
      big_file_report_ms: r1(full.reportMs),
      big_file_report_mb: full.reportBytes === null ? null : r1(full.reportBytes / MB),
      big_file_open_during_report_ms: r1(full.openDuringReport),
      big_file_renderer_peak_with_report_mb: full.rendererPeakWithReport === null ? null : r1(full.rendererPeakWithReport / MB),
      half_file_search_ms: r1(half.searchCommon),
      half_file_load_ms: r1(half.first),
      half_file_all_verdicts_ms: r1(half.all),
      half_file_heap_mb: half.heap === null ? null : r1(half.heap / MB),
      half_file_worker_heap_mb: half.workerHeap === null ? null : r1(half.workerHeap / MB),
      half_file_renderer_mb: half.renderer === null ? null : r1(half.renderer / MB),
      half_file_renderer_peak_mb: half.rendererPeak === null ? null : r1(half.rendererPeak / MB),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runBigBench(console.log);
