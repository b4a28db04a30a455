/**
 * axe-core on every screen of the app, light and dark: no serious or critical violation. The screens: a τ-bench
 * run's overview and a failed episode (../shared/runs/grok-4-tool-calling-retail.json, episode 104), a τ² run's
 * overview and a failed simulation (../shared/tau2/runs, ../shared/tau2/data served at /tau2-data/), and the
 * library's three views (leaderboard, tasks × runs heat map, task health) of the shared runs' index
 * (test/support/runs-index.ts), served beside the app as library.spec.ts does. axe runs inside the page (its
 * script injected from node_modules, the page's CSP bypassed for that script alone); a failure names each rule
 * with its count and the elements it found.
 */
import { createRequire } from 'node:module';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { libraryRunsIndex } from '../support/runs-index';
import { DATA_DIR, describeShared, TAU2_DIR } from '../support/shared';
import { tau2Expected } from '../support/tau2';
import { COMPLETE, skipBrowser, startAppAndBrowser, type AppServer } from './harness';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

const V1_RUN = 'runs/grok-4-tool-calling-retail.json';
/** A failed episode of it with the most on its screen (scrolled tool outputs, a long dialogue). */
const V1_EPISODE = 104;
const TAU2_RUN = 'tau2/runs/sierra-research__gym-gpt-4.1-airline.json';

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; html: string; failureSummary?: string }[];
}

/** Serious and critical violations on the page as it is now, one line each (rule, count, the places, why). */
async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: Violation[] }> } }).axe;
    const r = await axe.run(document, {
      resultTypes: ['violations'],
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, html: n.html.slice(0, 120), failureSummary: n.failureSummary })),
    }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}, ${v.nodes.length}×): ${v.help} — ${v.nodes
          .slice(0, 12)
          .map((n) => `${n.target.join(' ')} ${n.html}: ${(n.failureSummary ?? '').split('\n').slice(1, 2).join('').trim()}`)
          .join(' | ')}`,
    );
}

/** The first simulation τ² itself failed (reward 0) in `file`. */
const firstFailed = (file: string): number => tau2Expected(file.split('/').at(-1)!).simulations.findIndex((s) => Number(s.reward) === 0);

const suite = skipBrowser ? describe.skip : describeShared;

suite('accessibility (axe-core): no serious or critical violation on any screen, light and dark', () => {
  let server: AppServer;
  let browser: Browser;

  beforeAll(async () => {
    const [started, index] = await Promise.all([startAppAndBrowser(DATA_DIR, join(TAU2_DIR, 'data')), libraryRunsIndex()]);
    ({ server, browser } = started);
    expect(index.first.code, index.first.err).toBe(0);
    // The library (its runs and runs.parquet) served beside the app: runs and the index open by link.
    cpSync(index.lib, join(server.outDir, 'lib'), { recursive: true });
  }, 400_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** A page in `colorScheme` (CSP bypassed for axe's script), given to `use` and closed after. */
  async function withPage(colorScheme: 'light' | 'dark', use: (page: Page) => Promise<void>): Promise<void> {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme, bypassCSP: true });
    try {
      await use(await context.newPage());
    } finally {
      await context.close();
    }
  }

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`τ-bench: the overview and failed episode ${V1_EPISODE}, ${colorScheme}`, async () => {
      await withPage(colorScheme, async (page) => {
        await page.goto(`${server.url}#run=lib/${V1_RUN}`);
        await page.waitForSelector(COMPLETE, { timeout: 120_000 });
        const overview = await seriousViolations(page);
        await page.goto(`${server.url}#run=lib/${V1_RUN}&episode=${V1_EPISODE}`);
        await page.waitForSelector(`[data-testid="episode-screen"][data-episode="${V1_EPISODE}"] [data-testid="verdict-panel"]`, {
          timeout: 60_000,
          state: 'attached',
        });
        const episode = await seriousViolations(page);
        expect({ overview, episode }).toEqual({ overview: [], episode: [] });
        // A long tool output is a named tab stop; focused, the arrow keys scroll it rather than move the step.
        const box = page.locator('[data-testid="dialogue"] [data-scroll-region]').first();
        expect(await box.getAttribute('aria-label')).toMatch(/^Tool output, message #\d+$/);
        const step = await page.getByTestId('episode-screen').getAttribute('data-step');
        await box.focus();
        await page.keyboard.press('ArrowDown');
        await page.keyboard.press('End');
        await page.waitForFunction((el) => el!.scrollTop > 0, await box.elementHandle(), { timeout: 5_000 });
        expect(await page.getByTestId('episode-screen').getAttribute('data-step')).toBe(step);
      });
    }, 240_000);

    it(`τ²: the overview and a failed simulation, ${colorScheme}`, async () => {
      await withPage(colorScheme, async (page) => {
        await page.goto(`${server.url}#run=lib/${TAU2_RUN}`);
        await page.waitForSelector(COMPLETE, { timeout: 120_000 });
        const overview = await seriousViolations(page);
        const sim = firstFailed(TAU2_RUN);
        await page.goto(`${server.url}#run=lib/${TAU2_RUN}&episode=${sim}`);
        await page.waitForSelector(`[data-testid="tau2-sim"][data-index="${sim}"]`, { timeout: 120_000 });
        const simulation = await seriousViolations(page);
        expect({ overview, simulation }).toEqual({ overview: [], simulation: [] });
      });
    }, 240_000);

    it(`the library: leaderboard, tasks × runs, task health, ${colorScheme}`, async () => {
      await withPage(colorScheme, async (page) => {
        await page.goto(`${server.url}#library=lib/runs.parquet`);
        await page.waitForSelector('[data-testid="leader-row"]', { timeout: 60_000 });
        const leaderboard = await seriousViolations(page);
        await page.getByTestId('library-tab-heatmap').click();
        await page.waitForSelector('[data-testid="heat-cell"]', { timeout: 60_000 });
        const heatMap = await seriousViolations(page);
        await page.getByTestId('library-tab-health').click();
        await page.waitForSelector('[data-testid="health-task"]', { timeout: 60_000 });
        const health = await seriousViolations(page);
        expect({ leaderboard, heatMap, health }).toEqual({ leaderboard: [], heatMap: [], health: [] });
      });
    }, 240_000);
  }
});
