import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPLETE, downloadText, launchChromium, skipBrowser, startApp, type AppServer } from './harness';

const HOSTILE = '<img src=x onerror="document.title=1"><b>bold</b>';

describe.skipIf(skipBrowser)('notes in headless Chromium', () => {
  let server: AppServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startApp(null), launchChromium()]);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('keeps a note and a label across a reload, shows hostile text as text, counts and filters labels', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    try {
      await page.goto(server.url);
      await page.waitForSelector(COMPLETE, { timeout: 60_000 });
      await page.locator('[data-testid="episode-row"][data-index="1"]').click();
      await page.getByTestId('tab-notes').click();
      await page.waitForSelector('[data-testid="episode-notes"]');
      await page.locator('[data-testid="episode-note"]').fill(HOSTILE);
      await page.locator('[data-testid="episode-note"]').blur();
      await page.locator('[data-testid="note-label"]').selectOption('agent error');
      await expect.poll(() => page.locator('[data-testid="note-status"]').textContent()).toBe('saved in this browser');
      await page.reload();
      await page.waitForSelector(COMPLETE, { timeout: 60_000 });
      await expect.poll(() => page.locator('[data-testid="label-counts"]').textContent()).toBe('agent error: 1');
      // The label shows as a chip in the overview's row.
      const chip = page.locator('[data-testid="episode-row"][data-index="1"] [data-testid="label-chip"]');
      expect(await chip.getAttribute('data-label')).toBe('agent error');
      expect(await page.locator('[data-testid="label-chip"]').count()).toBe(1);
      await page.locator('[data-testid="label-filter"]').selectOption('agent error');
      await expect.poll(() => page.locator('[data-testid="episode-row"]').count()).toBe(1);
      await page.locator('[data-testid="episode-row"][data-index="1"]').click();
      await page.getByTestId('tab-notes').click();
      await expect.poll(() => page.locator('[data-testid="episode-note"]').inputValue()).toBe(HOSTILE);
      expect(await page.locator('[data-testid="note-label"]').inputValue()).toBe('agent error');
      expect(await page.title()).not.toBe('1');
      expect(await page.locator('img[src="x"]').count()).toBe(0);
    } finally {
      await context.close();
    }
  }, 180_000);

  it('exports notes, clears them, imports them back identical; a changed note is kept and the conflict shown; a file that is no export changes nothing', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
    const page = await context.newPage();
    const exported = async (p: Page): Promise<{ text: string; episodes: unknown }> => {
      const [download] = await Promise.all([p.waitForEvent('download'), p.locator('[data-testid="notes-export"]').click()]);
      const text = await downloadText(download);
      return { text, episodes: (JSON.parse(text) as { episodes: unknown }).episodes };
    };
    const importText = (p: Page, name: string, text: string) =>
      p.locator('[data-testid="notes-import-file"]').setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });
    const note = page.locator('[data-testid="episode-note"]');
    try {
      await page.goto(server.url);
      await page.waitForSelector(COMPLETE, { timeout: 60_000 });
      await page.locator('[data-testid="episode-row"][data-index="2"]').click();
      await page.getByTestId('tab-notes').click();
      await note.fill('first note');
      await note.blur();
      await page.locator('[data-testid="note-label"]').selectOption('task or annotation bug');
      await expect.poll(() => page.locator('[data-testid="note-status"]').textContent()).toBe('saved in this browser');
      const before = await exported(page);
      expect(before.episodes).toHaveLength(1);

      await page.locator('[data-testid="notes-clear"]').click();
      await page.locator('[data-testid="notes-clear"]').click();
      await expect.poll(() => page.locator('[data-testid="label-counts"]').textContent()).toBe('no labels');
      await expect.poll(() => note.inputValue()).toBe('');

      await importText(page, 'notes.json', before.text);
      await expect.poll(() => page.locator('[data-testid="notes-import-result"]').textContent()).toContain('1 new');
      await expect.poll(() => note.inputValue()).toBe('first note');
      expect((await exported(page)).episodes).toEqual(before.episodes);

      await note.fill('changed here');
      await note.blur();
      await expect.poll(() => page.locator('[data-testid="note-status"]').textContent()).toBe('saved in this browser');
      await importText(page, 'notes.json', before.text);
      await expect.poll(() => page.locator('[data-testid="notes-conflicts"]').textContent()).toContain('kept “changed here”, imported “first note”');
      expect(await note.inputValue()).toBe('changed here');
      // Settled per note: take the imported one; the list says so and the note is the imported text.
      await page.getByTestId('conflict-theirs').click();
      await expect.poll(() => note.inputValue()).toBe('first note');
      expect(await page.getByTestId('notes-conflict').getAttribute('data-resolved')).toBe('theirs');
      // And the chip of the labelled episode shows in the list beside the open episode.
      expect(await page.locator('[data-testid="episode-row"][data-index="2"] [data-testid="label-chip"]').getAttribute('data-label')).toBe(
        'task or annotation bug',
      );

      const afterConflict = (await exported(page)).episodes;
      await importText(page, HOSTILE + '.json', '[{"task_id": 0}]');
      await expect.poll(() => page.locator('[data-testid="notes-import-result"]').textContent()).toContain(`Nothing imported from ${HOSTILE}.json`);
      expect((await exported(page)).episodes).toEqual(afterConflict);
      expect(await page.locator('img[src="x"]').count()).toBe(0);
    } finally {
      await context.close();
    }
  }, 180_000);
});
