/**
 * Measures the app in headless Chromium (printed, never asserted): time from a results file
 * being chosen to the first verdict on screen and to all verdicts (gpt-4o-airline, data
 * already in this browser: data files and the parsed DB with its hashes in IndexedDB from a
 * warm-up visit), the longest main-thread task meanwhile, step-to-step latency in the episode
 * screen with the DB-at-step view open, and the JS heap.  Run: npx tsx bench/browser/app-bench.ts
 */
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DATA_DIR, hasShared, SHARED_DIR } from '../../test/support/shared';
import { COMPLETE, hasChromium, launchChromium, startApp } from '../../test/browser/harness';
import type { BenchResult, Log } from '../bench-types';
import { probeLoad } from './load-probe';

declare global {
  interface Window {
    __steps: number[];
  }
}

/** Step-to-step latency in the episode screen: keydown → the pane's first change → the next frame. */
function probeSteps(): void {
  const steps: number[] = [];
  window.__steps = steps;
  window.addEventListener(
    'keydown',
    (e) => {
      const pane = document.querySelector('[data-testid="episode-pane"]');
      if (!pane) return;
      const t0 = e.timeStamp;
      const mo = new MutationObserver(() => {
        mo.disconnect();
        requestAnimationFrame(() => steps.push(performance.now() - t0));
      });
      mo.observe(pane, { subtree: true, childList: true, attributes: true, characterData: true });
      setTimeout(() => mo.disconnect(), 1000);
    },
    { capture: true },
  );
}

/** Whether the worker has stored a parsed data version (it does so once a whole file is evaluated). */
async function parsedVersionsStored(): Promise<boolean> {
  return new Promise((ok) => {
    const req = indexedDB.open('tau-inspect-parsed');
    req.onerror = () => ok(false);
    req.onsuccess = () => {
      const db = req.result;
      if (!db.objectStoreNames.contains('versions')) return (db.close(), ok(false));
      const count = db.transaction('versions').objectStore('versions').count();
      count.onsuccess = () => (db.close(), ok(count.result > 0));
      count.onerror = () => (db.close(), ok(false));
    };
  });
}

const ms = (x: number | null | undefined): string => (x === null || x === undefined ? 'n/a' : `${x.toFixed(0)} ms`);
const mb = (x: number | null | undefined): string => (x === null || x === undefined ? 'n/a' : `${(x / 1024 / 1024).toFixed(1)} MB`);

const KEYS = ['first_verdict_ms', 'all_verdicts_ms', 'longest_task_ms', 'open_episode_ms', 'step_p50_ms', 'step_max_ms', 'heap_mb'] as const;

