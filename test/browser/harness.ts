import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import { createServer } from 'node:net';
import type { Duplex } from 'node:stream';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Download, type Page, type Request } from 'playwright-core';
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
 * What Chromium itself contacts, unasked by the page, and the switch that keeps each quiet. Measured with
 * `npm run chromium-traffic` (scripts/chromium-traffic.mjs: a browser-wide recording proxy, every switch
 * left out in turn); its table is in README.md. Playwright already passes its own `--disable-features`
 * list (PreconnectToSearch, AimEnabled, NetworkTimeServiceQuerying, OptimizationHints…), and Chromium
 * keeps only the last `--disable-features` it is given: a second one of ours silently dropped Playwright's,
 * which brought back the search preconnect (`CONNECT www.google.com:443` through each context's proxy,
 * from Chromium 150 on). So this list repeats Playwright's features and adds ours, and it is the only
 * `--disable-features` passed; `test/browser/no-network.spec.ts` reads the browser's own command line
 * (CDP `Browser.getBrowserCommandLine`) to check that the effective switch holds every feature here.
 */
export const QUIET_FEATURES = [
  // Playwright's own list (playwright-core 1.65, chromiumSwitches), kept because ours replaces it:
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints', // optimization guide hints (optimizationguide-pa.googleapis.com)
  'NetworkTimeServiceQuerying', // clients2.google.com/time
  'AimEnabled', // AI-mode eligibility (www.google.com)
  'PreconnectToSearch', // preconnect to the default search engine (CONNECT www.google.com:443)
  // Ours: what a page's content makes the browser ask for on its own (forms, foreign text).
  'AutofillServerCommunication', // autofill field types (content-autofill.googleapis.com)
  'Translate', // translate ranker and language models
] as const;

/**
 * Chromium's own background services off (see QUIET_FEATURES). Playwright already passes
 * --disable-background-networking, --disable-component-update and --disable-field-trial-config. Two requests
 * of Chromium 156 go on with every switch tried (update.googleapis.com's on-demand component check and
 * accounts.google.com): they are made in the browser's own network context, never a page's, so they never
 * reach a context's proxy and the specs' attribution (offlinePage) counts them as the browser's.
 * `--no-pings` is deliberately not here: an `<a ping>` in the app would be the app's request, to be caught.
 */
export const QUIET_SWITCHES = [`--disable-features=${QUIET_FEATURES.join(',')}`];

/** The switches every spec's browser is launched with (the shared one and a spec's own alike). */
export const CHROMIUM_SWITCHES = ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-dev-shm-usage', ...QUIET_SWITCHES];

/** Where test/browser/global-setup.ts says its shared browser and app server are (for this vitest run). */
export const SHARED_BROWSER_VARIABLE = 'TAU_INSPECT_TEST_BROWSER';
export const SHARED_APP_VARIABLE = 'TAU_INSPECT_TEST_APP';

/**
 * The browser of this vitest run (launched once by test/browser/global-setup.ts; `close()` only
 * disconnects), or one of its own when the spec needs extra switches or runs outside that setup (the bench).
 */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  const shared = process.env[SHARED_BROWSER_VARIABLE];
  if (shared && extraArgs.length === 0) return chromium.connect(shared);
  if (!existsSync(CHROMIUM))
    return Promise.reject(
      new Error(`${CHROMIUM} is missing${browserRequired ? ' and REQUIRE_BROWSER=1 demands the browser tests' : ''}: install Debian's chromium package.`),
    );
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_SWITCHES, ...extraArgs] });
}

