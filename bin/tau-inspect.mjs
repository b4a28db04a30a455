#!/usr/bin/env node
// The package's `tau-inspect` command: the bundled CLI when built (npm run build:cli), else the
// TypeScript source through tsx.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const bundled = fileURLToPath(new URL('../dist/cli/tau-inspect.mjs', import.meta.url));
if (existsSync(bundled)) await import(bundled);
else {
  const source = fileURLToPath(new URL('../src/cli/tau-inspect.ts', import.meta.url));
  const r = spawnSync(process.execPath, ['--import', 'tsx', source, ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exitCode = r.status ?? 1;
}
