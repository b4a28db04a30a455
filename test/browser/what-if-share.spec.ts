import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { COMPLETE, downloadText, offlinePage, skipBrowser, startAppAndBrowser, type AppServer } from './harness';

const SCREEN = '[data-testid="episode-screen"]';
const SAMPLE = readFileSync(join(resolve(import.meta.dirname, '../..'), 'sample-runs/runs/retail-sample.json'));

/** Moves back from the last step to the exchange call of sample episode 1 and replays it with the right item id. */
async function fixExchange(page: Page): Promise<void> {
  await page.keyboard.press('End');
  for (let i = 0; i < 20 && !(await page.textContent('[data-testid="step-current"]'))?.includes('exchange_delivered_order_items'); i++)
    await page.keyboard.press('k');
  await page.getByTestId('tab-whatif').click();
  const args = page.locator('#what-if-args');
  await args.fill((await args.inputValue()).replace('2051947368', '6619380254'));
  await page.getByRole('button', { name: 'Replay with these arguments' }).click();
  await page.waitForSelector('[data-testid="what-if-reward"]', { timeout: 15_000 });
}

/** What-if replay and sharing an episode in the link, on the bundled sample with no network. */
describe.skipIf(skipBrowser)('what-if replay and sharing, offline', () => {
  let server: AppServer;
  let browser: Browser;
  beforeAll(async () => {
    ({ server, browser } = await startAppAndBrowser(null));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('fixing the wrongly exchanged item in a what-if replay turns reward 0 into 1', async () => {
    const { page, context } = await offlinePage(browser);
    await page.goto(`${server.url}#sample=retail-sample&episode=1&step=0`);
    await page.waitForSelector('[data-testid="episode-screen"]', { timeout: 30_000 });
    await page.keyboard.press('End');
    for (let i = 0; i < 20 && !(await page.textContent('[data-testid="step-current"]'))?.includes('exchange_delivered_order_items'); i++)
      await page.keyboard.press('k');
    expect(await page.textContent('[data-testid="verdict-reward"]')).toContain('0.0');
    await page.getByTestId('tab-whatif').click();
    const args = page.locator('#what-if-args');
    const original = await args.inputValue();
    expect(original).toContain('2051947368');
    await args.fill(original.replace('2051947368', '6619380254'));
    await page.getByRole('button', { name: 'Replay with these arguments' }).click();
    await page.waitForSelector('[data-testid="what-if-reward"]', { timeout: 15_000 });
    expect(await page.textContent('[data-testid="what-if-reward"]')).toBe('1.0');
    expect(await page.textContent('[data-testid="hash-agent"]')).toBe(await page.textContent('[data-testid="hash-reference"]'));
    // The edited verdict beside the unedited and recorded ones, in the verdict line and the title; the change named by its step.
    const recorded = await page.getAttribute('[data-testid="episode-row"][data-index="1"]', 'data-recorded-reward');
    expect(await page.textContent('[data-testid="verdict-what-if"]')).toBe(`what-if 1.0 · unedited: recomputed 0.0 · recorded ${Number(recorded).toFixed(1)}`);
    expect(await page.textContent('[data-testid="title-what-if"]')).toMatch(/what-if 1/);
    expect(await page.getByRole('list', { name: 'What-if changes' }).textContent()).toMatch(/^new arguments for step \d+ \(message #\d+\)/);
    // The report made from this edited view shows the edit in words, the reward before → after and the DB field that changed.
    await page.waitForSelector(COMPLETE, { timeout: 60_000 });
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid="report-button"]').click()]);
    const html = await downloadText(download);
    const at = html.indexOf('<section id="ep-1"');
    const section = html.slice(at, html.indexOf('</section>', at));
    expect(section).toContain('data-testid="report-what-if"');
    expect(section).toMatch(/<li>step \d+ \(message #\d+\) changed to exchange_delivered_order_items\([^<]*6619380254[^<]*\)<\/li>/);
    expect(section).toMatch(/reward 0\.0 → <b class="pass">1\.0<\/b>/);
    expect(section).toContain(
      '<td>DB orders/#W7315560 · exchange_new_items[0]</td><td>&quot;2051947368&quot; (reference: &quot;6619380254&quot;)</td><td>as the reference</td>',
    );
    expect(html.match(/data-testid="report-what-if"/g)).toHaveLength(1);
    expect(html).not.toMatch(/<script|[\u202A-\u202E\u2066-\u2069]/iu);
    await page.getByRole('button', { name: 'Back to the recorded episode' }).click();
    await page.waitForFunction(() => !document.querySelector('[data-testid="what-if-reward"]'));
    expect(await page.textContent('[data-testid="verdict-reward"]')).toContain('0.0');
    await context.close();
  });

  it('a shared episode link opens that episode at that step in a fresh browser, with no server holding the file', async () => {
    const first = await offlinePage(browser);
    await first.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url.replace(/\/$/, '') });
    await first.page.goto(`${server.url}#sample=retail-sample&episode=5&step=2`);
    await first.page.waitForSelector('[data-testid="episode-screen"]', { timeout: 30_000 });
    const sentence = await first.page.textContent('[data-testid="verdict-sentence"]');
    await first.page.getByRole('button', { name: /Share/ }).click();
    await first.page.waitForSelector('[data-testid="share-status"]', { timeout: 10_000 });
    const link = await first.page.evaluate(() => navigator.clipboard.readText());
    expect(link).toMatch(/#ep=[A-Za-z0-9_-]+&episode=0&step=2$/);
    await first.context.close();

    const second = await offlinePage(browser);
    await second.page.goto(link);
    await second.page.waitForSelector('[data-testid="episode-screen"][data-step="2"]', { timeout: 30_000 });
    await second.page.waitForFunction(() => document.querySelector('[data-testid="verdict-sentence"]')?.textContent?.length);
    expect(await second.page.textContent('[data-testid="verdict-sentence"]')).toBe(sentence);
    await second.context.close();
  });

  it('a share link from a local file brings the file name, index, step, note and edit into a fresh browser; a plain link asks for the file', async () => {
    const name = 'my <b>run</b>.json';
    const first = await offlinePage(browser);
    await first.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url.replace(/\/$/, '') });
    const { page } = first;
    await page.goto(`${server.url}#sample=retail-sample`);
    await page.waitForSelector('[data-testid="episode-row"]', { timeout: 30_000 });
    await page.setInputFiles('[data-testid="open-file-input"]', { name, mimeType: 'application/json', buffer: SAMPLE });
    await page.waitForFunction(() => location.hash.startsWith('#file='));
    await page.evaluate(() => (location.hash = `${location.hash}&episode=1&step=0`));
    await page.waitForSelector(`${SCREEN}[data-episode="1"] [data-testid="verdict-reward"]`, { timeout: 30_000 });
    await fixExchange(page);
    const step = await page.getAttribute(SCREEN, 'data-step');
    await page.getByTestId('tab-notes').click();
    await page.locator('[data-testid="episode-note"]').fill('Exchanged the wrong item');
    await page.locator('[data-testid="episode-note"]').blur();
    await expect.poll(() => page.locator('[data-testid="note-status"]').textContent()).toBe('saved in this browser');

    await page.getByLabel('Failed only').check();
    await page.getByRole('button', { name: 'Copy link' }).click();
    expect(await page.textContent('[data-testid="copy-link-status"]')).toContain(
      `The recipient must open ${name} themselves; the link keeps episode, step, filters.`,
    );
    const fileLink = await page.evaluate(() => navigator.clipboard.readText());
    expect(fileLink).toMatch(/#file=my%20%3Cb%3Erun%3C\/b%3E\.json&episode=1&step=\d+&failed=1&whatif=/);

    await page.getByRole('button', { name: /Share/ }).click();
    await page.waitForSelector('[data-testid="share-status"]', { timeout: 10_000 });
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).toMatch(new RegExp(`#ep=[A-Za-z0-9_-]+&episode=0&step=${step}$`));
    await first.context.close();

    const second = await offlinePage(browser);
    await second.page.goto(link);
    await second.page.waitForSelector(`${SCREEN}[data-step="${step}"]`, { timeout: 30_000 });
    expect(await second.page.textContent('[data-testid="shared-file"]')).toBe(name);
    expect(await second.page.textContent('[data-testid="shared-index"]')).toBe('#1');
    await second.page.waitForSelector('[data-testid="what-if-reward"]', { timeout: 15_000 });
    expect(await second.page.textContent('[data-testid="what-if-reward"]')).toBe('1.0');
    await second.page.getByTestId('tab-notes').click();
    await expect.poll(() => second.page.locator('[data-testid="episode-note"]').inputValue()).toBe('Exchanged the wrong item');
    expect(await second.page.textContent('[data-testid="shared-notes"]')).toContain('now kept in this browser');

    // The plain link names the local file: a fresh browser asks for it, then goes to the place.
    await second.page.goto('about:blank');
    await second.page.goto(fileLink);
    await second.page.waitForSelector('[data-testid="file-request"]', { timeout: 30_000 });
    expect(await second.page.textContent('[data-testid="file-request-name"]')).toBe(name);
    await second.page.setInputFiles('[data-testid="file-request-input"]', { name, mimeType: 'application/json', buffer: SAMPLE });
    await second.page.waitForSelector(`${SCREEN}[data-episode="1"][data-step="${step}"]`, { timeout: 30_000 });
    await second.page.waitForSelector('[data-testid="what-if-reward"]', { timeout: 15_000 });
    expect(await second.page.getByLabel('Failed only').isChecked()).toBe(true);
    await second.context.close();
  });

  it('two trials of a task side by side part where one passed another item id, with the verdict of each', async () => {
    const { page, context } = await offlinePage(browser);
    await page.goto(`${server.url}#sample=retail-sample&episode=1&step=0`);
    await page.waitForSelector(`${SCREEN} [data-testid="verdict-reward"]`, { timeout: 30_000 });
    await page.locator('[data-testid="compare-trial"]').selectOption('8');
    await page.waitForSelector('[data-testid="trial-parts"]', { timeout: 15_000 });
    expect(await page.textContent('[data-testid="trial-reward-a"]')).toBe('0.0');
    expect(await page.textContent('[data-testid="trial-reward-b"]')).toBe('1.0');
    expect(await page.textContent('[data-testid="trial-parts"]')).toMatch(
      /They part at row \d+, the first write where they differ: both call exchange_delivered_order_items \(reference action \d+\) with different arguments/,
    );
    const parted = page.locator('[data-testid="trial-row"][data-parts="true"]');
    expect(await parted.count()).toBe(1);
    expect(await parted.textContent()).toContain('2051947368');
    await context.close();
  });

  it('an episode too large for a link is not copied: the app says so and offers the episode file or the report', async () => {
    const { page, context } = await offlinePage(browser);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url.replace(/\/$/, '') });
    const episodes = JSON.parse(SAMPLE.toString('utf8')) as { traj: { role: string; content: string }[] }[];
    // 60,000 random base64 characters deflate to about 45,000 bytes: far past the 32,000-character limit once base64url again.
    episodes[1]!.traj.splice(1, 0, { role: 'user', content: randomBytes(45_000).toString('base64') });
    await page.goto(`${server.url}#sample=retail-sample`);
    await page.waitForSelector('[data-testid="episode-row"]', { timeout: 30_000 });
    await page.setInputFiles('[data-testid="open-file-input"]', {
      name: 'big.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify([episodes[1]])),
    });
    await page.waitForFunction(() => location.hash.startsWith('#file='));
    await page.evaluate(() => (location.hash = `${location.hash}&episode=0&step=0`));
    await page.waitForSelector('[data-testid="episode-pane"]', { timeout: 30_000 });
    await page.evaluate(() => navigator.clipboard.writeText('untouched'));
    await page.getByRole('button', { name: /Share/ }).click();
    const alert = page.locator('[data-testid="share-too-long"]');
    await alert.waitFor({ timeout: 10_000 });
    expect(await alert.textContent()).toMatch(/too large for a link: it would be [\d,]+ characters, and links past 32,000/);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('untouched');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download the episode file' }).click()]);
    expect(download.suggestedFilename()).toBe('big-episode-0.json');
    const saved = JSON.parse(await downloadText(download)) as { traj: { content: string }[] };
    expect(saved.traj[1]!.content).toBe(episodes[1]!.traj[1]!.content);
    // Or the run's report (the one the Report button makes), from the same message.
    await page.waitForSelector('[data-testid="share-too-long-report"]:not([disabled])', { timeout: 30_000 });
    const [report] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), page.getByTestId('share-too-long-report').click()]);
    expect(report.suggestedFilename()).toBe('big-report.html');
    expect(await downloadText(report)).toContain('data-testid="report-episode"');
    await context.close();
  });
});
