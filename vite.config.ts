import { createReadStream, existsSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolve, sep } from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Connect, type Plugin } from 'vite';

export const DATA_PREFIX = '/tau-bench-data/';

/**
 * Serves `$TAU_BENCH_DATA` (laid out like ../shared/tau-bench, or a tau-bench checkout) at
 * /tau-bench-data/ in dev and preview. `/tau-bench-data/` itself answers a small JSON
 * descriptor so the app can tell the directory is there; missing files are real 404s.
 */
function tauBenchData(): Plugin {
  const dir = process.env.TAU_BENCH_DATA ? resolve(process.env.TAU_BENCH_DATA) : null;
  const handle: Connect.NextHandleFunction = (req: IncomingMessage, res: ServerResponse, next) => {
    const url = req.url?.split('?')[0] ?? '';
    if (!url.startsWith(DATA_PREFIX)) return next();
    if (!dir) {
      res.statusCode = 404;
      res.end('TAU_BENCH_DATA is not set');
      return;
    }
    if (url === DATA_PREFIX) {
      res.setHeader('content-type', 'application/json');
      res.setHeader('cache-control', 'no-store');
      res.end(JSON.stringify({ tauBenchData: true, source: `TAU_BENCH_DATA=${process.env.TAU_BENCH_DATA}` }));
      return;
    }
    const rel = decodeURIComponent(url.slice(DATA_PREFIX.length));
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
    name: 'tau-bench-data',
    configureServer: (server) => void server.middlewares.use(handle),
    configurePreviewServer: (server) => void server.middlewares.use(handle),
  };
}

export default defineConfig({
  base: './',
  plugins: [react(), tailwindcss(), tauBenchData()],
  worker: { format: 'es' },
  // The app goes to dist/app and the CLI bundle (npm run build:cli) to dist/cli: vite empties
  // only its own outDir, so neither build erases the other. `vite preview` serves dist/app.
  build: { target: 'es2022', chunkSizeWarningLimit: 2000, outDir: 'dist/app', emptyOutDir: true },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
});
