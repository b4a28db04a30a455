/**
 * Reviewing τ² runs together (issue 18 item 5) in headless Chromium, on the invented τ² sample
 * (sample-runs/runs/tau2-mock-sample.json) and its invented data served as the app's TAU2_DATA:
 * a note that survives a reload and shows in the report, a shared simulation reopened in a fresh
 * browser, two τ² runs compared task by task, and a τ-bench run beside a τ² run refused.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TAU2_PINNED_COMMIT } from '../../src/core/contract';
import { COMPLETE, offlinePage, skipBrowser, startAppAndBrowser, type AppServer } from './harness';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SAMPLE = join(ROOT, 'sample-runs/runs/tau2-mock-sample.json');
const V1_SAMPLE = readFileSync(join(ROOT, 'sample-runs/runs/retail-sample.json'));
const SIM = (i: number): string => `[data-testid="tau2-sim"][data-index="${i}"]`;
const NOTE = 'The <b>desk</b> count is wrong in the task';

interface Sim {
  id: string;
  task_id: string;
  trial: number;
  messages: { role: string; content: string | null }[];
  reward_info: { reward: number };
}
interface Run {
  simulations: Sim[];
}
const sample = (): Run => JSON.parse(readFileSync(SAMPLE, 'utf8')) as Run;

/** The sample with task offsite_for_bram's two failed trials replaced by copies of its passed one (new ids): it flips to passed in B. */
function bettered(): string {
  const run = sample();
  const good = run.simulations.find((s) => s.task_id === 'offsite_for_bram' && s.reward_info.reward === 1)!;
  run.simulations = run.simulations.map((s) =>
    s.task_id === 'offsite_for_bram' && s !== good ? { ...structuredClone(good), id: `${s.id}-b`, trial: s.trial } : s,
  );
  return JSON.stringify(run);
}

/** The sample with one assistant message of simulation `i` said otherwise: the same simulation id, other content. */
function altered(i: number): string {
  const run = sample();
  const m = run.simulations[i]!.messages.find((x) => x.role === 'assistant' && typeof x.content === 'string')!;
  m.content = `${m.content} (said otherwise)`;
  return JSON.stringify(run);
}

/** Opens a side panel of the τ² simulation screen by its tab. */
async function tab(page: Page, id: 'notes' | 'trial'): Promise<void> {
  await page.getByTestId(`tab-${id}`).click();
}

async function writeNote(page: Page, text: string): Promise<void> {
  await tab(page, 'notes');
  await page.locator('[data-testid="episode-note"]').fill(text);
  await page.locator('[data-testid="episode-note"]').blur();
  await expect.poll(() => page.locator('[data-testid="note-status"]').textContent()).toBe('saved in this browser');
}

