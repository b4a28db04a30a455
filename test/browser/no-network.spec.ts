/**
 * "No network", about the app alone: the app, its workers and its frames make no request but to their own
 * origin (and data:/blob:), on every screen. What Chromium does on its own is the browser's, not the app's:
 * its background services are switched off where a switch exists (harness.ts, QUIET_FEATURES, checked here on
 * the browser's effective command line), and what still reaches a context's proxy without a request of the
 * app's behind it is reported as the browser's own, never held against the app (offlinePage). The app's own
 * Content-Security-Policy is checked too. And the check itself must bite: a request the worker makes to
 * another host fails it, named with its initiator.
 *
 * This is the one spec that asserts it; the functional specs assert their function.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportNotes, TAU2_PINNED_COMMIT } from '../../src/core/contract';
import {
  appRequestsProblem,
  COMPLETE,
  downloadText,
  offlinePage,
  QUIET_FEATURES,
  skipBrowser,
  startAppAndBrowser,
  type AppServer,
  type OfflinePage,
} from './harness';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const V1_SAMPLE = readFileSync(join(ROOT, 'sample-runs/runs/retail-sample.json'), 'utf8');
const TAU2_SAMPLE = readFileSync(join(ROOT, 'sample-runs/runs/tau2-mock-sample.json'), 'utf8');
/** Where this spec's files are served from the app's origin (the shared server's folder: names of its own). */
const HERE = 'no-network';

