/**
 * τ² in the app, in headless Chromium (printed, never asserted): time from a τ² results file being
 * chosen to the first verdict on screen and to all verdicts, and the longest main-thread task
 * meanwhile, with ../shared/tau2/data served by the app's server (TAU2_DATA) and the DB loaded once by a
 * warm-up file: a 50-simulation airline file, and a 456-simulation airline file built (in a temporary
 * folder) from the simulations of every airline file of ../shared/tau2/runs.
 * Run alone: npm run -s bench -- --json tau2-app
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COMPLETE, hasChromium, launchChromium, startApp } from '../../test/browser/harness';
import { TAU2_DIR } from '../../test/support/shared';
import type { BenchResult, Log } from '../bench-types';
import { probeLoad } from './load-probe';

const KEYS = [
  'tau2_first_verdict_ms',
  'tau2_all_verdicts_ms',
  'tau2_longest_task_ms',
  'tau2_456_first_verdict_ms',
  'tau2_456_all_verdicts_ms',
  'tau2_456_longest_task_ms',
] as const;

const FIFTY = 'sierra-research__pr73-aide-claude-sonnet-4-5-airline.json';

interface Run {
  info: unknown;
  tasks: { id: string }[];
  simulations: unknown[];
}

/** A 456-simulation airline file: the airline files' simulations in turn, with every task they name. */
function bigAirline(): string {
  const sources = JSON.parse(readFileSync(join(TAU2_DIR, 'runs', 'sources.json'), 'utf8')) as { file: string; domain: string }[];
  const runs = sources.filter((s) => s.domain === 'airline').map((s) => JSON.parse(readFileSync(join(TAU2_DIR, 'runs', s.file), 'utf8')) as Run);
  const tasks = new Map<string, unknown>();
  for (const r of runs) for (const t of r.tasks) if (!tasks.has(t.id)) tasks.set(t.id, t);
  const all = runs.flatMap((r) => r.simulations);
  const simulations = Array.from({ length: 456 }, (_, i) => all[i % all.length]);
  return JSON.stringify({ ...runs[0]!, tasks: [...tasks.values()], simulations });
}

export async function runTau2AppBench(log: Log): Promise<BenchResult> {
  if (!hasChromium) {
    log('tau2 app bench skipped: /usr/bin/chromium missing');
    return Object.fromEntries(KEYS.map((k) => [k, null]));
  }
  const dir = mkdtempSync(join(tmpdir(), 'tau2-app-bench-'));
  const big = join(dir, 'airline-456.json');
  writeFileSync(big, bigAirline());
  const [server, browser] = await Promise.all([startApp(null, join(TAU2_DIR, 'data')), launchChromium()]);
  const out: BenchResult = {};
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    // tsx names functions with __name, which the page does not have (as in the app bench).
    await context.addInitScript('globalThis.__name ??= (f) => f;');
    const page = await context.newPage();
    await page.goto(server.url);
    await page.waitForSelector(COMPLETE);
    // Warm-up: the airline DB read and validated once (as after a first file).
    await page.setInputFiles('[data-testid="open-file-input"]', join(TAU2_DIR, 'runs', 'sierra-research__gym-gpt-4.1-airline.json'));
    await page.waitForSelector('[data-testid="episode-table"][data-total="20"][data-complete="true"]', { timeout: 300_000 });
    for (const [file, n, prefix] of [
      [join(TAU2_DIR, 'runs', FIFTY), 50, 'tau2'],
      [big, 456, 'tau2_456'],
    ] as const) {
      await page.evaluate(probeLoad, n);
      await page.setInputFiles('[data-testid="open-file-input"]', file);
      await page.waitForFunction(() => window.__load.all !== null, undefined, { timeout: 600_000, polling: 200 });
      const b = await page.evaluate(() => window.__load);
      const during = b.longtasks.filter((t) => b.t0 !== null && b.all !== null && t.start >= b.t0 && t.start <= b.all);
      out[`${prefix}_first_verdict_ms`] = b.first !== null && b.t0 !== null ? Math.round(b.first - b.t0) : null;
      out[`${prefix}_all_verdicts_ms`] = b.all !== null && b.t0 !== null ? Math.round(b.all - b.t0) : null;
      out[`${prefix}_longest_task_ms`] = Math.round(during.reduce((m, t) => Math.max(m, t.duration), 0));
      log(
        `tau2 app bench: ${n} airline simulations: first verdict ${out[`${prefix}_first_verdict_ms`]} ms, all ${out[`${prefix}_all_verdicts_ms`]} ms, longest main-thread task ${out[`${prefix}_longest_task_ms`]} ms`,
      );
    }
  } finally {
    await browser.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}