export async function runAppBench(log: Log): Promise<BenchResult> {
  if (!hasChromium || !hasShared) {
    log(`app bench skipped: ${hasChromium ? '' : '/usr/bin/chromium missing '}${hasShared ? '' : '../shared missing'}`);
    return Object.fromEntries(KEYS.map((k) => [k, null]));
  }
  const [server, browser] = await Promise.all([startApp(DATA_DIR), launchChromium()]);
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addInitScript('globalThis.__name ??= (f) => f;');
    const dataBase = `${server.url}tau-bench-data`;
    const file = join(SHARED_DIR, 'runs', 'gpt-4o-airline.json');
    const linked = `${server.url}#data=${encodeURIComponent(dataBase)}`;

    const warm = await context.newPage();
    await warm.goto(linked);
    await warm.waitForSelector('[data-testid="episode-row"]');
    await warm.setInputFiles('[data-testid="open-file-input"]', file);
    await warm.waitForSelector(`[data-testid="episode-table"][data-total="200"][data-evaluated="200"]`, { timeout: 300_000 });
    // The parsed DB and its hashes are stored once the whole file is evaluated.
    const stored = await warm.waitForFunction(parsedVersionsStored, undefined, { timeout: 60_000, polling: 250 }).then(
      () => true,
      () => false,
    );
    await warm.close();

    const page = await context.newPage();
    await page.goto(linked);
    await page.waitForSelector(COMPLETE);
    await page.evaluate(probeLoad, 200);
    await page.evaluate(probeSteps);
    await page.setInputFiles('[data-testid="open-file-input"]', file);
    await page.waitForFunction(() => window.__load.all !== null, undefined, { timeout: 300_000, polling: 200 });
    await page.waitForSelector(COMPLETE, { timeout: 60_000 });
    const origin = await page.getByTestId('detection').textContent();
    const b = await page.evaluate(() => window.__load);
    const during = b.longtasks.filter((t) => b.t0 !== null && b.all !== null && t.start >= b.t0 && t.start <= b.all);
    const longest = during.reduce((m, t) => Math.max(m, t.duration), 0);

    const rows = page.locator('[data-testid="episode-row"][data-reward="0"]');
    await rows.first().click();
    await page.waitForFunction(() => !document.querySelector('[data-testid="episode-pane"]')?.textContent?.includes('Evaluating the episode'), undefined, {
      timeout: 30_000,
    });
    const openStart = Date.now();
    await page.locator('[data-testid="episode-row"]').nth(3).click();
    await page.waitForFunction(() => !document.querySelector('[data-testid="episode-pane"]')?.textContent?.includes('Evaluating the episode'), undefined, {
      timeout: 30_000,
    });
    const openEpisode = Date.now() - openStart;
    await page.getByTestId('tab-db').click();
    await page.waitForSelector('[data-testid="db-at-step"]');
    await page.evaluate(() => (window.__steps.length = 0));
    await page.locator('[data-testid="episode-pane"]').click({ position: { x: 5, y: 60 } });
    for (let i = 0; i < 15; i++) {
      await page.keyboard.press('j');
      await page.waitForTimeout(60);
    }
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press('k');
      await page.waitForTimeout(60);
    }
    const steps = await page.evaluate(() => window.__steps);
    const sorted = [...steps].sort((x, y) => x - y);
    const median = sorted.length ? sorted[Math.floor(sorted.length / 2)]! : null;
    const worst = sorted.length ? sorted[sorted.length - 1]! : null;
    const heap = await page.evaluate(() => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? null);
    const cdp = await context.newCDPSession(page);
    const metrics = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
    await cdp.send('Performance.enable').catch(() => undefined);
    const jsHeap = metrics.metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? null;

    const load = loadavg()[0]!;
    const first = b.first !== null && b.t0 !== null ? b.first - b.t0 : null;
    const all = b.all !== null && b.t0 !== null ? b.all - b.t0 : null;
    const heapBytes = jsHeap ?? heap;
    log('\napp bench: gpt-4o-airline.json (200 episodes) in headless Chromium, data cached in the browser');
    log(`  machine load (1 min average)     ${load.toFixed(1)} on ${cpus().length} CPUs`);
    log(`  data source                      ${origin?.match(/Data from (.*?)(Evaluating|Why\?|$)/)?.[1]?.trim() ?? '?'}`);
    log(`  parsed DB kept from the warm-up  ${stored ? 'yes' : 'NO (the measured visit parsed and hashed the data again)'}`);
    log(`  file chosen → first verdict      ${ms(first)}   (goal < 1000 ms)`);
    log(`  file chosen → all 200 verdicts   ${ms(all)}   (goal < 5000 ms)`);
    log(
      `  longest main-thread task         ${during.length ? ms(longest) : '< 50 ms (no long task)'}   (${during.length} long tasks ≥ 50 ms; goal none > 200 ms)`,
    );
    log(`  open an episode (click → shown)  ${ms(openEpisode)}`);
    log(
      `  step → next step, DB-at-step tab ${steps.length ? `median ${ms(median)}, worst ${ms(worst)} over ${steps.length}` : 'n/a (the episode screen did not react to j/k)'}   (goal < 16 ms)`,
    );
    log(`  JS heap, page (main thread)      ${mb(heapBytes)}   (the worker's heap is separate)`);
    await context.close();
    const r1 = (x: number | null): number | null => (x === null ? null : Number(x.toFixed(1)));
    return {
      first_verdict_ms: r1(first),
      all_verdicts_ms: r1(all),
      longest_task_ms: r1(during.length ? longest : 0),
      open_episode_ms: openEpisode,
      step_p50_ms: r1(median),
      step_max_ms: r1(worst),
      heap_mb: heapBytes === null ? null : Number((heapBytes / 1024 / 1024).toFixed(2)),
    };
  } finally {
    await browser.close();
    await server.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runAppBench(console.log);
