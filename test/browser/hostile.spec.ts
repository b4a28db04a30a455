import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateRawSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COMPLETE,
  offlinePage,
  READ_ALL_ROWS,
  SCROLL_TO_ROW,
  skipBrowser,
  startAppAndBrowser,
  appRequestsProblem,
  type AppServer,
  type OfflinePage,
} from './harness';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SAMPLE = JSON.parse(readFileSync(join(ROOT, 'sample-runs/runs/retail-sample.json'), 'utf8')) as Episode[];
const SCREEN = '[data-testid="episode-screen"]';

interface Message {
  role: string;
  content: string | null;
  tool_calls?: { function: { name: string; arguments: string } }[] | null;
  [k: string]: unknown;
}
interface Episode {
  traj: Message[];
  info: { reward_info: { info: { gt_data_hash: string } } & Record<string, unknown> } & Record<string, unknown>;
  [k: string]: unknown;
}

const clone = <T>(x: T): T => structuredClone(x);

/** Each would set window.__pwned (or open a dialog) if the app ever treated text as markup or a link. */
const HOSTILE = [
  '<script>window.__pwned = "script"</script>',
  '<img src=x onerror="window.__pwned = \'img\'">',
  '<svg onload="window.__pwned = \'svg\'"></svg>',
  '<a href="javascript:window.__pwned = \'href\'">click me</a>',
  '[click](javascript:alert(1))',
  '<iframe srcdoc="<script>parent.__pwned = \'iframe\'</script>"></iframe>',
  '"><script>alert(document.domain)</script>',
  '{{constructor.constructor("window.__pwned = \'template\'")()}}',
  'bidi \u202Egnp.exe\u202C and isolate \u2067x\u2069',
  'zero\u200Bwidth\u200D\uFEFFjoiners\u2060',
].join(' ');

/** Hostile strings in messages, tool names, tool arguments (keys and values), episode and info keys. */
function hostileRun(): Episode[] {
  return SAMPLE.slice(0, 3).map((ep, e) => {
    const out = clone(ep);
    out[`<img src=x onerror="window.__pwned='key'">${e}`] = HOSTILE;
    out.info[`\u202Ekey<script>window.__pwned='info'</script>`] = { [HOSTILE]: HOSTILE };
    let firstCall = true;
    for (const m of out.traj) {
      if (m.role !== 'system' && typeof m.content === 'string') m.content = `${HOSTILE}\n${m.content}\n${HOSTILE}`;
      for (const c of m.tool_calls ?? []) {
        const args = JSON.parse(c.function.arguments) as Record<string, unknown>;
        args[HOSTILE] = HOSTILE;
        c.function.arguments = JSON.stringify(args);
        if (e === 1 && firstCall) c.function.name = `<img src=x onerror="window.__pwned='tool'">\u202Etool`;
        firstCall = false;
      }
    }
    return out;
  });
}

interface Watch {
  readonly errors: string[];
  readonly dialogs: string[];
}

function watch(page: Page): Watch {
  const w: Watch = { errors: [], dialogs: [] };
  page.on('pageerror', (e) => w.errors.push(e.message));
  page.on('dialog', (d) => {
    w.dialogs.push(d.message());
    void d.dismiss();
  });
  return w;
}

/** Records CSP violations from the first script on. */
const RECORD_VIOLATIONS = (): void => {
  const w = window as unknown as { __violations: string[] };
  w.__violations = [];
  document.addEventListener('securitypolicyviolation', (e) => w.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
};

const violations = (page: Page): Promise<string[]> => page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);
const pwned = (page: Page): Promise<unknown> => page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned);

async function openEpisode(page: Page, index: number): Promise<void> {
  expect(await page.evaluate(SCROLL_TO_ROW, index), `row ${index} is in the list`).toBe(true);
  await page.locator(`[data-testid="episode-row"][data-index="${index}"]`).click();
  await page.waitForSelector(`${SCREEN}[data-episode="${index}"]`, { timeout: 30_000 });
}

async function openFile(page: Page, name: string, text: string): Promise<void> {
  await page.setInputFiles('[data-testid="open-file-input"]', { name, mimeType: 'application/json', buffer: Buffer.from(text) });
}