describe.skipIf(skipBrowser)('no network: the app contacts nothing beyond its own origin', () => {
  let server: AppServer;
  let browser: Browser;
  let dir: string;
  /** Every page opened below with what it met, checked together at the end of each test. */
  let opened: { screen: string; o: OfflinePage }[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tau-inspect-no-network-'));
    // The τ² sample's invented data laid out as the public host has it, served as TAU2_DATA (a τ² run opened by link finds it there).
    const mock = join(dir, 'tau2-data', TAU2_PINNED_COMMIT, 'data/tau2/domains/mock');
    mkdirSync(mock, { recursive: true });
    for (const f of ['db.json', 'user_db.json']) copyFileSync(join(ROOT, 'sample-runs/tau2-data/data/tau2/domains/mock', f), join(mock, f));
    ({ server, browser } = await startAppAndBrowser(null, join(dir, 'tau2-data')));
    mkdirSync(join(server.outDir, HERE), { recursive: true });
    writeFileSync(join(server.outDir, HERE, 'tau2-mock.json'), TAU2_SAMPLE);
    mkdirSync(join(dir, 'library'), { recursive: true });
    writeFileSync(join(dir, 'library', 'retail-sample.json'), V1_SAMPLE);
    writeFileSync(join(dir, 'library', 'tau2-mock-sample.json'), TAU2_SAMPLE);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function open(screen: string, hash = '', viewport?: { width: number; height: number }): Promise<Page> {
    const o = await offlinePage(browser, viewport);
    await o.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url.replace(/\/$/, '') });
    opened.push({ screen, o });
    await o.page.goto(`${server.url}${hash}`);
    return o.page;
  }

  /** Closes every page opened, then fails naming each screen whose app made a request beyond its origin. */
  async function noneBeyondOrigin(): Promise<void> {
    const pages = opened;
    opened = [];
    const problems: string[] = [];
    for (const { screen, o } of pages) {
      const problem = appRequestsProblem(o);
      if (problem) problems.push(`${screen}: ${problem}`);
      const own = o.browserOwn();
      if (own.length > 0) console.log(`no-network: ${screen}: the browser's own connections (not the app's): ${own.join(', ')}`);
      await o.context.close();
    }
    if (problems.length > 0) throw new Error(problems.join('\n'));
  }

  it('the browser runs quiet: its effective --disable-features holds every background service the harness turns off', async () => {
    // chrome://version shows the command line the browser runs with (CDP's Browser.getBrowserCommandLine wants --enable-automation).
    const o = await offlinePage(browser);
    await o.page.goto('chrome://version');
    const commandLine = (await o.page.locator('#command_line').textContent()) ?? '';
    await o.context.close();
    const args = commandLine.split(/\s+/);
    // Chromium keeps the last --disable-features only: that one must hold them all.
    const last = args.filter((a) => a.startsWith('--disable-features=')).at(-1) ?? '';
    const disabled = new Set(last.slice('--disable-features='.length).split(','));
    expect(QUIET_FEATURES.filter((f) => !disabled.has(f))).toEqual([]);
  });

  it('the app’s Content-Security-Policy: same origin only for scripts and workers, no plain-http or other-origin script, on the page and its worker', async () => {
    const res = await fetch(server.url);
    const header = res.headers.get('content-security-policy') ?? '';
    const html = await res.text();
    const directives = new Map(
      header
        .split(';')
        .map((d) => d.trim().split(/\s+/) as [string, ...string[]])
        .map(([k, ...v]) => [k, v.join(' ')]),
    );
    expect(directives.get('default-src')).toBe("'none'");
    expect(directives.get('script-src')).toBe("'self' 'wasm-unsafe-eval'");
    expect(directives.get('worker-src')).toBe("'self'");
    expect(directives.get('connect-src')).toBe("'self' https:");
    expect(directives.get('object-src')).toBe("'none'");
    // A voice simulation's audio plays from an object URL of its file: blob: media only, nothing else.
    expect(directives.get('media-src')).toBe('blob:');
    // The same policy in the page itself, for hosts that send no header.
    expect(html).toContain('<meta http-equiv="Content-Security-Policy"');

    // Enforced: the page cannot fetch over plain http from another host, nor load a script from one.
    const page = await open('CSP probe', '#sample=retail-sample');
    await page.waitForSelector(COMPLETE, { timeout: 60_000 });
    expect(await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content')).toBe(header);
    const refused = await page.evaluate(async () => {
      const seen: string[] = [];
      document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.effectiveDirective} ${e.blockedURI}`));
      await fetch('http://elsewhere.example/x').catch(() => undefined);
      const s = document.createElement('script');
      s.src = 'https://elsewhere.example/x.js';
      document.head.append(s);
      await new Promise((r) => setTimeout(r, 300));
      return seen;
    });
    // Each refusal is reported once per policy (header and meta).
    expect([...new Set(refused)]).toEqual(['connect-src http://elsewhere.example/x', 'script-src-elem https://elsewhere.example/x.js']);
    // Refused by the policy before any request left the page: not network traffic. The fetch never became a
    // request at all; the script did, and was stopped there (CDP blockedReason csp), so it is named as refused.
    expect(opened.at(-1)!.o.refusedByPolicy).toEqual(['https://elsewhere.example/x.js']);
    await noneBeyondOrigin();
  });

  it('every screen, opened and used, asks nothing of any other host', async () => {
    // τ-bench: overview, an episode with its panels, what-if, a share link made and reopened, compare, report, notes import.
    let page = await open('v1 overview, episode and what-if', '#sample=retail-sample&episode=1&step=0');
    await page.waitForSelector('[data-testid="episode-screen"]', { timeout: 60_000 });
    for (const key of ['1', '2', '3', '4', '5', '6', '7']) await page.keyboard.press(key);
    // What-if: the wrongly exchanged item of episode 1 put right (as what-if-share.spec does).
    await page.keyboard.press('End');
    for (let i = 0; i < 20 && !(await page.textContent('[data-testid="step-current"]'))?.includes('exchange_delivered_order_items'); i++)
      await page.keyboard.press('k');
    await page.getByTestId('tab-whatif').click();
    const args = page.locator('#what-if-args');
    await args.fill((await args.inputValue()).replace('2051947368', '6619380254'));
    await page.getByRole('button', { name: 'Replay with these arguments' }).click();
    await page.waitForSelector('[data-testid="what-if-reward"]', { timeout: 30_000 });
    await page.getByRole('button', { name: /Share/ }).click();
    await page.waitForSelector('[data-testid="share-status"]', { timeout: 10_000 });
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).toMatch(/#ep=/);
    await page.keyboard.press('Escape');
    await page.waitForSelector(COMPLETE, { timeout: 60_000 });
    await page.locator('[data-testid="compare-file-input"]').setInputFiles({ name: 'b.json', mimeType: 'application/json', buffer: Buffer.from(V1_SAMPLE) });
    await page.waitForSelector('[data-testid="compare-table"]', { timeout: 60_000 });
    const [report] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid="report-button"]').click()]);
    writeFileSync(join(server.outDir, HERE, 'report.html'), await downloadText(report));
    page = await open('notes import', '#sample=retail-sample');
    await page.waitForSelector(COMPLETE, { timeout: 60_000 });
    const notes = join(dir, 'notes.json');
    writeFileSync(notes, exportNotes('retail-sample.json', []));
    await page.locator('[data-testid="notes-import-file"]').setInputFiles(notes);
    await page.waitForSelector('[data-testid="notes-import-result"]', { timeout: 30_000 });

    page = await open('a share link reopened', link.slice(link.indexOf('#')));
    await page.waitForSelector('[data-testid="episode-screen"]', { timeout: 60_000 });

    // The downloaded report, opened on its own (served from the app's origin, as a file would open).
    page = await open('the report', '');
    await page.goto(`${server.url}${HERE}/report.html`);
    await page.waitForSelector('body');

    // τ²: overview and a simulation (sample and a same-origin run), with its panels.
    page = await open('τ² overview and simulation', '#sample=tau2-mock-sample&episode=1');
    await page.waitForSelector('[data-testid="tau2-sim"][data-index="1"]', { timeout: 60_000, state: 'attached' });
    for (const key of ['1', '2', '3', '4', '5', '6', '7']) await page.keyboard.press(key);
    page = await open('τ² run by same-origin link', `#run=${HERE}/tau2-mock.json&episode=0`);
    await page.waitForSelector('[data-testid="tau2-sim"][data-index="0"]', { timeout: 60_000, state: 'attached' });

    // The library: a folder of runs judged in the browser; leaderboard, heat map, task health.
    page = await open('library', '');
    await page.setInputFiles('[data-testid="library-folder-input"]', join(dir, 'library'));
    await page.waitForSelector('[data-testid="library-view"][data-loading="false"] [data-testid="leader-row"]', { timeout: 120_000 });
    const tabs = await page.locator('[data-testid^="library-tab-"]').all();
    expect(tabs.length).toBe(3);
    for (const tab of tabs) await tab.click();

    // At 390×844, the phone layout's own controls.
    page = await open('390×844 episode', '#sample=retail-sample&episode=0', { width: 390, height: 844 });
    await page.waitForSelector('[data-testid="episode-screen"]', { timeout: 60_000 });

    await noneBeyondOrigin();
  }, 300_000);

  it('bites: a request the app’s worker makes to another host fails the check, named with its initiator', async () => {
    const page = await open('stray request', '#sample=retail-sample');
    await page.waitForSelector(COMPLETE, { timeout: 60_000 });
    const { o } = opened.at(-1)!;
    // A file whose data is not at hand, and a data host agreed to: the worker fetches from it.
    const episode = (JSON.parse(V1_SAMPLE) as { info: { reward_info: { info: { gt_data_hash: string } } } }[])[0]!;
    episode.info.reward_info.info.gt_data_hash = '0'.repeat(64);
    await page.evaluate((h) => (location.hash = h), '#data=https://stray.example/tau-bench');
    await page.setInputFiles('[data-testid="open-file-input"]', {
      name: 'needs-data.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify([episode])),
    });
    await page.getByTestId('link-data-host').waitFor();
    expect(appRequestsProblem(o)).toBeNull();
    await page.getByRole('button', { name: 'Fetch and cache' }).click();
    await expect.poll(() => o.blocked.length, { timeout: 30_000 }).toBeGreaterThan(0);
    const problem = appRequestsProblem(o);
    expect(problem).toMatch(/^the app initiated \d+ request\(s\) beyond its own origin: https:\/\/stray\.example\/tau-bench\/\S+ \(from its worker\)/);
    // And the end-of-test check fails on it, naming the screen.
    await expect(noneBeyondOrigin()).rejects.toThrow(/stray request: the app initiated/);
  }, 120_000);
});
