import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { NO_BROWSER_SERVICES, offlinePage, skipBrowser, startAppAndBrowser, type AppServer } from './harness';

/** What-if replay and sharing an episode in the link, on the bundled sample with no network. */
describe.skipIf(skipBrowser)('what-if replay and sharing, offline', () => {
  let server: AppServer;
  let browser: Browser;
  beforeAll(async () => {
    ({ server, browser } = await startAppAndBrowser(null, NO_BROWSER_SERVICES));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('fixing the wrongly exchanged item in a what-if replay turns reward 0 into 1', async () => {
    const { page, blocked, context } = await offlinePage(browser);
    await page.goto(`${server.url}#sample=retail-sample&episode=1&step=0`);
    await page.waitForSelector('[data-testid="episode-screen"]', { timeout: 30_000 });
    await page.keyboard.press('End');
    for (let i = 0; i < 20 && !(await page.textContent('[data-testid="step-current"]'))?.includes('exchange_delivered_order_items'); i++) await page.keyboard.press('k');
    expect(await page.textContent('[data-testid="verdict-reward"]')).toContain('0.0');
    await page.getByRole('button', { name: /What if step/ }).click();
    const args = page.locator('#what-if-args');
    const original = await args.inputValue();
    expect(original).toContain('2051947368');
    await args.fill(original.replace('2051947368', '6619380254'));
    await page.getByRole('button', { name: 'Replay with these arguments' }).click();
    await page.waitForSelector('[data-testid="what-if-reward"]', { timeout: 15_000 });
    expect(await page.textContent('[data-testid="what-if-reward"]')).toBe('1.0');
    expect(await page.textContent('[data-testid="hash-agent"]')).toBe(await page.textContent('[data-testid="hash-reference"]'));
    await page.getByRole('button', { name: 'Back to the recorded episode' }).click();
    await page.waitForFunction(() => !document.querySelector('[data-testid="what-if-reward"]'));
    expect(await page.textContent('[data-testid="verdict-reward"]')).toContain('0.0');
    expect(blocked).toEqual([]);
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
    expect(second.blocked).toEqual([]);
    await second.context.close();
  });
});