describe.skipIf(skipBrowser)('reviewing τ² runs together in headless Chromium', () => {
  let server: AppServer;
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    // The sample's invented data laid out as the public host has it, served as TAU2_DATA: a run opened by URL or link finds it there.
    dir = mkdtempSync(join(tmpdir(), 'tau-inspect-tau2-review-'));
    const mock = join(dir, 'data', TAU2_PINNED_COMMIT, 'data/tau2/domains/mock');
    mkdirSync(mock, { recursive: true });
    for (const f of ['db.json', 'user_db.json']) copyFileSync(join(ROOT, 'sample-runs/tau2-data/data/tau2/domains/mock', f), join(mock, f));
    ({ server, browser } = await startAppAndBrowser(null, join(dir, 'data')));
    mkdirSync(join(server.outDir, 'tau2-runs'), { recursive: true });
    copyFileSync(SAMPLE, join(server.outDir, 'tau2-runs', 'run.json'));
    writeFileSync(join(server.outDir, 'tau2-runs', 'altered.json'), altered(4));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('a τ² simulation’s note and label survive a reload, mark its row, give τ² issue text, and show in the downloaded report', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
    const page = await context.newPage();
    try {
      await page.goto(`${server.url}#sample=tau2-mock-sample&episode=1`);
      await page.waitForSelector(SIM(1), { timeout: 60_000 });
      await tab(page, 'notes');
      await page.locator('[data-testid="note-label"]').selectOption('task or annotation bug');
      await expect.poll(() => page.locator('[data-testid="note-status"]').textContent()).toBe('saved in this browser');
      await writeNote(page, NOTE);
      await page.getByTestId('task-bug-toggle').click();
      const issue = await page.locator('[data-testid="task-bug-text"]').inputValue();
      expect(issue.split('\n')[0]).toBe('## τ²-bench mock task finish_desks: possible task or annotation bug');
      expect(issue).toContain('- domain: mock');
      expect(issue).toContain(NOTE);

      await page.reload();
      await page.waitForSelector(SIM(1), { timeout: 60_000 });
      await tab(page, 'notes');
      await expect.poll(() => page.locator('[data-testid="episode-note"]').inputValue()).toBe(NOTE);
      expect(await page.locator('[data-testid="note-label"]').inputValue()).toBe('task or annotation bug');
      expect(await page.locator('[data-testid="episode-row"][data-index="1"] [data-testid="label-chip"]').textContent()).toContain('task');
      expect(await page.locator('[data-testid="episode-row"][data-index="0"] [data-testid="label-chip"]').count()).toBe(0);

      await page.waitForSelector(COMPLETE, { timeout: 60_000 });
      const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid="report-button"]').click()]);
      expect(download.suggestedFilename()).toBe('tau2-mock-sample-report.html');
      const path = join(dir, 'report.html');
      await download.saveAs(path);
      const html = readFileSync(path, 'utf8');
      const section = html.slice(html.indexOf('<section id="sim-1">'));
      expect(section).toContain('The &lt;b&gt;desk&lt;/b&gt; count is wrong in the task');
      expect(section).toContain('label: <b>task or annotation bug</b>');
      expect(html).toContain('Content-Security-Policy');
    } finally {
      await context.close();
    }
  }, 180_000);

  it('a shared τ² link reopened in a fresh browser lands on the simulation with its note; a copy whose content differs is told apart', async () => {
    const first = await offlinePage(browser);
    await first.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url.replace(/\/$/, '') });
    await first.page.goto(`${server.url}#run=tau2-runs/run.json&episode=4`);
    await first.page.waitForSelector(SIM(4), { timeout: 60_000 });
    await writeNote(first.page, 'Never said the offsite date');
    await first.page.getByRole('button', { name: /Share/ }).click();
    await first.page.waitForSelector('[data-testid="share-status"]', { timeout: 10_000 });
    const link = await first.page.evaluate(() => navigator.clipboard.readText());
    expect(link).toMatch(/#ep=[A-Za-z0-9_-]+&episode=0&step=0$/);
    await first.context.close();

    // A fresh browser that has a note on a copy of the run where simulation 4 was said otherwise (same id, other content).
    const second = await offlinePage(browser);
    await second.page.goto(`${server.url}#run=tau2-runs/altered.json&episode=4`);
    await second.page.waitForSelector(SIM(4), { timeout: 60_000 });
    await writeNote(second.page, 'A note on the other copy');
    await second.page.goto('about:blank');
    await second.page.goto(link);
    await second.page.waitForSelector(SIM(0), { timeout: 60_000 });
    await tab(second.page, 'notes');
    expect(await second.page.textContent('[data-testid="shared-file"]')).toBe(`${server.url}tau2-runs/run.json`);
    expect(await second.page.textContent('[data-testid="shared-index"]')).toBe('#4');
    // Its own note, not the other copy's: the content tells them apart (no conflict).
    await expect.poll(() => second.page.locator('[data-testid="episode-note"]').inputValue()).toBe('Never said the offsite date');
    expect(await second.page.textContent('[data-testid="shared-notes"]')).toContain('now kept in this browser');
    // Judged here too, with the data the app serves.
    await expect.poll(() => second.page.locator('[data-testid="episode-row"][data-index="0"]').getAttribute('data-reward'), { timeout: 30_000 }).toBe('0');
    await second.context.close();

    // A browser with another note on the same simulation: kept, the link's shown beside it as a conflict.
    const third = await offlinePage(browser);
    await third.page.goto(`${server.url}#run=tau2-runs/run.json&episode=4`);
    await third.page.waitForSelector(SIM(4), { timeout: 60_000 });
    await writeNote(third.page, 'Mine');
    await third.page.goto('about:blank');
    await third.page.goto(link);
    await third.page.waitForSelector(SIM(0), { timeout: 60_000 });
    await tab(third.page, 'notes');
    await expect.poll(() => third.page.textContent('[data-testid="shared-notes"]')).toContain('yours was kept');
    expect(await third.page.textContent('[data-testid="shared-conflict-imported"]')).toBe('Never said the offsite date');
    expect(await third.page.locator('[data-testid="episode-note"]').inputValue()).toBe('Mine');
    await third.context.close();
  }, 240_000);

  it('another trial of the task beside a τ² simulation: the first row where they part, and each side', async () => {
    const { context, page } = await offlinePage(browser);
    try {
      await page.goto(`${server.url}#sample=tau2-mock-sample&episode=4`);
      await page.waitForSelector(SIM(4), { timeout: 60_000 });
      await tab(page, 'trial');
      await page.locator('[data-testid="compare-trial"]').selectOption('3');
      await page.waitForSelector('[data-testid="tau2-trial-table"]', { timeout: 30_000 });
      expect(await page.textContent('[data-testid="tau2-trial-parts"]')).toBe(
        'Same writes, but they part at row 3: communicate “task_3”: A not met, B met (rewards 0.0 and 1.0)',
      );
      expect(await page.locator('[data-testid="tau2-trial-row"][data-apart="true"]').count()).toBe(1);
      await page.locator('[data-testid="compare-trial"]').selectOption('5');
      await expect.poll(() => page.textContent('[data-testid="tau2-trial-parts"]')).toMatch(/^They part at row 1: reference action create_task/);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('two τ² runs compared task by task: the flipped task, pass^k of both by τ²’s convention, each side’s simulation', async () => {
    const { context, page } = await offlinePage(browser);
    try {
      await page.goto(`${server.url}#sample=tau2-mock-sample`);
      await page.waitForSelector(COMPLETE, { timeout: 60_000 });
      await page
        .locator('[data-testid="compare-file-input"]')
        .setInputFiles({ name: 'better.json', mimeType: 'application/json', buffer: Buffer.from(bettered()) });
      await page.waitForSelector('[data-testid="compare-table"]', { timeout: 60_000 });
      expect(await page.locator('[data-testid="compare-task"]').count()).toBe(3);
      const task = page.locator('[data-testid="compare-task"][data-task-name="offsite_for_bram"]');
      expect(await task.getAttribute('data-flip')).toBe('gained');
      expect(await task.locator('[data-testid="compare-a"]').textContent()).toBe('1/3');
      expect(await task.locator('[data-testid="compare-b"]').textContent()).toBe('3/3');
      expect(await page.locator('[data-testid="compare-task"][data-flip="gained"], [data-testid="compare-task"][data-flip="lost"]').count()).toBe(1);
      // τ²'s pass^k, k up to the fewest trials (3): A passes one trial of each task; B all of offsite_for_bram (1/3, 3/3, 1/3).
      const pk = await page.locator('[data-testid="compare-pass-k-text"]').innerText();
      expect(pk.split('\n')).toEqual(['A: pass^1 0.333 · pass^2 0.000 · pass^3 0.000', 'B: pass^1 0.556 · pass^2 0.333 · pass^3 0.333']);
      await task.getByRole('button').click();
      const a = page.locator('[data-testid="compare-episode"][data-side="a"]');
      const b = page.locator('[data-testid="compare-episode"][data-side="b"]');
      await expect.poll(() => a.getAttribute('data-reward')).toBe('0');
      await expect.poll(() => b.getAttribute('data-reward')).toBe('1');
      expect(await b.locator('[data-testid="compare-verdict"]').textContent()).toContain('reward 1.0');
      expect(await a.locator('[data-testid="compare-verdict"]').textContent()).toMatch(/below 1: COMMUNICATE 0\.0/);
    } finally {
      await context.close();
    }
  }, 180_000);

  it('a τ-bench run beside a τ² run is refused with the reason, in either order', async () => {
    const { context, page } = await offlinePage(browser);
    try {
      await page.goto(`${server.url}#sample=tau2-mock-sample`);
      await page.waitForSelector(COMPLETE, { timeout: 60_000 });
      await page.locator('[data-testid="compare-file-input"]').setInputFiles({ name: 'v1.json', mimeType: 'application/json', buffer: V1_SAMPLE });
      const notice = page.locator('[data-testid="notice"]', { hasText: 'Not compared' });
      await notice.waitFor({ timeout: 60_000 });
      expect(await notice.textContent()).toContain('B (v1.json) is a τ-bench (v1) run and A (tau2-mock-sample.json) is a τ²-bench run');
      expect(await page.locator('[data-testid="compare-view"]').count()).toBe(0);
      expect(await page.locator('[data-testid="compare-toggle"]').count()).toBe(0);

      await page.goto(`${server.url}#sample=retail-sample`);
      await page.reload();
      await page.waitForSelector(COMPLETE, { timeout: 60_000 });
      await page.locator('[data-testid="compare-file-input"]').setInputFiles({ name: 'tau2.json', mimeType: 'application/json', buffer: readFileSync(SAMPLE) });
      await notice.waitFor({ timeout: 60_000 });
      expect(await notice.textContent()).toContain('B (tau2.json) is a τ²-bench run and A (retail-sample.json) is a τ-bench (v1) run');
      expect(await page.locator('[data-testid="compare-view"]').count()).toBe(0);
    } finally {
      await context.close();
    }
  }, 180_000);
});
