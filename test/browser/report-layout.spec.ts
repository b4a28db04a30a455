/** The offline report in Chromium: a phone's width without sideways scrolling, and dark when the system is. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InspectSession, sessionReportHtml } from '../../src/core/contract';
import { launchChromium, skipBrowser } from './harness';

const SAMPLE = resolve(import.meta.dirname, '../../sample-runs');

/** Relative luminance of a CSS `rgb(r, g, b)` colour (0 black … 1 white). */
function luminance(rgb: string): number {
  const [r, g, b] = (rgb.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((x) => {
    const c = Number(x) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

describe.skipIf(skipBrowser)('the offline report in headless Chromium', () => {
  let browser: Browser;
  let dir: string;
  let url: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tau-report-layout-'));
    const s = new InspectSession(readFileSync(join(SAMPLE, 'runs/retail-sample.json'), 'utf8'));
    s.useData(await s.loadData(async (rel) => readFile(join(SAMPLE, 'data', rel), 'utf8').catch(() => null), 'sample-runs/data'));
    const file = join(dir, 'report.html');
    writeFileSync(file, sessionReportHtml(s, { title: 'retail-sample.json', generatedAt: 'now' }));
    url = pathToFileURL(file).href;
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  for (const colorScheme of ['light', 'dark'] as const)
    it(`at 390 px wide (${colorScheme}): nothing scrolls sideways, failed episodes come first, the background follows the system`, async () => {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme });
      try {
        const page = await context.newPage();
        await page.goto(url);
        // Every failed episode's section open, so its dialogue, diff and hashes are laid out.
        const got = await page.evaluate(() => ({
          scrollWidth: document.documentElement.scrollWidth,
          background: getComputedStyle(document.body).backgroundColor,
          rewards: [...document.querySelectorAll('[data-testid="report-episode"]')].map((e) => Number(e.getAttribute('data-reward'))),
          open: document.querySelectorAll('details[open]').length,
        }));
        expect(got.open).toBeGreaterThan(0);
        expect(got.scrollWidth).toBeLessThanOrEqual(390);
        const firstPassed = got.rewards.findIndex((r) => r >= 1);
        expect(firstPassed).toBeGreaterThan(0);
        expect(got.rewards.slice(firstPassed).every((r) => r >= 1)).toBe(true);
        const l = luminance(got.background);
        if (colorScheme === 'dark') expect(l).toBeLessThan(0.05);
        else expect(l).toBeGreaterThan(0.9);
      } finally {
        await context.close();
      }
    }, 60_000);
});
