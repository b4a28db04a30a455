import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import { createServer } from 'node:net';
import type { Duplex } from 'node:stream';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { runOnce } from '../support/run-once';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const VITE = join(ROOT, 'node_modules/vite/bin/vite.js');
export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
/** `REQUIRE_BROWSER=1` (set by .ci/run): a missing Chromium fails the browser tests instead of skipping them. */
export const browserRequired = process.env.REQUIRE_BROWSER === '1';
/** Browser tests skip only when Chromium is missing and not required. */
export const skipBrowser = !hasChromium && !browserRequired;

/**
 * Chromium's own calls home (autofill field types, translation, optimisation hints…), not made by
 * the page: off when a test asserts the page makes no request beyond the local server.
 */
export const NO_BROWSER_SERVICES = [
  '--disable-features=AutofillServerCommunication,OptimizationHints,Translate,MediaRouter',
  '--disable-domain-reliability',
  '--no-pings',
];

export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    return Promise.reject(
      new Error(`${CHROMIUM} is missing${browserRequired ? ' and REQUIRE_BROWSER=1 demands the browser tests' : ''}: install Debian's chromium package.`),
    );
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-dev-shm-usage',
      ...extraArgs,
    ],
  });
}

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.unref();
    s.on('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => ok(port));
    });
  });
}

