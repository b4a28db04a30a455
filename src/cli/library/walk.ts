/** Finding results files under folders, their content hashes, and stable shards of the list. */
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { FoundRun } from './index-file';

/** Folders never walked: tools' and version control's, and benchmark data trees (their JSON files are data, not runs). */
function skipped(dir: string, name: string): boolean {
  if (name.startsWith('.') || name === 'node_modules') return true;
  if (name === 'envs' && basename(dir) === 'tau_bench') return true; // τ-bench data: tau_bench/envs/<domain>/data
  if (name === 'domains' && basename(dir) === 'tau2') return true; // τ² data: data/tau2/domains/<domain>
  return false;
}

const isJsonName = (name: string): boolean => /\.json$/i.test(name);

/**
 * Every results file (`*.json`) and τ² run folder (a folder with `results.json`, walked no further)
 * under `paths` (folders or files), sorted by path (code-unit order), each once.
 */
export async function findRuns(paths: readonly string[]): Promise<FoundRun[]> {
  const out = new Map<string, FoundRun>();
  const visit = async (path: string, top: boolean): Promise<void> => {
    const s = await stat(path);
    if (!s.isDirectory()) {
      if (top || isJsonName(path)) out.set(path, { path, kind: 'file', bytes: s.size });
      return;
    }
    const entries = await readdir(path, { withFileTypes: true });
    if (!top && entries.some((e) => e.name === 'results.json' && e.isFile())) {
      out.set(path, { path, kind: 'tau2-folder', bytes: await folderBytes(path) });
      return;
    }
    for (const e of entries) {
      const child = join(path, e.name);
      if (e.isDirectory()) {
        if (!skipped(path, e.name)) await visit(child, false);
      } else if (e.isFile() && isJsonName(e.name)) out.set(child, { path: child, kind: 'file', bytes: (await stat(child)).size });
    }
  };
  for (const p of paths) {
    // A run folder named on the command line is a run, not a folder to walk.
    const isRunFolder = (await stat(p)).isDirectory() && (await readdir(p)).includes('results.json');
    if (isRunFolder) out.set(p, { path: p, kind: 'tau2-folder', bytes: await folderBytes(p) });
    else await visit(p, true);
  }
  return [...out.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

async function simulationNames(dir: string): Promise<string[]> {
  return (await readdir(join(dir, 'simulations')).catch(() => [] as string[])).filter(isJsonName).sort();
}

async function folderBytes(dir: string): Promise<number> {
  let n = (await stat(join(dir, 'results.json'))).size;
  for (const name of await simulationNames(dir)) n += (await stat(join(dir, 'simulations', name))).size;
  return n;
}

/** sha256 of a file's bytes; of a run folder, of results.json and each simulation's name and bytes in order. */
export async function contentHash(run: FoundRun): Promise<string> {
  const h = createHash('sha256');
  if (run.kind === 'file') h.update(await readFile(run.path));
  else {
    h.update('tau2-run-folder\0');
    h.update(await readFile(join(run.path, 'results.json')));
    for (const name of await simulationNames(run.path)) {
      h.update(`\0${name}\0`);
      h.update(await readFile(join(run.path, 'simulations', name)));
    }
  }
  return h.digest('hex');
}

/**
 * The `i`-th (1-based) of `n` shards of a sorted list: every `n`-th entry starting at the `i`-th, so the
 * shards are disjoint, together hold the list, and each gets files from every part of it.
 */
export function shardOf<T>(list: readonly T[], i: number, n: number): T[] {
  return list.filter((_, k) => k % n === i - 1);
}
