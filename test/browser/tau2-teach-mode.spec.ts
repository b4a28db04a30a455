/**
 * Issue 34 items 5 and 9 on the invented τ² sample (sample-runs/runs/tau2-mock-sample.json), with no τ² data served
 * (TAU2_DATA empty): a shared τ² link shows the recorded dialogue, verdict and note at once, titled by the simulation it
 * was shared from, and the recomputed verdict once a data folder is picked; teaching mode ("judge it yourself") hides
 * the verdict until the student reveals it, then shows where they differed, from the app and from a teaching link.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offlinePage, skipBrowser, startAppAndBrowser, type AppServer } from './harness';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SAMPLE = join(ROOT, 'sample-runs/runs/tau2-mock-sample.json');
const DATA = join(ROOT, 'sample-runs/tau2-data');
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const SIM = (i: number): string => `[data-testid="tau2-sim"][data-index="${i}"]`;
const NOTE = 'Said task_3 in words only';

const suite = skipBrowser ? describe.skip : describe;

/** Serious and critical axe violations on the page now (rule ids and places). */
async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    type V = { id: string; impact: string | null; nodes: { target: string[] }[] };
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: V[] }> } }).axe;
    const r = await axe.run(document, {
      resultTypes: ['violations'],
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    });
    return r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

/** Nothing of the verdict on the page: no reward, no check's outcome, no run line or table, no judge's mark in the dialogue. */
async function verdictHidden(page: Page): Promise<void> {
  // The page's own words (its header's tagline says what the app does) aside, nothing says how it was judged.
  const text = (await page.locator('main').innerText()).replace(/\s+/g, ' ');
  expect(text).not.toMatch(/recorded \d|recomputed|≠ recorded|not met \(recorded\)|you differ|τ²’s verdict:/);
  for (const id of ['tau2-reward', 'tau2-verdict', 'teach-result', 'teach-answer', 'episode-row', 'detection', 'shared-from', 'tau2-communicated'])
    expect(await page.getByTestId(id).count(), id).toBe(0);
  // The dialogue without the judge's marks: no communicated info, no matched action, no changed record.
  expect(await page.locator('[data-testid="teach-dialogue"] mark').count()).toBe(0);
  expect(await page.locator('[data-testid="teach-dialogue"]').innerText()).not.toMatch(/matches |changed /);
  expect(await page.title()).toBe('tau-inspect');
}

/** Marks a component (or a check inside it) met or not, by keyboard: its radio focused, Space. */
async function mark(page: Page, key: string, met: boolean): Promise<void> {
  const box = page.locator(`[data-key="${key}"]`).first();
  const radio = box
    .locator(`[data-testid="teach-mark"]`)
    .first()
    .getByTestId(met ? 'teach-mark-met' : 'teach-mark-not-met');
  await radio.focus();
  await page.keyboard.press('Space');
  expect(await radio.isChecked()).toBe(true);
}

