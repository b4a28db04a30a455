/**
 * Long task ids (issue 34, item 4): τ²'s telecom ids (`[mobile_data_issue]user_abroad_roaming_enabled_off[PERSONA:None]`,
 * up to 214 characters in ../shared/tau2/runs) shown whole in the overview's task column where they fit — the column
 * sized by content, the id wrapping between its parts — and otherwise abbreviated in the middle, keeping their end
 * (the persona), with the whole id on hover (the title), for a screen reader and in the copy; at 1440 and at 390 px.
 * The open simulation's title is not cut, and the library heat map's task labels are the same.
 */
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeTau2, TAU2_DIR } from '../support/shared';
import { offlinePage, skipBrowser, startAppAndBrowser, type AppServer } from './harness';

const suite = skipBrowser ? describe.skip : describeTau2;

/** Ids of 40–65 characters (pr17 gpt-4o) and of 60–214 (gym gpt-4.1, several issues joined by `|`). */
const FILES = ['sierra-research__pr17-gpt-4o-telecom.json', 'sierra-research__gym-gpt-4.1-telecom.json'];
const taskIds = (file: string): string[] =>
  (JSON.parse(readFileSync(join(TAU2_DIR, 'runs', file), 'utf8')) as { simulations: { task_id: string }[] }).simulations.map((s) => s.task_id);

/** A row's task cell and a heat map's task label, found by the table's structure (the same on every version of the app). */
const TASK_CELL = '[data-testid="episode-row"] > [role="gridcell"]:nth-child(2)';
const HEAT_TASK = '[data-testid="heat-map"] tbody th[scope="row"]';

interface Shown {
  readonly index: number;
  readonly whole: string;
  /** What the eye sees (the abbreviation, or the whole id), what assistive technology reads, what copying gives. */
  readonly seen: string;
  readonly read: string;
  readonly copied: string;
  /** The cell's content fits in it (nothing cut by the column or the row). */
  readonly fits: boolean;
}

/** Every task cell of the list's rows drawn now (`sel`: the cells), as the page shows, reads and copies them. */
const cells = (page: Page, sel: string, index: string) =>
  page.locator(sel).evaluateAll(
    (els, idx) =>
      els.map((el) => {
        const visible = (n: Node): string => {
          if (n.nodeType === Node.TEXT_NODE) return n.textContent ?? '';
          const e = n as HTMLElement;
          const st = getComputedStyle(e);
          if (st.display === 'none' || e.classList.contains('sr-only')) return '';
          return [...e.childNodes].map(visible).join('');
        };
        const read = (n: Node): string => {
          if (n.nodeType === Node.TEXT_NODE) return n.textContent ?? '';
          const e = n as HTMLElement;
          if (e.getAttribute('aria-hidden') === 'true' || getComputedStyle(e).display === 'none') return '';
          return [...e.childNodes].map(read).join('');
        };
        const range = document.createRange();
        range.selectNodeContents(el);
        const sel = getSelection()!;
        sel.removeAllRanges();
        sel.addRange(range);
        const copied = sel.toString();
        sel.removeAllRanges();
        return {
          index: Number(el.closest(`[${idx}]`)?.getAttribute(idx) ?? -1),
          whole: el.getAttribute('title') ?? '',
          seen: visible(el),
          read: read(el),
          copied,
          fits: el.scrollWidth <= el.clientWidth + 1 && el.scrollHeight <= el.clientHeight + 1,
        };
      }),
    index,
  ) as Promise<Shown[]>;

/** A shown id is the whole id, or its abbreviation: a head of it, `…`, its last characters (the persona). */
function expectShown(s: Shown, id: string, whole: boolean): void {
  expect(s.whole, `row ${s.index}`).toBe(id);
  expect(s.fits, `row ${s.index}: ${id} is cut`).toBe(true);
  expect(s.read, `row ${s.index}`).toBe(id);
  expect(s.copied.replace(/\s+/g, ''), `row ${s.index}`).toBe(id);
  if (whole) expect(s.seen, `row ${s.index}`).toBe(id);
  else if (s.seen !== id) {
    const [head, tail] = s.seen.split('…');
    expect(id.startsWith(head!) && id.endsWith(tail!) && tail!.length >= 6, `row ${s.index}: "${s.seen}" for ${id}`).toBe(true);
  }
}