function run(args: string[], dataDir: string | null = null, tau2DataDir: string | null = null): ChildProcess {
  const env = { ...process.env };
  // Vitest sets NODE_ENV=test; inherited by `vite build` it gave React's development build (about twice the
  // page's CPU, jsxDEV and owner stacks). The app is built and served as `npm run build` and `npm start` do.
  delete env.NODE_ENV;
  delete env.TAU_BENCH_DATA;
  delete env.TAU2_DATA;
  if (dataDir) env.TAU_BENCH_DATA = dataDir;
  if (tau2DataDir) env.TAU2_DATA = tau2DataDir;
  return spawn(process.execPath, [VITE, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
}

function waitExit(p: ChildProcess, what: string): Promise<void> {
  let log = '';
  p.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  p.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  return new Promise((ok, fail) => p.on('exit', (code) => (code === 0 ? ok() : fail(new Error(`${what} failed (${code}):\n${log}`)))));
}

export interface AppServer {
  readonly url: string;
  /** The folder served (the built app): a spec may put files there to be fetched from the app's own origin. */
  readonly outDir: string;
  close(): Promise<void>;
}

/** The app built once per test run (`vite build`, as `npm run build` does after its typecheck): every server serves a copy. */
const appBuild = (): Promise<string> =>
  runOnce('app-build', (dir) => waitExit(run(['build', '--outDir', dir, '--emptyOutDir', '--logLevel', 'warn']), 'vite build'));

/**
 * Copies the app's build (made once per test run) into a temporary folder of its own and serves it
 * with `vite preview` on a free localhost port; `dataDir` is served at /tau-bench-data/
 * (TAU_BENCH_DATA), `tau2DataDir` at /tau2-data/ (TAU2_DATA).
 */
export async function startApp(dataDir: string | null, tau2DataDir: string | null = null): Promise<AppServer> {
  const build = await appBuild();
  const outDir = mkdtempSync(join(tmpdir(), 'tau-inspect-build-'));
  cpSync(build, outDir, { recursive: true });
  const port = await freePort();
  const server = run(['preview', '--outDir', outDir, '--port', String(port), '--strictPort', '--host', '127.0.0.1'], dataDir, tau2DataDir);
  let log = '';
  server.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  server.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  const url = `http://127.0.0.1:${port}/`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`vite preview exited:\n${log}`);
    try {
      if ((await fetch(url)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`vite preview did not start:\n${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    outDir,
    async close() {
      const exited = new Promise<void>((r) => (server.exitCode !== null ? r() : server.once('exit', () => r())));
      server.kill('SIGTERM');
      await exited;
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}

/** Starts the app and Chromium together; when either fails, the other is closed and the failure thrown. */
export async function startAppAndBrowser(
  dataDir: string | null,
  extraArgs: readonly string[] = [],
  tau2DataDir: string | null = null,
): Promise<{ server: AppServer; browser: Browser }> {
  const [server, browser] = await Promise.allSettled([startApp(dataDir, tau2DataDir), launchChromium(extraArgs)]);
  if (server.status === 'fulfilled' && browser.status === 'fulfilled') return { server: server.value, browser: browser.value };
  if (server.status === 'fulfilled') await server.value.close();
  if (browser.status === 'fulfilled') await browser.value.close();
  throw server.status === 'rejected' ? server.reason : (browser as PromiseRejectedResult).reason;
}

export interface RowData {
  readonly index: number;
  readonly taskId: string;
  readonly trial: string;
  readonly reward: string;
  readonly recordedReward: string;
}

/** Reads every row of the (virtualised) episode list by scrolling it from top to bottom. */
export const READ_ALL_ROWS = async (): Promise<RowData[]> => {
  const sc = document.querySelector<HTMLElement>('[data-testid="episode-scroller"]');
  if (!sc) return [];
  const out = new Map<number, RowData>();
  const frame = (): Promise<void> => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())));
  sc.scrollTop = 0;
  for (;;) {
    await frame();
    for (const el of document.querySelectorAll<HTMLElement>('[data-testid="episode-row"]')) {
      const d = el.dataset;
      out.set(Number(d.index), {
        index: Number(d.index),
        taskId: d.taskId ?? '',
        trial: d.trial ?? '',
        reward: d.reward ?? '',
        recordedReward: d.recordedReward ?? '',
      });
    }
    if (sc.scrollTop + sc.clientHeight >= sc.scrollHeight - 1) break;
    sc.scrollTop += Math.max(40, sc.clientHeight - 40);
  }
  sc.scrollTop = 0;
  return [...out.values()].sort((a, b) => a.index - b.index);
};

export const COMPLETE = '[data-testid="episode-table"][data-complete="true"]';

const LOCAL_URL = /^(https?|wss?):\/\/(127\.0\.0\.1|localhost)(:\d+)?\//;

/** The local server, or no network at all (data: and blob: URLs). */
export const isLocalUrl = (url: string): boolean => LOCAL_URL.test(url) || url.startsWith('data:') || url.startsWith('blob:');

export interface OfflinePage {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Every non-local request, WebSocket or connection the page, its workers or its frames attempted (all refused). */
  readonly blocked: string[];
}

/** A proxy that refuses and records everything sent to it. */
async function refusingProxy(blocked: string[]): Promise<{ url: string; close(): void }> {
  const note = (what: string): void => {
    if (!blocked.includes(what)) blocked.push(what);
  };
  const proxy = createHttpServer((req, res) => {
    note(req.url ?? '?');
    res.writeHead(403).end();
  });
  proxy.on('connect', (req: IncomingMessage, socket: Duplex) => {
    note(`CONNECT ${req.url ?? '?'}`);
    socket.destroy();
  });
  proxy.on('upgrade', (req: IncomingMessage, socket: Duplex) => {
    note(`UPGRADE ${req.url ?? '?'}`);
    socket.destroy();
  });
  const port = await freePort();
  await new Promise<void>((ok) => proxy.listen(port, '127.0.0.1', ok));
  return { url: `http://127.0.0.1:${port}`, close: () => proxy.close() };
}

/**
 * A page that may only reach the local server. HTTP requests (page and workers) to anywhere else
 * are aborted by a route; everything else non-local (WebSockets, connections from workers) goes to
 * a proxy that refuses it. Both record what was attempted.
 */
export async function offlinePage(browser: Browser, viewport = { width: 1440, height: 900 }, options: { hasTouch?: boolean } = {}): Promise<OfflinePage> {
  const blocked: string[] = [];
  const proxy = await refusingProxy(blocked);
  const context = await browser.newContext({ viewport, ...options, proxy: { server: proxy.url, bypass: '127.0.0.1,localhost' } });
  context.on('close', () => proxy.close());
  const note = (url: string): void => {
    if (!blocked.includes(url)) blocked.push(url);
  };
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (isLocalUrl(url)) return route.continue();
    note(url);
    return route.abort('blockedbyclient');
  });
  await context.routeWebSocket(
    (url) => !isLocalUrl(url.href),
    (ws) => {
      note(ws.url());
      return ws.close();
    },
  );
  context.on('request', (r) => {
    if (!isLocalUrl(r.url())) note(r.url());
  });
  const page = await context.newPage();
  return { context, page, blocked };
}

/** Scrolls the (virtualised) episode list until the row of episode `index` is rendered, and centres it. */
export const SCROLL_TO_ROW = async (index: number): Promise<boolean> => {
  const sc = document.querySelector<HTMLElement>('[data-testid="episode-scroller"]');
  if (!sc) return false;
  const frame = (): Promise<void> => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())));
  const row = (): HTMLElement | null => document.querySelector<HTMLElement>(`[data-testid="episode-row"][data-index="${index}"]`);
  sc.scrollTop = 0;
  for (;;) {
    await frame();
    const el = row();
    if (el) {
      el.scrollIntoView({ block: 'center' });
      await frame();
      return true;
    }
    if (sc.scrollTop + sc.clientHeight >= sc.scrollHeight - 1) return false;
    sc.scrollTop += Math.max(40, sc.clientHeight - 40);
  }
};