/** Launches the run's shared browser as a server (global setup, which launches none when Chromium is missing). */
export async function launchSharedChromium(): Promise<{ wsEndpoint: string; close(): Promise<void> }> {
  const server = await chromium.launchServer({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_SWITCHES });
  return { wsEndpoint: server.wsEndpoint(), close: () => server.close() };
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
export const appBuild = (): Promise<string> =>
  runOnce('app-build', (dir) => waitExit(run(['build', '--outDir', dir, '--emptyOutDir', '--logLevel', 'warn']), 'vite build'));

/**
 * Copies the app's build (made once per test run) into a temporary folder of its own and serves it
 * with `vite preview` on a free localhost port; `dataDir` is served at /tau-bench-data/
 * (TAU_BENCH_DATA), `tau2DataDir` at /tau2-data/ (TAU2_DATA).
 */
export async function startOwnApp(dataDir: string | null, tau2DataDir: string | null = null): Promise<AppServer> {
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

/** What test/browser/global-setup.ts hands the spec files (JSON in TAU_INSPECT_TEST_APP). */
export interface SharedApp {
  readonly url: string;
  readonly outDir: string;
  /** Symbolic links served as TAU_BENCH_DATA and TAU2_DATA; a spec points them at its data. */
  readonly v1Link: string;
  readonly tau2Link: string;
  /** A folder that is never made: a link pointing there serves no data (the server answers 404, as with the variable unset). */
  readonly nowhere: string;
  /** Made while a spec file holds the server (one at a time: the browser project runs its files one by one). */
  readonly holder: string;
}

/** Points a link at `target` (or at nowhere), replacing it at once (a new link renamed over the old). */
function pointLink(link: string, target: string): void {
  const next = `${link}.next`;
  rmSync(next, { force: true });
  symlinkSync(target, next);
  renameSync(next, link);
}

/**
 * The app built once per test run and served by the run's one `vite preview` (test/browser/global-setup.ts),
 * with `dataDir` as its TAU_BENCH_DATA and `tau2DataDir` as its TAU2_DATA (null: none, the folder link points
 * nowhere) until `close()`; or, outside that setup (the bench, a spec run alone by other means), a server of
 * its own (startOwnApp). Files a spec puts in `outDir` are served from the app's origin; they stay for later
 * spec files of the run, so each spec names its own.
 */
export async function startApp(dataDir: string | null, tau2DataDir: string | null = null): Promise<AppServer> {
  const raw = process.env[SHARED_APP_VARIABLE];
  if (!raw) return startOwnApp(dataDir, tau2DataDir);
  const shared = JSON.parse(raw) as SharedApp;
  try {
    mkdirSync(shared.holder);
  } catch {
    throw new Error(
      `the run's shared app server is held by another spec file (${shared.holder}): the browser specs must run one file at a time (fileParallelism: false)`,
    );
  }
  pointLink(shared.v1Link, dataDir ?? shared.nowhere);
  pointLink(shared.tau2Link, tau2DataDir ?? shared.nowhere);
  return {
    url: shared.url,
    outDir: shared.outDir,
    async close() {
      pointLink(shared.v1Link, shared.nowhere);
      pointLink(shared.tau2Link, shared.nowhere);
      rmSync(shared.holder, { recursive: true, force: true });
    },
  };
}

/** Starts (or takes) the app server and Chromium together; when either fails, the other is closed and the failure thrown. */
export async function startAppAndBrowser(dataDir: string | null, tau2DataDir: string | null = null): Promise<{ server: AppServer; browser: Browser }> {
  const [server, browser] = await Promise.allSettled([startApp(dataDir, tau2DataDir), launchChromium()]);
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
  /**
   * Every non-local request or WebSocket the app initiated — its page, its workers, its frames — all
   * refused: what a spec asserts is empty (`appRequestsProblem`). In the order first seen.
   */
  readonly blocked: string[];
  /** Who initiated each URL of `blocked`: 'page or frame' (seen by the page's own CDP Network domain), 'worker', 'service worker'. */
  initiatorOf(url: string): string;
  /**
   * Connections that reached the context's refusing proxy with no request of the app's behind them: the
   * browser's own (e.g. a preconnect to its search engine). Reported, never held against the app.
   * (Arrays and functions, never getters: specs spread an OfflinePage into objects of their own.)
   */
  browserOwn(): string[];
  /** Requests the page's Content-Security-Policy refused before they left (CDP `blockedReason: csp`): not held against the app. */
  readonly refusedByPolicy: string[];
}

/** A proxy that refuses and records everything sent to it (hosts, as `host:port` or the URL's host). */
async function refusingProxy(seen: string[]): Promise<{ url: string; close(): void }> {
  const note = (what: string): void => {
    if (!seen.includes(what)) seen.push(what);
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

/** A URL's host name (the text itself when it is no URL). */
const hostOf = (url: string): string => {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
};

/** The host a proxy line names: `CONNECT h:443` → `h`, `http://h/x` → `h`. */
const proxyHost = (line: string): string => {
  const target = line.replace(/^(CONNECT|UPGRADE) /, '');
  return hostOf(target.includes('://') ? target : `https://${target}`);
};

/**
 * A page that may only reach the local server, and a record of who tried otherwise. HTTP requests of
 * the page, its frames and its workers to anywhere else are aborted by a route and recorded in `blocked`;
 * the page's WebSockets likewise. The page's own CDP Network domain tells its requests (and its
 * same-process frames') from its workers'. Whatever else leaves the context (the browser's own preconnects,
 * a connection no route saw) goes to a proxy that refuses it: a host the app also asked for is the app's
 * (already in `blocked`); any other is the browser's own (`browserOwn`). The app has no way to open a
 * connection that no route sees but a worker's WebSocket, and lint forbids WebSocket, EventSource and
 * sendBeacon in src (eslint.config.js).
 */
export async function offlinePage(browser: Browser, viewport = { width: 1440, height: 900 }, options: { hasTouch?: boolean } = {}): Promise<OfflinePage> {
  const blocked: string[] = [];
  const initiators = new Map<string, string>();
  const pageSaw = new Set<string>();
  const requestUrls = new Map<string, string>();
  const refusedByPolicy: string[] = [];
  const atProxy: string[] = [];
  const proxy = await refusingProxy(atProxy);
  const context = await browser.newContext({ viewport, ...options, proxy: { server: proxy.url, bypass: '127.0.0.1,localhost' } });
  context.on('close', () => proxy.close());
  const note = (url: string, initiator: string | null): void => {
    if (!blocked.includes(url)) blocked.push(url);
    if (initiator !== null && !initiators.has(url)) initiators.set(url, initiator);
  };
  const ofRequest = (r: Request): string | null => (r.serviceWorker() ? 'service worker' : null);
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (isLocalUrl(url)) return route.continue();
    note(url, ofRequest(route.request()));
    return route.abort('blockedbyclient');
  });
  await context.routeWebSocket(
    (url) => !isLocalUrl(url.href),
    (ws) => {
      note(ws.url(), 'page or frame');
      return ws.close();
    },
  );
  context.on('request', (r) => {
    if (!isLocalUrl(r.url())) note(r.url(), ofRequest(r));
  });
  const watch = async (p: Page): Promise<void> => {
    const cdp = await context.newCDPSession(p);
    cdp.on('Network.requestWillBeSent', (e) => {
      pageSaw.add(e.request.url);
      requestUrls.set(e.requestId, e.request.url);
    });
    cdp.on('Network.loadingFailed', (e) => {
      const url = requestUrls.get(e.requestId);
      if (e.blockedReason === 'csp' && url !== undefined && !refusedByPolicy.includes(url)) refusedByPolicy.push(url);
    });
    cdp.on('Network.webSocketCreated', (e) => {
      pageSaw.add(e.url);
      if (!isLocalUrl(e.url)) note(e.url, 'page or frame');
    });
    await cdp.send('Network.enable');
  };
  context.on('page', (p) => void watch(p).catch(() => undefined));
  const page = await context.newPage();
  await watch(page);
  return {
    context,
    page,
    blocked,
    refusedByPolicy,
    initiatorOf: (url) => initiators.get(url) ?? (pageSaw.has(url) ? 'page or frame' : 'worker'),
    browserOwn() {
      const appHosts = new Set(blocked.map(hostOf));
      return atProxy.filter((line) => !appHosts.has(proxyHost(line)));
    },
  };
}

/** Why `o` fails "the app made no request beyond its own origin", naming each request and its initiator; null when it made none. */
export function appRequestsProblem(o: OfflinePage): string | null {
  const sent = o.blocked.filter((u) => !o.refusedByPolicy.includes(u));
  if (sent.length === 0) return null;
  return `the app initiated ${sent.length} request(s) beyond its own origin: ${sent.map((u) => `${u} (from its ${o.initiatorOf(u)})`).join('; ')}`;
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

/** The text of a download (the shared browser is connected to, so a download has no local path: it is streamed). */
export async function downloadText(download: Download): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
