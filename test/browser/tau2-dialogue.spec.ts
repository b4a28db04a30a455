/**
 * A τ² simulation's dialogue is the episode screen's: Markdown rendered as elements (never raw HTML), reasoning folded
 * to one line, the run's search hits marked. On an invented run (the τ² sample with one agent message rewritten), the
 * invented data picked as a folder: no ../shared needed.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPLETE, offlinePage, skipBrowser, startAppAndBrowser, type AppServer } from './harness';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SIM = 4;
const SAID =
  '<think>The list has task_2 already; I should check it before answering.</think>**All set**: the task is created on your list.\n\n- id: task_3\n- <img src=x onerror=alert(1)> stays text';

const suite = skipBrowser ? describe.skip : describe;

suite('a τ² simulation’s dialogue in headless Chromium', () => {
  let server: AppServer;
  let browser: Browser;

  beforeAll(async () => {
    ({ server, browser } = await startAppAndBrowser(null));
    const run = JSON.parse(readFileSync(join(ROOT, 'sample-runs/runs/tau2-mock-sample.json'), 'utf8')) as {
      simulations: { messages: { role: string; content: string | null }[] }[];
    };
    const said = run.simulations[SIM]!.messages.filter((m) => m.role === 'assistant' && m.content).at(-1)!;
    said.content = SAID;
    mkdirSync(join(server.outDir, 'tau2-runs'), { recursive: true });
    writeFileSync(join(server.outDir, 'tau2-runs', 'marked.json'), JSON.stringify(run));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('renders Markdown, folds reasoning and marks search hits, as a τ-bench episode’s dialogue does', async () => {
    const { context, page } = await offlinePage(browser);
    try {
      await page.goto(`${server.url}#run=tau2-runs/marked.json&episode=${SIM}`);
      // The invented data, picked as a tau2-bench folder.
      await page.getByText('τ²-bench mock data needed').waitFor({ timeout: 60_000 });
      await page.setInputFiles('[data-testid="open-folder-input"]', join(ROOT, 'sample-runs/tau2-data'));
      await page.waitForSelector(COMPLETE, { timeout: 60_000 });
      const dialogue = page.getByTestId('tau2-dialogue');
      await dialogue.waitFor({ timeout: 60_000 });
      // Markdown: bold and a list, as elements; an HTML tag in the text stays text.
      expect(await dialogue.locator('strong').allTextContents()).toContain('All set');
      expect(await dialogue.locator('li li, ul li').allTextContents()).toEqual(expect.arrayContaining(['id: task_3']));
      expect(await dialogue.locator('img').count()).toBe(0);
      expect(await dialogue.textContent()).toContain('<img src=x onerror=alert(1)> stays text');
      // Reasoning: one folded line, opened on a click.
      const reasoning = dialogue.getByTestId('reasoning');
      expect(await reasoning.count()).toBe(1);
      expect(await reasoning.getAttribute('data-open')).toBe('false');
      expect(await dialogue.textContent()).not.toContain('I should check it before answering');
      await reasoning.locator('button').click();
      expect(await reasoning.getAttribute('data-open')).toBe('true');
      expect(await reasoning.textContent()).toContain('I should check it before answering');
      // Search: the run's query marks its hits in the dialogue (here inside and outside the reasoning).
      await page.getByTestId('search').fill('your list');
      const hits = 'mark:not([aria-label="communicated info"])';
      expect(await dialogue.locator(hits).count()).toBe(0);
      await page.waitForFunction((sel) => document.querySelectorAll(`[data-testid="tau2-dialogue"] ${sel}`).length > 0, hits, { timeout: 30_000 });
      const marks = await dialogue.locator(hits).allTextContents();
      expect(marks.length).toBeGreaterThan(0);
      for (const m of marks) expect(m.toLowerCase()).toBe('your list');
    } finally {
      await context.close();
    }
  }, 120_000);
});
