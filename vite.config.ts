import { createReadStream, existsSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolve, sep } from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Connect, type Plugin } from 'vite';

export const DATA_PREFIX = '/tau-bench-data/';
/** Where `$TAU2_DATA` is served: the worker finds it beside DATA_PREFIX (`../tau2-data/`). */
export const TAU2_DATA_PREFIX = '/tau2-data/';

/**
 * Serves `$TAU_BENCH_DATA` (laid out like ../shared/tau-bench, or a tau-bench checkout) at
 * /tau-bench-data/ in dev and preview, and `$TAU2_DATA` (laid out like ../shared/tau2/data:
 * `<commit>/data/tau2/domains/…`) at /tau2-data/. Each prefix itself answers a small JSON
 * descriptor so the app can tell the directory is there (a 404 while it is not); missing files are real 404s.
 */
function tauBenchData(prefix: string, variable: 'TAU_BENCH_DATA' | 'TAU2_DATA', flag: 'tauBenchData' | 'tau2Data'): Plugin {
  const dir = process.env[variable] ? resolve(process.env[variable]) : null;
  const handle: Connect.NextHandleFunction = (req: IncomingMessage, res: ServerResponse, next) => {
    const url = req.url?.split('?')[0] ?? '';
    if (!url.startsWith(prefix)) return next();
    if (!dir) {
      res.statusCode = 404;
      res.end(`${variable} is not set`);
      return;
    }
    // Looked at on each request (the folder, or a link to it, may come and go while the server runs).
    if (!existsSync(dir) || !statSync(dir).isDirectory()) {
      res.statusCode = 404;
      res.end(`${variable} names no folder`);
      return;
    }
    if (url === prefix) {
      res.setHeader('content-type', 'application/json');
      res.setHeader('cache-control', 'no-store');
      res.end(JSON.stringify({ [flag]: true, source: `${variable}=${process.env[variable]}` }));
      return;
    }
    const rel = decodeURIComponent(url.slice(prefix.length));
    const file = resolve(dir, rel);
    if (!file.startsWith(dir + sep) || !existsSync(file) || !statSync(file).isFile()) {
      res.statusCode = 404;
      res.end('not found');
      return;
    }
    res.setHeader('content-type', file.endsWith('.json') ? 'application/json' : 'application/octet-stream');
    res.setHeader('content-length', String(statSync(file).size));
    createReadStream(file).pipe(res);
  };
  return {
    name: flag,
    configureServer: (server) => void server.middlewares.use(handle),
    configurePreviewServer: (server) => void server.middlewares.use(handle),
  };
}

/**
 * The Content-Security-Policy of the built app (a `<meta>` in index.html, and the same policy as a
 * header from `vite preview`, which also covers the worker: a meta policy does not reach workers).
 * - scripts only from the app's own files; 'wasm-unsafe-eval' lets the worker compile hash-wasm's sha256;
 * - no inline script or style: React sets styles through the CSSOM, which CSP does not govern;
 * - connect-src is 'self' plus any https: host, because the user may agree at run time to fetch a
 *   results file or τ-bench data from a host of their choice (a static policy cannot list it).
 *   What keeps the app from contacting hosts the user did not ask for is the consent gate
 *   (src/store/consent.ts), not this policy; the policy still refuses http:, ws: and the like.
 * - media-src blob: only: a τ³ voice simulation's audio is handed to the page as a Blob and played from its object URL.
 * Not in a meta policy (browsers ignore them there): frame-ancestors, report-uri; set them as
 * headers where the app is hosted. `vite dev` gets no policy (its HMR client uses inline script
 * and a WebSocket).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self'",
  "connect-src 'self' https:",
  "img-src 'self' data:",
  // A voice simulation's audio plays from an object URL of its file (picked, or the sample's fetched from the app's own files).
  'media-src blob:',
  "style-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** Puts the policy into the built index.html (build only: the dev server stays unrestricted). */
function contentSecurityPolicy(): Plugin {
  return {
    name: 'content-security-policy',
    apply: 'build',
    transformIndexHtml: () => [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: CONTENT_SECURITY_POLICY }, injectTo: 'head-prepend' }],
  };
}

export default defineConfig({
  base: './',
  plugins: [
    react(),
    tailwindcss(),
    tauBenchData(DATA_PREFIX, 'TAU_BENCH_DATA', 'tauBenchData'),
    tauBenchData(TAU2_DATA_PREFIX, 'TAU2_DATA', 'tau2Data'),
    contentSecurityPolicy(),
  ],
  worker: { format: 'es' },
  // The app goes to dist/app and the CLI bundle (npm run build:cli) to dist/cli: vite empties
  // only its own outDir, so neither build erases the other. `vite preview` serves dist/app.
  build: { target: 'es2022', chunkSizeWarningLimit: 2000, outDir: 'dist/app', emptyOutDir: true },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1', headers: { 'Content-Security-Policy': CONTENT_SECURITY_POLICY } },
});
