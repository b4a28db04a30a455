/**
 * A library folder without an index, judged in the built app (issue #36's rows): the 24 τ² runs of ../shared/tau2/runs
 * (`library_folder_tau2_ms`) and the 12 τ-bench runs of ../shared/runs (`library_folder_v1_ms`), each from the folder
 * chosen to its leaderboard on screen with every run judged, the data served by the dev server as `TAU_BENCH_DATA` /
 * `TAU2_DATA` would be. `--repeat=N` rounds alternate the two; medians with min and max, the load beside them, and how
 * many cores the page reports (`library_folder_cores`: the library judges the worker starts).
 * Run alone: npm run -s bench -- --json --repeat=3 library-folder
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { hasChromium, launchChromium, startApp } from '../../test/browser/harness';
import { DATA_DIR, SHARED_DIR, TAU2_DIR } from '../../test/support/shared';
import type { BenchOptions, BenchResult, Log } from '../bench-types';

const FOLDERS = [
  { key: 'library_folder_tau2', path: join(TAU2_DIR, 'runs') },
  { key: 'library_folder_v1', path: join(SHARED_DIR, 'runs') },
] as const;

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1]!;

/** Milliseconds from the folder chosen to its judged leaderboard drawn, and the rows (episodes) it holds. */
async function judgeFolder(browser: Browser, url: string, folder: string): Promise<{ ms: number; rows: number; cores: number }> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  try {
    await page.goto(url);
    await page.waitForSelector('[data-testid="episode-table"]');
    await page.evaluate(`(() => {
      const w = window;
      w.__folder = { t0: null, shown: null };
      document.querySelector('[data-testid="library-folder-input"]').addEventListener('change', () => (w.__folder.t0 = performance.now()), { capture: true });
      const done = '[data-testid="library-view"][data-loading="false"] [data-testid="leader-row"]';
      const check = () => (w.__folder.t0 !== null && document.querySelector(done) ? requestAnimationFrame(() => (w.__folder.shown = performance.now())) : requestAnimationFrame(check));
      check();
    })()`);
    await page.setInputFiles('[data-testid="library-folder-input"]', folder);
    await page.waitForFunction(() => (window as unknown as { __folder: { shown: number | null } }).__folder.shown !== null, null, { timeout: 600_000 });
    const m = await page.evaluate<{ t0: number; shown: number }>('window.__folder');
    const rows = Number(/^(\d+) episodes/.exec((await page.getByTestId('library-summary').textContent()) ?? '')?.[1] ?? NaN);
    return { ms: m.shown - m.t0, rows, cores: await page.evaluate<number>('navigator.hardwareConcurrency') };
  } finally {
    await page.close();
  }
}

export async function runLibraryFolderBench(log: Log, options: BenchOptions = { repeat: 1 }): Promise<BenchResult> {
  if (!hasChromium) {
    log('library-folder bench skipped: /usr/bin/chromium missing');
    return Object.fromEntries(FOLDERS.map((f) => [`${f.key}_ms`, null]));
  }
  const [server, browser] = await Promise.all([startApp(DATA_DIR, join(TAU2_DIR, 'data')), launchChromium()]);
  try {
    const times: Record<string, number[]> = {};
    const out: BenchResult = {};
    const loads: number[] = [];
    for (let round = 0; round < options.repeat; round++) {
      loads.push(loadavg()[0]!);
      for (const f of FOLDERS) {
        const r = await judgeFolder(browser, server.url, f.path);
        (times[f.key] ??= []).push(r.ms);
        out[`${f.key}_rows`] = r.rows;
        out.library_folder_cores = r.cores;
        log(`library-folder round ${round + 1}: ${f.key} ${r.rows} rows in ${r.ms.toFixed(0)} ms (load ${loadavg()[0]!.toFixed(2)})`);
      }
    }
    for (const [k, xs] of Object.entries(times)) {
      out[`${k}_ms`] = Math.round(median(xs));
      if (xs.length > 1) {
        out[`${k}_ms_min`] = Math.round(Math.min(...xs));
        out[`${k}_ms_max`] = Math.round(Math.max(...xs));
      }
    }
    out.library_folder_load_avg_1m = Number(median(loads).toFixed(2));
    return out;
  } finally {
    await browser.close();
    await server.close();
  }
}
