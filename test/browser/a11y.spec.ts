/**
 * axe-core on the app's screens (the overview and an episode, light and dark): no serious or critical
 * violation. axe runs inside the page (its script injected from node_modules, the page's CSP bypassed for that
 * script alone), on the sample run.
 */
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPLETE, launchChromium, skipBrowser, startApp, type AppServer } from './harness';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; html: string; failureSummary?: string }[];
}

/** Serious and critical violations on the page as it is now, one line each (rule, count, first places, why). */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
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

describe.skipIf(skipBrowser)('accessibility (axe-core): no serious or critical violation', () => {
  let server: AppServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startApp(null), launchChromium()]);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const colorScheme of ['light', 'dark'] as const)
    it(`the overview and a failed episode, ${colorScheme}`, async () => {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme, bypassCSP: true });
      const page = await context.newPage();
      try {
        await page.goto(server.url);
        await page.waitForSelector(COMPLETE, { timeout: 60_000 });
        const overview = await seriousViolations(page);
        await page.locator('[data-testid="episode-row"][data-index="1"]').click();
        await page.waitForSelector('[data-testid="verdict-panel"]', { timeout: 30_000 });
        const episode = await seriousViolations(page);
        expect({ overview, episode }).toEqual({ overview: [], episode: [] });
      } finally {
        await context.close();
      }
    }, 120_000);
});
