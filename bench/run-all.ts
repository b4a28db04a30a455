import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const run = (script: string, args: string[] = []): void => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', resolve(root, script), ...args], { stdio: 'inherit', cwd: root });
  if (r.status !== 0) process.exitCode = r.status ?? 1;
};
run('bench/cli-bench.ts');
if (existsSync(resolve(root, 'bench/browser/app-bench.ts'))) run('bench/browser/app-bench.ts');
run('bench/review-bench.ts', process.argv.slice(2));
