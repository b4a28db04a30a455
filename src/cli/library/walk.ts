/** Finding results files under folders, their content hashes, and stable shards of the list. */
import { createHash } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { readdir, readFile, readlink, stat } from 'node:fs/promises';
import { basename, join, sep } from 'node:path';

/** A unit the walk found: a file, or a τ² run folder (results.json + simulations/). */
export interface FoundRun {
  readonly path: string;
  readonly kind: 'file' | 'tau2-folder' | 'unreadable';
  readonly bytes: number;
  /** Why an `unreadable` one cannot be read (it is listed as a bad file, never handed to a worker). */
  readonly reason?: string;
  /** The path's bytes, when its name is not valid UTF-8 (`path` shows it with `\xNN` for the bad bytes). */
  readonly raw?: Buffer;
  /** The name the index gives it (its `file`): the path from the index's folder, `/`-separated; `path` when not given. */
  readonly name?: string;
}

/** Folders never walked: tools' and version control's, and benchmark data trees (their JSON files are data, not runs). */
function skipped(dir: string, name: string): boolean {
  if (name.startsWith('.') || name === 'node_modules') return true;
  if (name === 'envs' && basename(dir) === 'tau_bench') return true; // τ-bench data: tau_bench/envs/<domain>/data
  if (name === 'domains' && basename(dir) === 'tau2') return true; // τ² data: data/tau2/domains/<domain>
  return false;
}

const isJsonName = (name: string): boolean => /\.json$/i.test(name);

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A name read as bytes, as text; null when it is not valid UTF-8 (a string path would name another file). */
export function utf8Name(bytes: Uint8Array): string | null {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return null;
  }
}

/** A name that is not valid UTF-8 as it is shown: its valid characters as they are, each other byte as `\xNN` (Python's backslashreplace). */
export function shownName(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length;) {
    let len = 1;
    let text: string | null = null;
    for (; len <= 4 && i + len <= bytes.length; len++) if ((text = utf8Name(bytes.subarray(i, i + len))) !== null) break;
    if (text === null) {
      out += `\\x${bytes[i]!.toString(16).toUpperCase().padStart(2, '0')}`;
      i++;
    } else {
      out += text;
      i += len;
    }
  }
  return out;
}

/** Why a name that is not valid UTF-8 is not read. */
export const notUtf8 = (what: 'file' | 'folder'): string =>
  `the ${what} name is not valid UTF-8 (shown with \\xNN for each byte that is not): it is not ${what === 'file' ? 'read' : 'walked'}; rename it to index it`;

/** A symbolic link's target in words, for a link that leads nowhere. */
async function danglingLink(path: string | Buffer): Promise<string> {
  const target = await readlink(path).catch(() => null);
  return `a symbolic link${target === null ? '' : ` to ${target}`} that leads to no file`;
}

/** Why an entry named like a results file cannot be read, in words: its stat failed with `err`. */
async function statProblem(path: string, link: boolean, err: NodeJS.ErrnoException): Promise<string> {
  if (link && err.code === 'ENOENT') return danglingLink(path);
  if (err.code === 'ELOOP') {
    const target = await readlink(path).catch(() => null);
    return `a symbolic link${target === null ? '' : ` to ${target}`} in a loop of links that leads back to itself, never to a file`;
  }
  if (err.code === 'EACCES') return 'the file cannot be read here (permission denied)';
  return err.message;
}

/**
 * Every results file (`*.json`) and τ² run folder (a folder with `results.json`, walked no further)
 * under `paths` (folders or files), sorted by path (code-unit order), each once. What cannot be read
 * (a name that is not valid UTF-8, a symbolic link that leads nowhere, a folder that cannot be listed)
 * is in the list too, as `unreadable` with the reason: it never stops the walk.
 */