describe.skipIf(skipBrowser)('hostile input in headless Chromium (built app, strict CSP)', () => {
  let server: AppServer;
  let browser: Browser;

  beforeAll(async () => {
    ({ server, browser } = await startAppAndBrowser(null));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function fresh(hash = ''): Promise<OfflinePage & Watch> {
    const o = await offlinePage(browser);
    await o.context.addInitScript(RECORD_VIOLATIONS);
    const w = watch(o.page);
    await o.page.goto(`${server.url}${hash}`);
    return { ...o, ...w };
  }

  it('renders a file with hostile strings everywhere as inert text, with no request beyond localhost, under the CSP', async () => {
    const o = await fresh();
    const { page } = o;
    try {
      await page.waitForSelector(COMPLETE, { timeout: 60_000 });
      const name = `<img src=x onerror="window.__pwned='name'">\u202Enosj.exe.json`;
      await openFile(page, name, JSON.stringify(hostileRun()));
      await page.waitForSelector('[data-testid="episode-table"][data-total="3"][data-complete="true"]', { timeout: 60_000 });
      expect(await page.getByTestId('detection').textContent()).toContain('⟨U+202E⟩nosj.exe.json');

      for (const r of await page.evaluate(READ_ALL_ROWS)) {
        await openEpisode(page, r.index);
        const screen = page.locator(SCREEN);
        for (const tab of ['db', 'diff', 'outputs']) {
          const t = page.getByTestId(`tab-${tab}`);
          if ((await t.count()) > 0) await t.click();
          for (const b of await screen.locator('button[aria-expanded="false"]').all()) if (await b.isVisible()) await b.click();
        }
        for (const b of await page.getByTestId('dialogue').locator('button[aria-expanded="false"]').all()) if (await b.isVisible()) await b.click();
        for (let i = 0; i < 4; i++) await page.keyboard.press('j');
        const dialogue = (await page.getByTestId('dialogue').textContent()) ?? '';
        expect(dialogue, `episode ${r.index}: the markup is shown as text`).toContain('<script>window.__pwned = "script"</script>');
        expect(dialogue).toContain('<img src=x onerror=');
        expect(dialogue, 'a bidi override is shown, not applied').toContain('U+202E');
        expect(dialogue, 'zero-width characters are shown').toContain('U+200B');
      }

      expect(await pwned(page)).toBeUndefined();
      expect(o.dialogs).toEqual([]);
      expect(o.errors).toEqual([]);
      expect(await violations(page)).toEqual([]);
      expect(await page.locator('img[src="x"], svg[onload], iframe, a[href^="javascript:"], [onerror]').count()).toBe(0);
      expect(await page.locator('script:not([src])').count(), 'no inline script element in the document').toBe(0);
      expect(appRequestsProblem(o)).toBeNull();

      // The policy is in force: the built page carries it, and an inline script injected by hand is refused.
      const csp = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content');
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).not.toContain('unsafe-inline');
      await page.evaluate(() => {
        const s = document.createElement('script');
        s.textContent = 'window.__pwned = "injected by the test"';
        document.body.append(s);
      });
      // Reported once per policy in force (the meta, and the same policy as a header from vite preview).
      await expect.poll(async () => (await violations(page)).length).toBeGreaterThan(0);
      for (const v of await violations(page)) expect(v).toMatch(/^script-src(-elem)? inline$/);
      expect(await pwned(page)).toBeUndefined();
    } finally {
      await o.context.close();
    }
  }, 180_000);

  it('keeps a 5 MB unbroken line folded: the fold control is shown and the page keeps answering', async () => {
    const o = await fresh();
    const { page } = o;
    try {
      await page.waitForSelector(COMPLETE, { timeout: 60_000 });
      const ep = clone(SAMPLE[0]!);
      const user = ep.traj.findIndex((m) => m.role === 'user');
      const line = `${'A'.repeat(2_500_000)}B${'C'.repeat(2_500_000)}`;
      ep.traj[user]!.content = line;
      const tool = ep.traj.findIndex((m) => m.role === 'tool');
      ep.traj[tool]!.content = 'D'.repeat(1_000_000);
      // From disk: Playwright hands a Buffer to the page through script, which itself takes seconds for 6 MB.
      const dir = mkdtempSync(join(tmpdir(), 'tau-inspect-long-'));
      const path = join(dir, 'long-line.json');
      writeFileSync(path, JSON.stringify([ep]));
      await page.setInputFiles('[data-testid="open-file-input"]', path);
      // Removed once read: what this test looks at is the long line, not a file that vanishes (read-run.spec has that).
      await page.waitForSelector('[data-testid="episode-table"][data-total="1"][data-complete="true"]', { timeout: 60_000 });
      rmSync(dir, { recursive: true, force: true });
      await openEpisode(page, 0);
      const row = page.locator(`[data-testid="dialogue"] li[data-message-index="${user}"]`);
      const controls = row.getByTestId('fold-controls');
      await controls.waitFor();
      expect(await controls.textContent()).toContain('shown 20,000 of 5,000,001 characters');
      expect(await row.getByTestId('fold-show-all').textContent()).toBe('Show all (4.8 MB)');
      expect(((await row.textContent()) ?? '').length).toBeLessThan(25_000);

      // The page answers and the step keys still work.
      expect(await page.evaluate(() => 1 + 1)).toBe(2);
      const step = async (): Promise<string | null> => page.getAttribute('[data-testid="step-current"]', 'data-step');
      const before = Number(await step());
      await page.keyboard.press('j');
      await expect.poll(step).toBe(String(before + 1));

      // "Show more" reveals one more block, never the whole line.
      await row.getByRole('button', { name: 'Show more' }).click();
      await expect.poll(() => controls.textContent()).toContain('shown 120,000 of 5,000,001');
      expect(await page.evaluate(() => 1 + 1)).toBe(2);

      // "Show all" on the 1 MB observation reveals it block by block until the whole text is there.
      const obs = page.locator(`[data-testid="dialogue"] li[data-message-index="${tool}"]`);
      await obs.getByTestId('fold-show-all').first().click();
      expect(await page.evaluate(() => 1 + 1)).toBe(2);
      await expect.poll(() => obs.getByTestId('fold-controls').count(), { timeout: 90_000 }).toBe(0);
      expect(await obs.evaluate((el) => (el.textContent ?? '').split('D').length - 1)).toBeGreaterThanOrEqual(1_000_000);
      expect(o.errors).toEqual([]);
    } finally {
      await o.context.close();
    }
  }, 120_000);

  it('opens a relative #run= link (a path or a name on the app’s own server) like a same-origin one, without asking', async () => {
    mkdirSync(join(server.outDir, 'runs'), { recursive: true });
    writeFileSync(join(server.outDir, 'runs', 'relative.json'), readFileSync(join(ROOT, 'sample-runs/runs/retail-sample.json')));
    for (const hash of ['#run=runs/relative.json', '#run=/runs/relative.json']) {
      const o = await fresh(hash);
      const { page } = o;
      try {
        await page.waitForSelector('[data-testid="episode-row"]', { timeout: 60_000 });
        expect(await page.getByTestId('run-consent').count()).toBe(0);
        expect(await page.locator('body').textContent()).not.toContain('not an http(s) address');
        expect(await page.locator('body').textContent()).toContain('relative.json');
        expect(appRequestsProblem(o)).toBeNull();
      } finally {
        await o.context.close();
      }
    }
  }, 120_000);

  it('asks before fetching a run or data from a host named in a link, and contacts nothing until then', async () => {
    const run = 'https://elsewhere.example/runs/run.json';
    const o = await fresh(`#run=${run}&episode=0`);
    const { page } = o;
    try {
      const consent = page.getByTestId('run-consent');
      await consent.waitFor();
      expect(await consent.textContent()).toContain('https://elsewhere.example');
      await consent.getByRole('button', { name: 'Don’t open' }).click();
      await page.waitForSelector(COMPLETE, { timeout: 60_000 });
      expect(appRequestsProblem(o)).toBeNull();

      // data= naming a host not agreed to: proposed in the data prompt, not fetched.
      const ep = clone(SAMPLE[0]!);
      ep.info.reward_info.info.gt_data_hash = '0'.repeat(64);
      await page.evaluate((h) => (location.hash = h), '#data=https://elsewhere.example/tau-bench');
      await openFile(page, 'needs-data.json', JSON.stringify([ep]));
      await page.getByTestId('link-data-host').waitFor();
      expect(await page.getByLabel(/Data URL base/).inputValue()).toBe('https://elsewhere.example/tau-bench');
      // The prompt shows once the worker has looked everywhere it may look: nothing was requested.
      expect(appRequestsProblem(o)).toBeNull();

      // Agreeing is what makes the request (refused here, as every non-local one is).
      await page.getByRole('button', { name: 'Fetch and cache' }).click();
      await expect.poll(() => o.blocked.some((u) => u.startsWith('https://elsewhere.example/tau-bench/')), { timeout: 30_000 }).toBe(true);
      expect(o.errors).toEqual([]);
    } finally {
      await o.context.close();
    }
  }, 120_000);

  it('refuses a decompression-bomb or cut #ep= fragment with a clear message and stays usable', async () => {
    // 80 MB of spaces deflate to about 80 KB: past the 64 MB cap.
    const bomb = deflateRawSync(Buffer.alloc(80 * 1024 * 1024, 0x20), { level: 9 }).toString('base64url');
    const o = await fresh(`#ep=${bomb}`);
    const { page } = o;
    try {
      const notice = page.getByTestId('notice').first();
      await expect.poll(() => notice.textContent(), { timeout: 60_000 }).toContain('inflates to more than 64 MB');
      await page.waitForSelector(COMPLETE, { timeout: 60_000 });
      // The sample shown in its place does not wipe the message that says why it is there.
      expect(await page.getByTestId('notice').first().textContent()).toContain('inflates to more than 64 MB');
      expect(await page.evaluate(() => 1 + 1)).toBe(2);
      await openEpisode(page, 0);

      const good = deflateRawSync(Buffer.from(JSON.stringify(SAMPLE[0]))).toString('base64url');
      await page.evaluate((h) => (location.hash = h), `#ep=${good.slice(0, Math.floor(good.length / 2))}`);
      await expect.poll(() => page.getByTestId('notice').last().textContent(), { timeout: 30_000 }).toMatch(/damaged/);
      expect(await page.locator('[data-testid="episode-row"]').count()).toBeGreaterThan(0);
      expect(o.errors).toEqual([]);
      expect(appRequestsProblem(o)).toBeNull();
    } finally {
      await o.context.close();
    }
  }, 120_000);
});
