import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offlinePage, READ_ALL_ROWS, skipBrowser, startAppAndBrowser, type AppServer } from './harness';
import { mulberry32 as rng } from '../support/prng';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SAMPLE = JSON.parse(readFileSync(join(ROOT, 'sample-runs/runs/retail-sample.json'), 'utf8')) as unknown[];
/** `FUZZ_SEED=<n>` replays another sequence; the seed is in every failure message. */
const SEED = Number(process.env.FUZZ_SEED ?? 20261202);

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

interface Case {
  readonly name: string;
  readonly what: string;
  readonly bytes: Buffer;
}

function mutations(seed: number, count: number): Case[] {
  const r = rng(seed);
  const int = (n: number): number => Math.floor(r() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  const base = (): Json => {
    const start = int(SAMPLE.length - 2);
    return structuredClone(SAMPLE.slice(start, start + 1 + int(3))) as Json;
  };
  /** Every container in a JSON value, with the keys or indices it holds. */
  const containers = (v: Json, out: (Json[] | { [k: string]: Json })[] = []): (Json[] | { [k: string]: Json })[] => {
    if (v !== null && typeof v === 'object') {
      out.push(v);
      for (const x of Array.isArray(v) ? v : Object.values(v)) containers(x, out);
    }
    return out;
  };
  const others: readonly Json[] = [null, true, false, 0, -1, 1.5, 1e308, '', 'text', '9'.repeat(400), [], {}, [null], { role: 42 }];
  const swapType = (v: Json): string => {
    const c = pick(containers(v));
    const keys = Array.isArray(c) ? c.map((_, i) => i) : Object.keys(c);
    if (keys.length === 0) return 'nothing to swap';
    const k = pick(keys as (string | number)[]);
    const to = structuredClone(pick(others));
    (c as Record<string | number, Json>)[k] = to;
    return `type swap at ${String(k)} → ${JSON.stringify(to).slice(0, 20)}`;
  };
  const deleteKey = (v: Json): string => {
    const objs = containers(v).filter((c): c is { [k: string]: Json } => !Array.isArray(c) && Object.keys(c).length > 0);
    if (objs.length === 0) return 'nothing to delete';
    const o = pick(objs);
    const k = pick(Object.keys(o));
    delete o[k];
    return `deleted ${k}`;
  };
  const NUMBERS = [
    '1e400',
    '-1e400',
    '123456789012345678901234567890123456789',
    '-0',
    'NaN',
    'Infinity',
    '-Infinity',
    '1.7976931348623157e309',
    '0.000000000000000000000000000001',
    '1E+2',
    '00012',
  ];
  const encode = (text: string, how: string): Buffer => {
    switch (how) {
      case 'utf8-bom':
        return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
      case 'utf16le-bom':
        return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
      case 'utf16be-bom': {
        const le = Buffer.from(text, 'utf16le');
        for (let i = 0; i + 1 < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1]!, le[i]!];
        return Buffer.concat([Buffer.from([0xfe, 0xff]), le]);
      }
      case 'utf16le':
        return Buffer.from(text, 'utf16le');
      default:
        return Buffer.from(text);
    }
  };
  const cases: Case[] = [];
  for (let i = 0; i < count; i++) {
    const v = base();
    const steps: string[] = [];
    let text: string | null = null;
    const rounds = 1 + int(2);
    for (let round = 0; round < rounds; round++) {
      const kind = pick(['truncate', 'flip', 'swap', 'delete', 'duplicate', 'number', 'encoding', 'swap', 'delete'] as const);
      if (kind === 'swap' || kind === 'delete') {
        // Structural changes apply before the text is taken (then they would be lost).
        if (text === null) steps.push(kind === 'swap' ? swapType(v) : deleteKey(v));
      } else {
        let t: string = text ?? JSON.stringify(v, null, int(2) === 0 ? undefined : 1);
        if (kind === 'truncate') {
          const at = int(t.length);
          t = t.slice(0, at);
          steps.push(`truncated at ${at}`);
        } else if (kind === 'flip') {
          const b = Buffer.from(t);
          const n = 1 + int(8);
          for (let j = 0; j < n; j++) {
            const at = int(b.length);
            b[at] = b[at]! ^ (1 + int(255));
          }
          t = b.toString('latin1');
          steps.push(`${n} byte flips`);
        } else if (kind === 'duplicate') {
          const keys = [...t.matchAll(/"([a-z_]+)": ?/g)];
          if (keys.length) {
            const m = pick(keys);
            t = `${t.slice(0, m.index)}"${m[1]}": ${pick(['null', '1', '"dup"', '[]', '{}'])}, ${t.slice(m.index)}`;
            steps.push(`duplicated key ${m[1]}`);
          }
        } else if (kind === 'number') {
          const nums = [...t.matchAll(/-?\d+(\.\d+)?([eE][+-]?\d+)?/g)];
          if (nums.length) {
            const m = pick(nums);
            const to = pick(NUMBERS);
            t = `${t.slice(0, m.index)}${to}${t.slice(m.index + m[0].length)}`;
            steps.push(`number ${m[0]} → ${to}`);
          }
        }
        text = t;
      }
    }
    const how = pick(['utf8', 'utf8', 'utf8', 'utf8', 'utf8-bom', 'utf16le-bom', 'utf16be-bom', 'utf16le']);
    const final = text ?? JSON.stringify(v);
    // A flipped text is already bytes (latin1); others are encoded as chosen.
    const bytes = steps.some((s) => s.endsWith('byte flips')) ? Buffer.from(final, 'latin1') : encode(final, how);
    cases.push({ name: `fuzz-${i}.json`, what: `${steps.join(', ')}; ${how}`, bytes });
  }
  return cases;
}