export async function findRuns(paths: readonly string[]): Promise<FoundRun[]> {
  const out = new Map<string, FoundRun>();
  const unreadable = (path: string, reason: string, raw?: Buffer): void =>
    void out.set(path, { path, kind: 'unreadable', bytes: 0, reason, ...(raw ? { raw } : {}) });
  const folderRun = async (path: string): Promise<void> => {
    try {
      out.set(path, { path, kind: 'tau2-folder', bytes: await folderBytes(path) });
    } catch (e) {
      unreadable(path, (e as Error).message);
    }
  };
  const visit = async (path: string, top: boolean): Promise<void> => {
    const s = await stat(path);
    if (!s.isDirectory()) {
      if (top || isJsonName(path)) out.set(path, { path, kind: 'file', bytes: s.size });
      return;
    }
    let entries: Dirent<Buffer>[];
    try {
      entries = await readdir(path, { withFileTypes: true, encoding: 'buffer' });
    } catch (e) {
      unreadable(path, `the folder cannot be listed: ${(e as Error).message}`);
      return;
    }
    if (!top && entries.some((e) => e.name.equals(RESULTS) && e.isFile())) return folderRun(path);
    for (const e of entries) {
      const name = utf8Name(e.name);
      if (name === null) {
        const shown = join(path, shownName(e.name));
        const raw = Buffer.concat([Buffer.from(path.endsWith(sep) ? path : path + sep), e.name]);
        if (e.isDirectory()) unreadable(shown, notUtf8('folder'), raw);
        else if (isJsonName(shown)) unreadable(shown, notUtf8('file'), raw);
        continue;
      }
      const child = join(path, name);
      if (e.isDirectory()) {
        if (!skipped(path, name)) await visit(child, false);
      } else if ((e.isFile() || e.isSymbolicLink()) && isJsonName(name)) {
        // A link to a file is read as the file; one that leads nowhere is named, not skipped.
        const target = await stat(child).catch((err: NodeJS.ErrnoException) => err);
        if (target instanceof Error) unreadable(child, await statProblem(child, e.isSymbolicLink(), target));
        else if (target.isFile()) out.set(child, { path: child, kind: 'file', bytes: target.size });
      }
    }
  };
  for (const p of paths) {
    // A run folder named on the command line is a run, not a folder to walk.
    const isRunFolder = (await stat(p)).isDirectory() && (await readdir(p)).includes('results.json');
    if (isRunFolder) await folderRun(p);
    else await visit(p, true);
  }
  return [...out.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

const RESULTS = Buffer.from('results.json');

/**
 * The simulation files of a τ² run folder's `simulations/` (none when it has none), by name; throws, naming
 * the entry, for one that cannot be read as a simulation file: a folder, a link that leads nowhere, a name
 * that is not valid UTF-8.
 */
export async function simulationNames(dir: string, isName: (name: string) => boolean = isJsonName): Promise<string[]> {
  const sims = join(dir, 'simulations');
  const entries = await readdir(sims, { withFileTypes: true, encoding: 'buffer' }).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return [];
    throw new Error(`${sims}: the folder cannot be listed: ${e.message}`);
  });
  const names: string[] = [];
  for (const e of entries) {
    const name = utf8Name(e.name);
    if (name === null) {
      if (isName(shownName(e.name))) throw new Error(`${join(sims, shownName(e.name))}: ${notUtf8('file')}`);
      continue;
    }
    if (!isName(name)) continue;
    const path = join(sims, name);
    const target = await stat(path).catch((err: NodeJS.ErrnoException) => err);
    if (target instanceof Error) throw new Error(`${path}: ${await statProblem(path, e.isSymbolicLink(), target)}`);
    if (target.isDirectory()) throw new Error(`${path} is a folder, not a simulation file (simulations/ holds one <id>.json file per simulation)`);
    names.push(name);
  }
  return names.sort();
}

async function folderBytes(dir: string): Promise<number> {
  let n = (await stat(join(dir, 'results.json'))).size;
  for (const name of await simulationNames(dir)) n += (await stat(join(dir, 'simulations', name))).size;
  return n;
}

/** sha256 of a file's bytes; of a run folder, of results.json and each simulation's name and bytes in order. */
export async function contentHash(run: FoundRun): Promise<string> {
  const h = createHash('sha256');
  if (run.kind === 'unreadable') h.update(run.raw ? await readFile(run.raw).catch(() => `unreadable\0${run.reason}`) : `unreadable\0${run.reason}`);
  else if (run.kind === 'file') h.update(await readFile(run.path));
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
