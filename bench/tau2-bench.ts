/**
 * τ² in the CLI: the bundled CLI (`npm run build:cli`) run as a whole process (`evaluate --json`) on every
 * airline file of ../shared/tau2/runs — all of them in one process (`tau2_cli_ms_per_simulation`), and one
 * process per file — and the time per simulation over all of them. Prints numbers; asserts nothing.
 * Run alone: npm run -s bench -- --json tau2
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { BenchResult, Log } from './bench-types';

const root = resolve(import.meta.dirname, '..');
const tau2 = resolve(process.env.TAU2_SHARED ?? join(root, '../shared/tau2'));

export async function runTau2Bench(log: Log): Promise<BenchResult> {
  execFileSync('npm', ['run', '--silent', 'build:cli'], { cwd: root, stdio: 'inherit' });
  const cli = join(root, 'dist/cli/tau-inspect.mjs');
  const sources = JSON.parse(readFileSync(join(tau2, 'runs', 'sources.json'), 'utf8')) as { file: string; domain: string }[];
  const files = sources.filter((s) => s.domain === 'airline').map((s) => s.file);
  let sims = 0;
  let ms = 0;
  let slowest = 0;
  for (const f of files) {
    const n = (JSON.parse(readFileSync(join(tau2, 'runs', f), 'utf8')) as { simulations: unknown[] }).simulations.length;
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [cli, 'evaluate', join(tau2, 'runs', f), '--data', join(tau2, 'data'), '--json'], {
      encoding: 'utf8',
      maxBuffer: 1 << 30,
    });
    const t = performance.now() - t0;
    if (r.status !== 0) throw new Error(`${f}: exit ${r.status}: ${r.stderr}`);
    const lines = r.stdout.trim().split('\n').length;
    if (lines !== n) throw new Error(`${f}: ${lines} lines for ${n} simulations`);
    sims += n;
    ms += t;
    slowest = Math.max(slowest, t / n);
    log(`  ${f}: ${n} simulations, ${t.toFixed(0)} ms (${(t / n).toFixed(1)} ms each)`);
  }
  log(`tau2-bench: ${files.length} airline files, ${sims} simulations, one process per file: ${ms.toFixed(0)} ms, ${(ms / sims).toFixed(1)} ms per simulation`);
  // Every airline file in one process (a whole submission): the DB is read and validated once.
  const t0 = performance.now();
  const all = spawnSync(process.execPath, [cli, 'evaluate', ...files.map((f) => join(tau2, 'runs', f)), '--data', join(tau2, 'data'), '--json'], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  const one = performance.now() - t0;
  if (all.status !== 0) throw new Error(`all files: exit ${all.status}: ${all.stderr}`);
  const lines = all.stdout.trim().split('\n').length;
  if (lines !== sims) throw new Error(`all files: ${lines} lines for ${sims} simulations`);
  log(`tau2-bench: the same ${files.length} files in one process: ${one.toFixed(0)} ms, ${(one / sims).toFixed(1)} ms per simulation`);
  return {
    tau2_cli_ms_per_simulation: Number((one / sims).toFixed(2)),
    tau2_cli_per_file_process_ms_per_simulation: Number((ms / sims).toFixed(2)),
    tau2_cli_worst_file_ms_per_simulation: Number(slowest.toFixed(2)),
  };
}
