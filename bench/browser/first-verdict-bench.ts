/**
 * Issue #36's app first verdict (printed, never asserted): gpt-4o-airline.json (200 episodes) chosen in the built app
 * with its data kept in this browser (the data files and the parsed DB with its hashes, from a warm-up visit), file
 * chosen → first verdict on screen, in five fresh pages a round (`first_verdict_kept_ms`: the median of every open, with
 * `_min` and `_max`; the load beside it). Lighter than the `app` bench, whose `first_verdict_ms` is one open.
 * Run alone: npm run -s bench -- --json --repeat=3 first-verdict
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { COMPLETE, hasChromium, launchChromium, startApp } from '../../test/browser/harness';
import { DATA_DIR, hasShared, SHARED_DIR } from '../../test/support/shared';
import type { BenchOptions, BenchResult, Log } from '../bench-types';
import { probeLoad } from './load-probe';

const OPENS = 5;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1]!;

export async function runFirstVerdictBench(log: Log, options: BenchOptions = { repeat: 1 }): Promise<BenchResult> {
  if (!hasChromium || !hasShared) {
    log(`first-verdict bench skipped: ${hasChromium ? '' : '/usr/bin/chromium missing '}${hasShared ? '' : '../shared missing'}`);
    return { first_verdict_kept_ms: null };
  }
  const [server, browser] = await Promise.all([startApp(DATA_DIR), launchChromium()]);
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addInitScript('globalThis.__name ??= (f) => f;');
    const file = join(SHARED_DIR, 'runs', 'gpt-4o-airline.json');
    const linked = `${server.url}#data=${encodeURIComponent(`${server.url}tau-bench-data`)}`;
    const warm = await context.newPage();
    await warm.goto(linked);
    await warm.waitForSelector('[data-testid="episode-row"]');
    await warm.setInputFiles('[data-testid="open-file-input"]', file);
    await warm.waitForSelector('[data-testid="episode-table"][data-total="200"][data-complete="true"]', { timeout: 300_000 });
    // The parsed DB is stored once the whole file is judged.
    await warm.waitForTimeout(1500);
    await warm.close();
    const firsts: number[] = [];
    const loads: number[] = [];
    for (let round = 0; round < options.repeat; round++) {
      loads.push(loadavg()[0]!);
      const these: number[] = [];
      for (let k = 0; k < OPENS; k++) {
        const page = await context.newPage();
        await page.goto(linked);
        await page.waitForSelector(COMPLETE);
        await page.evaluate(probeLoad, 200);
        await page.setInputFiles('[data-testid="open-file-input"]', file);
        await page.waitForFunction(() => window.__load.first !== null, undefined, { timeout: 300_000, polling: 20 });
        const b = await page.evaluate(() => window.__load);
        these.push(b.first! - b.t0!);
        await page.close();
      }
      firsts.push(...these);
      log(`first-verdict round ${round + 1}: ${these.map((x) => x.toFixed(0)).join(', ')} ms (load ${loadavg()[0]!.toFixed(2)})`);
    }
    return {
      first_verdict_kept_ms: Math.round(median(firsts)),
      first_verdict_kept_ms_min: Math.round(Math.min(...firsts)),
      first_verdict_kept_ms_max: Math.round(Math.max(...firsts)),
      first_verdict_kept_load_avg_1m: Number(median(loads).toFixed(2)),
    };
  } finally {
    await browser.close();
    await server.close();
  }
}