suite('long task ids (telecom) in the overview, the title and the heat map, at 1440 and 390 px', () => {
  let server: AppServer;
  let browser: Browser;
  let dir = '';

  beforeAll(async () => {
    ({ server, browser } = await startAppAndBrowser(null, join(TAU2_DIR, 'data')));
    mkdirSync(join(server.outDir, 'tau2-runs'), { recursive: true });
    for (const f of FILES) copyFileSync(join(TAU2_DIR, 'runs', f), join(server.outDir, 'tau2-runs', f));
    dir = mkdtempSync(join(tmpdir(), 'tau-inspect-long-ids-'));
    cpSync(join(TAU2_DIR, 'runs', FILES[0]!), join(dir, 'lib', FILES[0]!));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    [FILES[0]!, 1440, 900, true],
    [FILES[0]!, 390, 844, false],
    [FILES[1]!, 1440, 900, false],
    [FILES[1]!, 390, 844, false],
  ] as const)(
    '%s at %i px: every task id whole, or abbreviated keeping its end, never cut; whole on hover, read and copied',
    async (file, width, height, whole) => {
      const ids = taskIds(file);
      const { context, page } = await offlinePage(browser, { width, height });
      try {
        await page.goto(`${server.url}#run=tau2-runs/${file}`);
        await page.waitForSelector(TASK_CELL, { timeout: 120_000 });
        const seen = new Map<number, Shown>();
        const scroller = page.getByTestId('episode-scroller');
        for (let guard = 0; guard < 100; guard++) {
          for (const s of await cells(page, TASK_CELL, 'data-index')) seen.set(s.index, s);
          const end = await scroller.evaluate((sc) => sc.scrollTop + sc.clientHeight >= sc.scrollHeight - 1);
          if (end) break;
          await scroller.evaluate((sc) => (sc.scrollTop += Math.max(40, sc.clientHeight - 40)));
          await page.waitForTimeout(50);
        }
        expect(seen.size).toBe(ids.length);
        for (const [i, s] of seen) expectShown(s, ids[i]!, whole);
        // The open simulation's title names its whole task, not cut.
        await scroller.evaluate((sc) => (sc.scrollTop = 0));
        await page.locator('[data-testid="episode-row"][data-index="0"]').click();
        const title = page.locator('#episode-pane h2').first();
        await title.waitFor({ timeout: 60_000 });
        expect(await title.evaluate((h) => h.scrollWidth <= h.clientWidth + 1 && h.scrollHeight <= h.clientHeight + 1)).toBe(true);
        expect(await title.getAttribute('title')).toContain(ids[0]!);
      } finally {
        await context.close();
      }
    },
    180_000,
  );

  it.each([
    [1440, 900],
    [390, 844],
  ] as const)(
    'the library heat map at %i px: each task label whole or abbreviated keeping its end, never cut, whole on hover',
    async (width, height) => {
      const ids = new Set(taskIds(FILES[0]!));
      const { context, page } = await offlinePage(browser, { width, height });
      try {
        await page.goto(server.url);
        await page.setInputFiles('[data-testid="library-folder-input"]', join(dir, 'lib'));
        await page.waitForSelector('[data-testid="leader-row"]', { timeout: 120_000 });
        await page.getByTestId('library-tab-heatmap').click();
        await page.waitForSelector(HEAT_TASK, { timeout: 60_000 });
        const labels = await cells(page, HEAT_TASK, 'data-never');
        expect(labels.length).toBeGreaterThan(0);
        for (const s of labels) {
          expect(ids.has(s.whole), s.whole).toBe(true);
          expectShown(s, s.whole, false);
        }
        // The run columns name their run on hover.
        expect(await page.locator('[data-testid="heat-map"] thead th[title]').first().getAttribute('title')).toContain(FILES[0]!);
      } finally {
        await context.close();
      }
    },
    180_000,
  );
});