/** Waits until the app has answered for the file: opened it (the link names it) or said why not. */
async function settled(page: Page, name: string): Promise<'opened' | 'refused'> {
  const handle = await page.waitForFunction(
    (n) => {
      if (new URLSearchParams(location.hash.slice(1)).get('file') === n) return 'opened';
      for (const el of document.querySelectorAll('[data-testid="notice"]')) if (el.textContent?.includes(n)) return 'refused';
      return false;
    },
    name,
    { timeout: 30_000, polling: 50 },
  );
  return (await handle.jsonValue()) as 'opened' | 'refused';
}

/**
 * Seeded fuzz of results files through the real app: `files` mutated files opened one after another in one
 * page. The gate runs a few (test/browser/fuzz.spec.ts), `npm run soak` the full 120 (test/soak/).
 */
export function fuzzSuite(files: number): void {
  describe.skipIf(skipBrowser)(`seeded fuzz of results files through the real app (${files} files)`, () => {
    let server: AppServer;
    let browser: Browser;

    beforeAll(async () => {
      ({ server, browser } = await startAppAndBrowser(null));
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    it(`opens ${files} mutated files in one page without an uncaught exception, then a good file still shows its verdicts (seed ${SEED})`, async () => {
      const { context, page } = await offlinePage(browser);
      const errors: string[] = [];
      let current = '';
      page.on('pageerror', (e) => errors.push(`${current}: ${e.message}`));
      try {
        await page.goto(server.url);
        await page.waitForSelector('[data-testid="episode-row"]', { timeout: 60_000 });
        const outcomes = { opened: 0, refused: 0 };
        for (const c of mutations(SEED, files)) {
          current = `${c.name} (seed ${SEED}: ${c.what})`;
          await page.setInputFiles('[data-testid="open-file-input"]', { name: c.name, mimeType: 'application/json', buffer: c.bytes });
          const how = await settled(page, c.name);
          outcomes[how]++;
          if (how === 'opened') {
            const row = page.locator('[data-testid="episode-row"]').first();
            if ((await row.count()) > 0) await row.click();
          }
          const notices = await page.getByTestId('notice').allTextContents();
          expect(
            notices.filter((n) => n.includes('evaluator stopped')),
            current,
          ).toEqual([]);
          expect(await page.evaluate(() => document.getElementById('root')?.childElementCount ?? 0), `${current}: the app is still rendered`).toBeGreaterThan(
            0,
          );
        }
        expect(errors).toEqual([]);
        // Both outcomes occur, so the fuzz reaches past the parser as well as into it.
        expect(outcomes.opened).toBeGreaterThan(0);
        expect(outcomes.refused).toBeGreaterThan(0);

        const good = JSON.stringify(SAMPLE.slice(0, 3));
        current = 'good-after-fuzz.json';
        await page.setInputFiles('[data-testid="open-file-input"]', { name: current, mimeType: 'application/json', buffer: Buffer.from(good) });
        expect(await settled(page, current)).toBe('opened');
        await page.waitForSelector('[data-testid="episode-table"][data-total="3"][data-complete="true"]', { timeout: 60_000 });
        const rows = await page.evaluate(READ_ALL_ROWS);
        expect(rows).toHaveLength(3);
        for (const r of rows) expect(r.reward, `row ${r.index}`).toBe(r.recordedReward);
        await page.locator('[data-testid="episode-row"][data-index="0"]').click();
        await page.waitForSelector('[data-testid="episode-screen"][data-episode="0"] [data-testid="verdict-reward"]', { timeout: 30_000 });
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 600_000);
  });
}
