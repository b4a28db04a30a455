/**
 * A library folder without an index, judged in the built app (issue #36's rows): the 24 τ² runs of ../shared/tau2/runs
 * (`library_folder_tau2_ms`) and the 12 τ-bench runs of ../shared/runs (`library_folder_v1_ms`), each from the folder
 * chosen to its leaderboard on screen with every run judged, the data served by the dev server as `TAU_BENCH_DATA` /
 * `TAU2_DATA` would be, with the CPU time Chromium and the app server spent meanwhile (`_cpu_ms`, from /proc: what a busy
 * machine does not stretch). `--repeat=N` rounds alternate the two; medians with min and max, the load beside them, and
 * how many cores the page reports (`library_folder_cores`: the library judges the worker starts).
 * Run alone: npm run -s bench -- --json --repeat=3 library-folder
 */
import { readdirSync, readFileSync } from 'node:fs';
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

/**
 * CPU time (user + system, ms) of every process below this one (Chromium's browser, renderer and GPU processes — the
 * page, the evaluator worker and its library judges are threads of the renderer — and the app server), from /proc;
 * null where there is none. A busy machine stretches wall time, not this.
 */
function childrenCpuMs(): number | null {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return null;
  }
  const stats = new Map<number, { ppid: number; ticks: number }>();
  for (const e of entries) {
    try {
      // Fields after the command (which may hold spaces) in parentheses: state, ppid, …, utime (14th), stime (15th).
      const text = readFileSync(`/proc/${e}/stat`, 'utf8');
      const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
      stats.set(Number(e), { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) });
    } catch {
      /* gone meanwhile */
    }
  }
  let ticks = 0;
  for (const st of stats.values()) {
    for (let p = st.ppid, hops = 0; p > 1 && hops < 32; p = stats.get(p)?.ppid ?? 0, hops++)
      if (p === process.pid) {
        ticks += st.ticks;
        break;
      }
  }
  // Clock ticks are 1/100 s on Linux.
  return ticks * 10;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1]!;

/** Milliseconds from the folder chosen to its judged leaderboard drawn, and the rows (episodes) it holds. */
async function judgeFolder(browser: Browser, url: string, folder: string): Promise<{ ms: number; cpuMs: number | null; rows: number; cores: number }> {
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
    const cpu0 = childrenCpuMs();
    await page.setInputFiles('[data-testid="library-folder-input"]', folder);
    await page.waitForFunction(() => (window as unknown as { __folder: { shown: number | null } }).__folder.shown !== null, null, { timeout: 600_000 });
    const cpu1 = childrenCpuMs();
    const m = await page.evaluate<{ t0: number; shown: number }>('window.__folder');
    const rows = Number(/^(\d+) episodes/.exec((await page.getByTestId('library-summary').textContent()) ?? '')?.[1] ?? NaN);
    return {
      ms: m.shown - m.t0,
      cpuMs: cpu0 === null || cpu1 === null ? null : cpu1 - cpu0,
      rows,
      cores: await page.evaluate<number>('navigator.hardwareConcurrency'),
    };
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
        (times[`${f.key}_ms`] ??= []).push(r.ms);
        if (r.cpuMs !== null) (times[`${f.key}_cpu_ms`] ??= []).push(r.cpuMs);
        out[`${f.key}_rows`] = r.rows;
        out.library_folder_cores = r.cores;
        log(
          `library-folder round ${round + 1}: ${f.key} ${r.rows} rows in ${r.ms.toFixed(0)} ms, CPU ${r.cpuMs ?? 'n/a'} ms (load ${loadavg()[0]!.toFixed(2)})`,
        );
      }
    }
    for (const [k, xs] of Object.entries(times)) {
      out[k] = Math.round(median(xs));
      if (xs.length > 1) {
        out[`${k}_min`] = Math.round(Math.min(...xs));
        out[`${k}_max`] = Math.round(Math.max(...xs));
      }
    }
    out.library_folder_load_avg_1m = Number(median(loads).toFixed(2));
    return out;
  } finally {
    await browser.close();
    await server.close();
  }
}