suite('τ² links that show at once, and teaching mode (issue 34 items 5 and 9)', () => {
  let server: AppServer;
  let browser: Browser;

  beforeAll(async () => {
    ({ server, browser } = await startAppAndBrowser(null, null));
    mkdirSync(join(server.outDir, 'tau2-runs'), { recursive: true });
    copyFileSync(SAMPLE, join(server.outDir, 'tau2-runs', 'mock.json'));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** The link "Share simulation" copies for simulation `i` of the sample served as a URL (no τ² data anywhere), with a note. */
  async function sharedLink(i: number, note: string | null): Promise<string> {
    const { context, page } = await offlinePage(browser);
    try {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url.replace(/\/$/, '') });
      await page.goto(`${server.url}#run=tau2-runs/mock.json&episode=${i}`);
      await page.waitForSelector(SIM(i), { timeout: 60_000 });
      if (note !== null) {
        await page.getByTestId('tab-notes').click();
        await page.locator('[data-testid="episode-note"]').fill(note);
        await page.locator('[data-testid="episode-note"]').blur();
      }
      await page.getByRole('button', { name: /Share/ }).click();
      await page.waitForSelector('[data-testid="share-status"]', { timeout: 10_000 });
      return await page.evaluate(() => navigator.clipboard.readText());
    } finally {
      await context.close();
    }
  }

  it('a shared τ² link shows the recorded dialogue, verdict and note at once, titled by its simulation; the recomputed verdict follows the data', async () => {
    const link = await sharedLink(5, NOTE);
    const { context, page } = await offlinePage(browser);
    try {
      await page.goto(link);
      // No τ² data in this browser: the simulation shows as recorded, not "waiting for τ² data".
      await page.waitForSelector(SIM(0), { timeout: 30_000 });
      expect(await page.getByTestId('tau2-recorded-only').isVisible()).toBe(true);
      expect(await page.getByTestId('tau2-dialogue').innerText()).toContain('Created task_3 for you.');
      expect(await page.getByTestId('tau2-call-recorded').first().innerText()).toContain('recorded output');
      expect(await page.getByTestId('tau2-reward').textContent()).toBe('0.0');
      expect(await page.getByTestId('tau2-verdict').innerText()).toContain('as recorded in the file');
      const components = page.getByTestId('tau2-component');
      expect(await components.evaluateAll((els) => els.map((e) => [e.getAttribute('data-component'), e.getAttribute('data-in-basis')]))).toEqual([
        ['DB', 'true'],
        ['ACTION', 'true'],
        ['COMMUNICATE', 'true'],
      ]);
      expect(await components.nth(0).innerText()).toContain('as recorded: the DBs differed');
      expect(await components.nth(1).innerText()).toContain('never called: create_task');
      // The title names the simulation it was shared from; the note shows with where it came from.
      expect(await page.getByTestId('pane-title-name').innerText()).toMatch(/^Simulation 5 \(shared\)$/);
      expect(await page.getByTestId('shared-note').innerText()).toContain(NOTE);
      expect(await page.getByTestId('tau2-recorded-fetch').isVisible()).toBe(true);

      // τ²'s data picked: the verdict is recomputed here (one pick), the recorded banner gone.
      await page.setInputFiles('[data-testid="open-folder-input"]', DATA);
      await page.getByTestId('tau2-recorded-only').waitFor({ state: 'detached', timeout: 60_000 });
      // Recomputed, the DB check failed: the simulation now opens on its DB diff, which the recorded one had none of.
      expect(await page.getByTestId('tau2-db-record').count()).toBeGreaterThan(0);
      await page.getByTestId('tab-judged').click();
      await page.waitForSelector('[data-testid="tau2-verdict"] [data-recorded-only="false"]');
      expect(await page.getByTestId('tau2-verdict').innerText()).toMatch(/0\.0 recomputed · recorded 0\.0/);
      expect(await page.getByTestId('tau2-component').nth(0).innerText()).toMatch(/record\(s\) differ/);
      expect(await page.getByTestId('pane-title-name').innerText()).toMatch(/^Simulation 5 \(shared\)$/);
    } finally {
      await context.close();
    }
  }, 180_000);

  it('teaching mode on a sample simulation: no verdict before Reveal; marks by keyboard; the reveal shows τ²’s verdict and each difference with its evidence; axe clean', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
    try {
      const page = await context.newPage();
      // finish_desks, trial 2 of the sample: τ² gives 0 (DB 0, env assertion 0, communicate 1).
      await page.goto(`${server.url}#sample=tau2-mock-sample&episode=1&teach=1`);
      await page.waitForSelector('[data-testid="teach"] [data-testid="teach-component"]', { timeout: 60_000 });
      expect(await page.getByTestId('teach-component').evaluateAll((els) => els.map((e) => e.getAttribute('data-key')))).toEqual([
        'DB',
        'ENV_ASSERTION',
        'COMMUNICATE',
      ]);
      expect(await page.getByTestId('teach-item').evaluateAll((els) => els.map((e) => e.getAttribute('data-key')))).toEqual([
        'ENV_ASSERTION#0',
        'COMMUNICATE#0',
      ]);
      expect(await page.locator('[data-key="ENV_ASSERTION#0"]').innerText()).toContain('assert_task_status');
      expect(await page.locator('[data-key="COMMUNICATE#0"]').innerText()).toContain('task_1');
      await verdictHidden(page);
      // Keys that would leave the simulation or look for failed ones do nothing here.
      await page.locator('body').press('f');
      await page.locator('body').press('Escape');
      expect(await page.getByTestId('teach').getAttribute('data-index')).toBe('1');
      expect(await axeViolations(page)).toEqual([]);

      await mark(page, 'DB', true); // τ²: not met
      await mark(page, 'ENV_ASSERTION', false);
      await mark(page, 'ENV_ASSERTION#0', true); // τ²: not met
      await mark(page, 'COMMUNICATE', true);
      await mark(page, 'COMMUNICATE#0', true);
      expect(await page.getByTestId('teach-count').innerText()).toBe('3 of 3 components marked');
      await verdictHidden(page);
      await page.getByTestId('teach-reveal').focus();
      await page.keyboard.press('Enter');

      const result = page.getByTestId('teach-result');
      await result.waitFor();
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('teach-result');
      expect(await page.getByTestId('teach').getAttribute('data-revealed')).toBe('true');
      expect(await page.getByTestId('teach-reward').innerText()).toBe('0.0');
      expect(await page.getByTestId('teach-source').innerText()).toContain('Recomputed here');
      expect(await page.getByTestId('teach-source').innerText()).toContain('records 0.0');
      expect(await page.getByTestId('teach-summary').innerText()).toBe('Your marks give 0.0, as τ² (recomputed here) does. You differ on 2 checks.');
      expect(await result.getAttribute('data-differences')).toBe('2');
      expect(await page.locator('[data-testid="teach-differences"] li').evaluateAll((els) => els.map((e) => e.getAttribute('data-key')))).toEqual([
        'DB',
        'ENV_ASSERTION#0',
      ]);
      // Each component and check with τ²'s answer and its evidence, the differences marked.
      const db = page.locator('[data-testid="teach-component"][data-key="DB"] > [data-testid="teach-answer"]');
      expect(await db.getAttribute('data-differs')).toBe('true');
      expect(await db.innerText()).toMatch(/τ²: not met — agent DB gold \w+, predicted \w+(; user DB .*)?: \d+ record\(s\) differ/);
      // …with the fields that differ (the agent completed task_2, already completed; the reference completes task_1).
      expect(await db.getByTestId('teach-proof').innerText()).toBe(
        'tasks/task_1 (no call of the dialogue wrote it: the reference actions did): status: "pending" here, "completed" in the reference DB',
      );
      const env = page.locator('[data-key="ENV_ASSERTION#0"] [data-testid="teach-answer"]');
      expect(await env.getAttribute('data-differs')).toBe('true');
      expect(await env.innerText()).toContain('does not hold: expected True, actual False');
      const envBox = page.locator('[data-testid="teach-component"][data-key="ENV_ASSERTION"] > [data-testid="teach-answer"]');
      expect(await envBox.getAttribute('data-differs')).toBe('false');
      const said = page.locator('[data-key="COMMUNICATE#0"] [data-testid="teach-answer"]');
      expect(await said.getAttribute('data-differs')).toBe('false');
      expect(await said.innerText()).toMatch(/τ²: met — said in message #\d+/);
      expect(await axeViolations(page)).toEqual([]);

      // Again: the verdict hidden, the marks cleared; leaving shows the full screen.
      await page.getByTestId('teach-retry').click();
      await verdictHidden(page);
      expect(await page.getByTestId('teach-count').innerText()).toBe('0 of 3 components marked');
      await page.getByTestId('teach-leave').click();
      await page.waitForSelector(SIM(1));
      expect(await page.getByTestId('episode-row').count()).toBeGreaterThan(0);
      await page.getByTestId('tab-judged').click();
      expect(await page.getByTestId('tau2-reward').textContent()).toBe('0.0');
      expect(page.url()).not.toContain('teach=1');
    } finally {
      await context.close();
    }
  }, 180_000);

  it('a τ-bench episode too: the DB hash and each output as questions, revealed with τ-bench’s evidence', async () => {
    const { context, page } = await offlinePage(browser);
    try {
      // Episode 2 of the τ-bench sample: the total 1177.59 was never told to the user (reward 0, as recorded).
      await page.goto(`${server.url}#sample=retail-sample&episode=2&teach=1`);
      await page.waitForSelector('[data-testid="teach"] [data-testid="teach-component"]', { timeout: 60_000 });
      expect(await page.locator('#teach-h').innerText()).toBe('Judge it yourself: Episode 2');
      const keys = await page.getByTestId('teach-component').evaluateAll((els) => els.map((e) => e.getAttribute('data-key')));
      expect(keys.at(-1)).toBe('OUTPUTS');
      expect(await page.locator('[data-key="OUTPUTS#0"]').innerText()).toContain('1177.59');
      await verdictHidden(page);
      for (const k of keys) await mark(page, k!, true);
      await mark(page, 'OUTPUTS#0', true);
      await page.getByTestId('teach-reveal').click();
      await page.getByTestId('teach-result').waitFor();
      expect(await page.getByTestId('teach-reward').innerText()).toBe('0.0');
      expect(await page.getByTestId('teach-summary').innerText()).toMatch(/^Your marks give 1\.0; τ-bench \(recomputed here\) gives 0\.0\./);
      const diffs = await page.locator('[data-testid="teach-differences"] li').evaluateAll((els) => els.map((e) => e.getAttribute('data-key')));
      expect(diffs).toContain('OUTPUTS');
      expect(diffs).toContain('OUTPUTS#0');
      expect(await page.locator('[data-key="OUTPUTS#0"] [data-testid="teach-answer"]').innerText()).toMatch(/τ-bench: not met — not said to the user/);
    } finally {
      await context.close();
    }
  }, 180_000);

  it('a teaching link opens straight into teaching mode with no verdict visible, offline and without τ² data; Reveal shows the recorded verdict', async () => {
    // The link made from teaching mode (on the sample served as a URL, simulation 5: offsite_for_bram, reward 0).
    const first = await offlinePage(browser);
    let link: string;
    try {
      await first.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url.replace(/\/$/, '') });
      await first.page.goto(`${server.url}#run=tau2-runs/mock.json&episode=5`);
      await first.page.waitForSelector(SIM(5), { timeout: 60_000 });
      await first.page.getByTestId('teach-start').click();
      await first.page.waitForSelector('[data-testid="teach"]');
      expect(first.page.url()).toContain('teach=1');
      await first.page.getByTestId('teach-copy-link').click();
      await first.page.getByTestId('teach-link-status').waitFor({ timeout: 10_000 });
      link = await first.page.evaluate(() => navigator.clipboard.readText());
    } finally {
      await first.context.close();
    }
    expect(link).toMatch(/#ep=[A-Za-z0-9_-]+&episode=0&step=\d+&teach=1$/);

    const { context, page } = await offlinePage(browser);
    try {
      await page.goto(link);
      await page.waitForSelector('[data-testid="teach"] [data-testid="teach-component"]', { timeout: 30_000 });
      expect(await page.locator('#teach-h').innerText()).toMatch(/^Judge it yourself: Simulation 5 · task offsite_for_bram$/);
      expect(await page.getByTestId('teach-component').evaluateAll((els) => els.map((e) => e.getAttribute('data-key')))).toEqual([
        'DB',
        'ACTION',
        'COMMUNICATE',
      ]);
      await verdictHidden(page);
      await mark(page, 'DB', false);
      await mark(page, 'ACTION', true); // τ²: not met (create_task's title differs)
      await mark(page, 'COMMUNICATE', true);
      await page.getByTestId('teach-reveal').click();
      await page.getByTestId('teach-result').waitFor();
      expect(await page.getByTestId('teach-source').innerText()).toContain('As the file records it');
      expect(await page.getByTestId('teach-reward').innerText()).toBe('0.0');
      expect(await page.getByTestId('teach-summary').innerText()).toBe('Your marks give 0.0, as τ² (as the file records it) does. You differ on 1 check.');
      expect(await page.locator('[data-testid="teach-differences"] li').evaluateAll((els) => els.map((e) => e.getAttribute('data-key')))).toEqual(['ACTION']);
      // τ²'s data picked: the same verdict, now recomputed here.
      await page.setInputFiles('[data-testid="open-folder-input"]', DATA);
      await expect.poll(() => page.getByTestId('teach-source').innerText(), { timeout: 60_000 }).toContain('Recomputed here');
      expect(await page.getByTestId('teach-summary').innerText()).toBe('Your marks give 0.0, as τ² (recomputed here) does. You differ on 1 check.');
    } finally {
      await context.close();
    }
  }, 180_000);
});
