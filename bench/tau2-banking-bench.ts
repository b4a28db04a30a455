/**
 * τ³'s banking_knowledge in the CLI: the bundled CLI (`npm run build:cli`) run as a whole process (`evaluate --json`)
 * on every file of ../shared/tau2/banking/runs, all in one process (`tau2_banking_cli_ms_per_simulation`), median of
 * three runs, with the process's CPU time per simulation beside it (`_cpu_`: what a busy machine does not inflate).
 * Prints numbers; asserts nothing. Run alone: npm run -s bench -- --json tau2-banking
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { BenchResult, Log } from './bench-types';

const root = resolve(import.meta.dirname, '..');
const tau2 = resolve(process.env.TAU2_SHARED ?? join(root, '../shared/tau2'));

export async function runTau2BankingBench(log: Log): Promise<BenchResult> {
  execFileSync('npm', ['run', '--silent', 'build:cli'], { cwd: root, stdio: 'inherit' });
  const cli = join(root, 'dist/cli/tau-inspect.mjs');
  const dir = join(tau2, 'banking', 'runs');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => join(dir, f));
  const sims = files.reduce((n, f) => n + (JSON.parse(readFileSync(f, 'utf8')) as { simulations: unknown[] }).simulations.length, 0);
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    // `/usr/bin/time`-free CPU time: the child reports its own process.cpuUsage() on stderr's last line.
    const r = spawnSync(
      process.execPath,
      [
        '--import',
        'data:text/javascript,process.on("exit",()=>{const u=process.cpuUsage();process.stderr.write("\\ncpu "+(u.user+u.system)+"\\n")})',
        cli,
        'evaluate',
        ...files,
        '--data',
        join(tau2, 'data'),
        '--json',
      ],
      {
        encoding: 'utf8',
        maxBuffer: 1 << 30,
      },
    );
    const wall = performance.now() - t0;
    if (r.status !== 0) throw new Error(`banking: exit ${r.status}: ${r.stderr}`);
    const lines = r.stdout.trim().split('\n').length;
    if (lines !== sims) throw new Error(`banking: ${lines} lines for ${sims} simulations`);
    const cpu = Number(/cpu (\d+)\s*$/.exec(r.stderr)?.[1] ?? NaN) / 1000;
    walls.push(wall);
    cpus.push(cpu);
    log(`  banking run ${i + 1}: ${sims} simulations, ${wall.toFixed(0)} ms wall, ${cpu.toFixed(0)} ms CPU`);
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  log(`tau2-banking-bench: ${files.length} file(s), ${sims} simulations in one process: ${(median(walls) / sims).toFixed(2)} ms per simulation (median of 3)`);
  return {
    tau2_banking_cli_ms_per_simulation: Number((median(walls) / sims).toFixed(2)),
    tau2_banking_cli_cpu_ms_per_simulation: Number((median(cpus) / sims).toFixed(2)),
  };
}
