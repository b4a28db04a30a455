/**
 * `tau-inspect index` over an archive built at bench time in a temporary folder: copies of every file of
 * ../shared/runs and ../shared/tau2/runs, each copy's trials renumbered (so every copy has its own content
 * hash and ids), until there are at least 200 files and 20,000 episodes; indexed with the bundled CLI
 * (`npm run build:cli`) with 1 and with 2 worker threads, into Parquet. Prints episodes per second; asserts
 * only that every episode was indexed. Takes minutes: run it by name, `npm run -s bench -- --json index`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BenchResult, Log } from './bench-types';

const root = resolve(import.meta.dirname, '..');
const shared = resolve(process.env.TAU_INSPECT_SHARED || join(root, '../shared'));
const tau2 = resolve(process.env.TAU2_SHARED || join(shared, 'tau2'));
const MIN_FILES = 200;
const MIN_EPISODES = 20_000;

/** The file's text with every `"trial": N` made `N + offset` (the same episodes, other ids and another content hash). */
const renumbered = (text: string, offset: number): string => text.replace(/"trial": ?(\d+)/g, (_, n: string) => `"trial": ${Number(n) + offset}`);

function episodes(text: string): number {
  const v = JSON.parse(text) as unknown;
  return Array.isArray(v) ? v.length : ((v as { simulations?: unknown[] }).simulations?.length ?? 0);
}

/** Builds the archive under `dir`; answers its file and episode counts. */
function buildArchive(dir: string): { files: number; episodes: number } {
  const sources = [
    ...readdirSync(join(shared, 'runs')).map((f) => join(shared, 'runs', f)),
    ...readdirSync(join(tau2, 'runs'))
      .filter((f) => f !== 'sources.json')
      .map((f) => join(tau2, 'runs', f)),
  ]
    .filter((f) => f.endsWith('.json'))
    .map((path) => ({ path, text: readFileSync(path, 'utf8') }))
    .map((s) => ({ ...s, episodes: episodes(s.text) }));
  let files = 0;
  let count = 0;
  for (let copy = 0; files < MIN_FILES || count < MIN_EPISODES; copy++) {
    const sub = join(dir, `copy-${copy}`);
    mkdirSync(sub);
    sources.forEach((s, i) => {
      writeFileSync(join(sub, `${i}-${s.path.split('/').pop()}`), copy === 0 ? s.text : renumbered(s.text, copy * 1000));
      files++;
      count += s.episodes;
    });
  }
  return { files, episodes: count };
}

export async function runIndexBench(log: Log): Promise<BenchResult> {
  execFileSync('npm', ['run', '--silent', 'build:cli'], { cwd: root, stdio: 'inherit' });
  const cli = join(root, 'dist/cli/tau-inspect.mjs');
  const dir = mkdtempSync(join(tmpdir(), 'tau-index-bench-'));
  try {
    const archive = join(dir, 'archive');
    mkdirSync(archive);
    const built = buildArchive(archive);
    log(`index-bench: archive of ${built.files} files, ${built.episodes} episodes`);
    const out: BenchResult = {};
    for (const jobs of [1, 2]) {
      const target = join(dir, `runs-${jobs}.parquet`);
      const t0 = performance.now();
      const r = spawnSync(
        process.execPath,
        [cli, 'index', archive, '--data', join(shared, 'tau-bench'), '--data', join(tau2, 'data'), '--jobs', String(jobs), '-o', target],
        { encoding: 'utf8', maxBuffer: 1 << 28 },
      );
      const s = (performance.now() - t0) / 1000;
      if (r.status !== 0) throw new Error(`index --jobs ${jobs}: exit ${r.status}: ${r.stderr}`);
      const n = Number(/\((\d+) episodes\)/.exec(r.stderr)?.[1]);
      if (n !== built.episodes) throw new Error(`index --jobs ${jobs}: ${n} episodes indexed of ${built.episodes}: ${r.stderr}`);
      out[`index_episodes_per_s_${jobs}_job${jobs === 1 ? '' : 's'}`] = Number((n / s).toFixed(1));
      log(`index-bench: --jobs ${jobs}: ${n} episodes in ${s.toFixed(1)} s, ${(n / s).toFixed(1)} episodes/s`);
    }
    out.index_archive_files = built.files;
    out.index_archive_episodes = built.episodes;
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
