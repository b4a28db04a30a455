/**
 * The CLI rows of issue #36's table, each timed as a user runs it with the bundled CLI (`npm run build:cli`),
 * `--repeat=N` times in alternation (one of each measure, then again), the median reported with the machine's
 * load beside it:
 * - `tau2_cli_ms_per_simulation_per_file`: one process per results file over the airline files of ../shared/tau2/runs
 *   (the persistent DB cache warm: the first process of the first round fills it; `_no_cache` with `--no-cache`),
 * - `tau2_cli_ms_per_simulation_one_process`: the same files in one process,
 * - `v1_cli_ms_per_episode_file`: `evaluate --json` of gpt-4o-airline.json (200 episodes, 4 MB) in one process as a
 *   user runs it, start-up included, per episode (the issue's "v1 CLI vs τ-bench's Python" row: 13.7 ms was 195×),
 * - `big_file_cli_evaluate_ms`: `evaluate --json` of the generated 5,000-episode (~98 MB) file (as the `big` bench makes it),
 *   as a user runs it (the default threads), and `_jobs_2` with `--jobs 2` (one worker thread beside the main one),
 * - `index_episodes_per_s_real`: `index` (2 jobs) over the real shared files, ../shared/runs + ../shared/tau2/runs, with
 *   the peak resident memory of the whole process tree (`index_real_peak_mb`, /usr/bin/time).
 * Prints numbers; asserts only that every simulation and episode was output.  Run alone: npm run -s bench -- --json --repeat=3 speed
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BenchOptions, BenchResult, Log } from './bench-types';
import { writeBigRun } from './big-files';

const root = resolve(import.meta.dirname, '..');
const shared = resolve(process.env.TAU_INSPECT_SHARED || join(root, '../shared'));
const tau2 = resolve(process.env.TAU2_SHARED || join(shared, 'tau2'));

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1]!;
const r2 = (x: number): number => Number(x.toFixed(2));

/** One process run: wall ms, stdout, and (when /usr/bin/time is there) its CPU time (user + system, ms) and peak RSS (MB). */
function run(args: string[], env: NodeJS.ProcessEnv): { ms: number; cpuMs: number | null; out: string; err: string; peakMb: number | null } {
  const timed = existsSync('/usr/bin/time');
  const t0 = performance.now();
  const r = timed
    ? spawnSync('/usr/bin/time', ['-f', 'maxrss_kb=%M cpu_s=%U %S', process.execPath, ...args], { encoding: 'utf8', maxBuffer: 1 << 30, env })
    : spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 30, env });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${args.slice(1, 3).join(' ')}: exit ${r.status}: ${r.stderr.slice(-2000)}`);
  const rss = /maxrss_kb=(\d+) cpu_s=([\d.]+) ([\d.]+)/.exec(r.stderr);
  return { ms, cpuMs: rss ? (Number(rss[2]) + Number(rss[3])) * 1000 : null, out: r.stdout, err: r.stderr, peakMb: rss ? Number(rss[1]) / 1024 : null };
}

const lineCount = (out: string): number => (out.trim() === '' ? 0 : out.trim().split('\n').length);

export async function runSpeedBench(log: Log, options: BenchOptions = { repeat: 1 }): Promise<BenchResult> {
  execFileSync('npm', ['run', '--silent', 'build:cli'], { cwd: root, stdio: 'inherit' });
  const cli = join(root, 'dist/cli/tau-inspect.mjs');
  const dir = mkdtempSync(join(tmpdir(), 'tau-speed-bench-'));
  // A cache folder of the bench's own, so a run never reads what another left behind.
  const env = { ...process.env, XDG_CACHE_HOME: join(dir, 'cache') };
  try {
    const sources = JSON.parse(readFileSync(join(tau2, 'runs', 'sources.json'), 'utf8')) as { file: string; domain: string }[];
    const files = sources.filter((s) => s.domain === 'airline').map((s) => join(tau2, 'runs', s.file));
    const counts = files.map((f) => (JSON.parse(readFileSync(f, 'utf8')) as { simulations: unknown[] }).simulations.length);
    const sims = counts.reduce((a, b) => a + b, 0);
    const tau2Data = join(tau2, 'data');
    const big = join(dir, 'big-5000.json');
    const bigBytes = writeBigRun(join(shared, 'runs', 'gpt-4o-airline.json'), 5000, big).bytes;
    // A CLI before the persistent DB cache has no `--no-cache` (the baseline of issue #36).
    const hasCache = readFileSync(cli, 'utf8').includes('no-cache');
    const rows: Record<string, number[]> = {};
    const add = (k: string, v: number | null): void => {
      if (v !== null) (rows[k] ??= []).push(v);
    };
    /** Wall and CPU ms per simulation over one process per file. */
    const perFile = (extra: string[]): [number, number | null] => {
      let ms = 0;
      let cpu: number | null = 0;
      files.forEach((f, i) => {
        const r = run([cli, 'evaluate', f, '--data', tau2Data, '--json', ...extra], env);
        if (lineCount(r.out) !== counts[i]) throw new Error(`${f}: ${lineCount(r.out)} lines for ${counts[i]} simulations`);
        ms += r.ms;
        cpu = cpu === null || r.cpuMs === null ? null : cpu + r.cpuMs;
      });
      return [ms / sims, cpu === null ? null : cpu / sims];
    };
    for (let round = 0; round < options.repeat; round++) {
      add('load_avg_1m', loadavg()[0]!);
      const [wall, cpu] = perFile([]);
      add('tau2_cli_ms_per_simulation_per_file', wall);
      add('tau2_cli_cpu_ms_per_simulation_per_file', cpu);
      if (hasCache) {
        const [wallNoCache, cpuNoCache] = perFile(['--no-cache']);
        add('tau2_cli_ms_per_simulation_per_file_no_cache', wallNoCache);
        add('tau2_cli_cpu_ms_per_simulation_per_file_no_cache', cpuNoCache);
      }
      const one = run([cli, 'evaluate', ...files, '--data', tau2Data, '--json'], env);
      if (lineCount(one.out) !== sims) throw new Error(`all files: ${lineCount(one.out)} lines for ${sims} simulations`);
      add('tau2_cli_ms_per_simulation_one_process', one.ms / sims);
      add('tau2_cli_cpu_ms_per_simulation_one_process', one.cpuMs === null ? null : one.cpuMs / sims);
      const v1 = run([cli, 'evaluate', join(shared, 'runs', 'gpt-4o-airline.json'), '--data', join(shared, 'tau-bench'), '--json'], env);
      if (lineCount(v1.out) !== 200) throw new Error(`gpt-4o-airline: ${lineCount(v1.out)} lines for 200 episodes`);
      add('v1_cli_ms_per_episode_file', v1.ms / 200);
      add('v1_cli_cpu_ms_per_episode_file', v1.cpuMs === null ? null : v1.cpuMs / 200);
      const b = run([cli, 'evaluate', big, '--data', join(shared, 'tau-bench'), '--json'], env);
      if (lineCount(b.out) !== 5000) throw new Error(`big file: ${lineCount(b.out)} lines for 5000 episodes`);
      add('big_file_cli_evaluate_ms', b.ms);
      add('big_file_cli_evaluate_cpu_ms', b.cpuMs);
      add('big_file_cli_evaluate_peak_mb', b.peakMb);
      // The same with a worker thread beside the main one, whatever the default on this machine.
      const b2 = run([cli, 'evaluate', big, '--data', join(shared, 'tau-bench'), '--json', '--jobs', '2'], env);
      if (lineCount(b2.out) !== 5000) throw new Error(`big file, --jobs 2: ${lineCount(b2.out)} lines for 5000 episodes`);
      add('big_file_cli_evaluate_ms_jobs_2', b2.ms);
      add('big_file_cli_evaluate_cpu_ms_jobs_2', b2.cpuMs);
      const target = join(dir, `real-${round}.parquet`);
      const ix = run(
        [cli, 'index', join(shared, 'runs'), join(tau2, 'runs'), '--data', join(shared, 'tau-bench'), '--data', tau2Data, '--jobs', '2', '-o', target],
        env,
      );
      const n = Number(/\((\d+) episodes\)/.exec(ix.err)?.[1]);
      if (!(n > 0)) throw new Error(`index: no episode count in ${ix.err.slice(-500)}`);
      rmSync(target, { force: true });
      add('index_episodes_per_s_real', n / (ix.ms / 1000));
      add('index_real_peak_mb', ix.peakMb);
      add('index_real_cpu_ms_per_episode', ix.cpuMs === null ? null : ix.cpuMs / n);
      add('load_avg_1m_after', loadavg()[0]!);
      log(
        `speed-bench round ${round + 1}: τ² per file ${rows.tau2_cli_ms_per_simulation_per_file!.at(-1)!.toFixed(2)} ms/sim (CPU ${rows.tau2_cli_cpu_ms_per_simulation_per_file?.at(-1)?.toFixed(2) ?? 'n/a'}) (--no-cache ${rows.tau2_cli_ms_per_simulation_per_file_no_cache?.at(-1)?.toFixed(2) ?? 'n/a'}), one process ${(one.ms / sims).toFixed(2)} ms/sim (${sims} simulations, ${files.length} files); τ-bench file ${(v1.ms / 200).toFixed(2)} ms/episode; big file (${(bigBytes / 2 ** 20).toFixed(0)} MB) ${b.ms.toFixed(0)} ms (--jobs 2: ${b2.ms.toFixed(0)} ms); index real ${n} episodes in ${(ix.ms / 1000).toFixed(1)} s = ${(n / (ix.ms / 1000)).toFixed(0)}/s, peak ${ix.peakMb?.toFixed(0)} MB; load ${rows.load_avg_1m!.at(-1)!.toFixed(2)} → ${loadavg()[0]!.toFixed(2)}`,
      );
    }
    const out: BenchResult = {};
    for (const [k, xs] of Object.entries(rows)) {
      out[k] = r2(median(xs));
      if (xs.length > 1 && !k.startsWith('load')) {
        out[`${k}_min`] = r2(Math.min(...xs));
        out[`${k}_max`] = r2(Math.max(...xs));
      }
    }
    out.speed_bench_rounds = options.repeat;
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
