import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const VITE = join(ROOT, 'node_modules/vite/bin/vite.js');
export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'],
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

function run(args: string[], dataDir: string | null = null): ChildProcess {
  const env = { ...process.env };
  delete env.TAU_BENCH_DATA;
  if (dataDir) env.TAU_BENCH_DATA = dataDir;
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
  close(): Promise<void>;
}

/**
 * Builds the app into a temporary folder and serves it with `vite preview` on a free
 * localhost port; `dataDir` is served at /tau-bench-data/ (TAU_BENCH_DATA).
 */
export async function startApp(dataDir: string | null): Promise<AppServer> {
  const outDir = mkdtempSync(join(tmpdir(), 'tau-inspect-build-'));
  await waitExit(run(['build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn']), 'vite build');
  const port = await freePort();
  const server = run(['preview', '--outDir', outDir, '--port', String(port), '--strictPort', '--host', '127.0.0.1'], dataDir);
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
    async close() {
      const exited = new Promise<void>((r) => (server.exitCode !== null ? r() : server.once('exit', () => r())));
      server.kill('SIGTERM');
      await exited;
      rmSync(outDir, { recursive: true, force: true });
    },
  };
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
      out.set(Number(d.index), { index: Number(d.index), taskId: d.taskId ?? '', trial: d.trial ?? '', reward: d.reward ?? '', recordedReward: d.recordedReward ?? '' });
    }
    if (sc.scrollTop + sc.clientHeight >= sc.scrollHeight - 1) break;
    sc.scrollTop += Math.max(40, sc.clientHeight - 40);
  }
  sc.scrollTop = 0;
  return [...out.values()].sort((a, b) => a.index - b.index);
};

export const COMPLETE = '[data-testid="episode-table"][data-complete="true"]';
