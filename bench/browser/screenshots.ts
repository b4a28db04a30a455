/**
 * Screenshots for review (not a test): the overview, an episode with its DB diff open, and the
 * outputs view, at 1440×900 and 390×844, in the light theme, and the overview and an episode in
 * the dark one (the system setting), written to /tmp/shots/final-<view>-<width>[-dark].png
 * (`episode`: the episode screen as it opens; `diff`: the DB diff tab, scrolled to it).
 * Uses gpt-4o-airline with ../shared/tau-bench when ../shared is there (unless `--sample`), else the sample run.
 * Run: npx tsx bench/browser/screenshots.ts [out-dir] [--sample]
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { DATA_DIR, hasShared, SHARED_DIR } from '../../test/support/shared';
import { COMPLETE, hasChromium, offlinePage, SCROLL_TO_ROW, startAppAndBrowser, type AppServer } from '../../test/browser/harness';

interface Expected {
  readonly index: number;
  readonly r_actions: boolean | null;
  readonly outputs: Readonly<Record<string, boolean>> | null;
}

interface Plan {
  readonly file: string | null;
  readonly diffEpisode: number;
  readonly outputsEpisode: number;
}

const SIZES = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;

function plan(sampleOnly: boolean): Plan {
  if (!hasShared || sampleOnly) return { file: null, diffEpisode: 1, outputsEpisode: 9 };
  const expected = JSON.parse(readFileSync(join(SHARED_DIR, 'expected', 'gpt-4o-airline.expected.json'), 'utf8')) as Expected[];
  const outputs = expected.find((e) => e.outputs !== null && Object.values(e.outputs).some(Boolean) && !Object.values(e.outputs).every(Boolean));
  return { file: join(SHARED_DIR, 'runs', 'gpt-4o-airline.json'), diffEpisode: 4, outputsEpisode: outputs?.index ?? 58 };
}

async function openEpisode(page: Page, index: number): Promise<void> {
  if (!(await page.evaluate(SCROLL_TO_ROW, index))) throw new Error(`episode ${index} is not in the list`);
  await page.locator(`[data-testid="episode-row"][data-index="${index}"]`).click();
  await page.waitForSelector(`[data-testid="episode-screen"][data-episode="${index}"]`, { timeout: 30_000 });
}

async function shoot(browser: Browser, server: AppServer, p: Plan, size: (typeof SIZES)[number], out: string, dark: boolean): Promise<string[]> {
  const { context, page, blocked } = await offlinePage(browser, size);
  await page.emulateMedia({ colorScheme: dark ? 'dark' : 'light' });
  await context.addInitScript('globalThis.__name ??= (f) => f;');
  const saved: string[] = [];
  const save = async (view: string): Promise<void> => {
    await page.evaluate(() => document.fonts.ready);
    await page.waitForTimeout(150);
    const path = join(out, `final-${view}-${size.width}${dark ? '-dark' : ''}.png`);
    await page.screenshot({ path });
    saved.push(path);
  };
  try {
    await page.goto(server.url);
    await page.waitForSelector(COMPLETE, { timeout: 60_000 });
    if (p.file) {
      await page.setInputFiles('[data-testid="open-file-input"]', p.file);
      await page.waitForSelector('[data-testid="episode-table"][data-total="200"]', { timeout: 30_000 });
      await page.waitForSelector(COMPLETE, { timeout: 170_000 });
    }
    await save('overview');

    await openEpisode(page, p.diffEpisode);
    await save('episode');
    if (dark) return saved;
    await page.getByTestId('tab-diff').click();
    const link = page
      .getByTestId('db-diff')
      .getByRole('button', { name: /^Go to agent step \d+/ })
      .first();
    if (await link.count()) await link.click();
    await page.getByTestId('db-diff').scrollIntoViewIfNeeded();
    await save('diff');

    if (size.width < 1024) await page.getByRole('button', { name: 'Back to the episode list' }).click();
    await openEpisode(page, p.outputsEpisode);
    await page.getByTestId('tab-outputs').click();
    await page
      .getByTestId('outputs-panel')
      .getByRole('button', { name: /^Show where / })
      .first()
      .click();
    if (size.width < 1024) {
      await page.locator('[data-testid="dialogue"] mark').first().scrollIntoViewIfNeeded();
      await save('outputs-match');
    }
    await page.getByTestId('outputs-panel').scrollIntoViewIfNeeded();
    await save('outputs');
    if (blocked.length) console.log(`  blocked non-local requests: ${blocked.join(', ')}`);
    return saved;
  } finally {
    await context.close();
  }
}

export async function takeScreenshots(out = '/tmp/shots', sampleOnly = false): Promise<void> {
  if (!hasChromium) {
    console.log('screenshots skipped: /usr/bin/chromium missing');
    return;
  }
  mkdirSync(out, { recursive: true });
  const p = plan(sampleOnly);
  const { server, browser } = await startAppAndBrowser(hasShared ? DATA_DIR : null);
  try {
    console.log(`screenshots of ${p.file ?? 'the sample run'}: DB diff of episode ${p.diffEpisode}, outputs of episode ${p.outputsEpisode}`);
    for (const dark of [false, true]) for (const size of SIZES) for (const path of await shoot(browser, server, p, size, out, dark)) console.log(`  ${path}`);
  } finally {
    await browser.close();
    await server.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  await takeScreenshots(
    args.find((a) => !a.startsWith('--')),
    args.includes('--sample'),
  );
}
