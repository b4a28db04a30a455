/**
 * τ²'s validated DBs kept between processes: a file per set of data files (by their content) in the platform's
 * cache folder — `$XDG_CACHE_HOME/tau-inspect`, else `~/.cache/tau-inspect` (`$LOCALAPPDATA` on Windows,
 * `~/Library/Caches` on macOS). A process that finds its DBs there skips reading, validating and printing airline's
 * 7 MB DB (~0.4 s). The file is `HEADER <sha256 of the JSON> <JSON's length> <bytes' length>\n` + the JSON + the
 * bytes (`tau2DbsSnapshot`'s: the bytes are the hashers' texts, which the core checks against their hashes as it
 * reads them, so the checksum covers the JSON alone), written to a temporary file beside it and renamed over it, so
 * processes filling it at once never see a part of another's. A file that is damaged (its checksum, its length, or
 * texts that do not hash to their hashes), made by other code, or unreadable is named in a note on
 * standard error and the DBs are read from the data files as without the cache (and the file written again).
 * `--no-cache` (or `TAU_INSPECT_NO_CACHE=1`, which index workers inherit) reads the data files every time. Writing a file
 * removes the cache files no run has read for 30 days (another build's, other data's) and temporary files left for an hour.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { homedir, platform } from 'node:os';
import { join } from 'node:path';
import { realpathSync, readFileSync } from 'node:fs';
import type { Tau2DbFiles, Tau2DbSnapshot, Tau2DbStore } from '../../core/contract';
import { programFile, programHashGiven } from '../program-file';
import { terminalSafe } from '../terminal';

const HEADER = 'tau-inspect τ² DB cache 2';
/** A cache file no run has read for this long is removed when another is written (each build and each set of data files has its own). */
const UNUSED_MS = 30 * 24 * 3600 * 1000;
/** A temporary file this old was left by a process that ended while writing. */
const STALE_TMP_MS = 3600 * 1000;

/** Removes cache files unused for `UNUSED_MS` and temporary files older than `STALE_TMP_MS` (never one in use: a read refreshes the time). */
export async function prune(folder: string, now = Date.now()): Promise<void> {
  for (const name of await readdir(folder).catch(() => [] as string[])) {
    const kept = (name.endsWith('.cache') && name.startsWith('tau2-')) || (name.endsWith('.v8') && name.startsWith('cli-code-'));
    const old = name.endsWith('.tmp') ? STALE_TMP_MS : kept ? UNUSED_MS : null;
    if (old === null) continue;
    const path = join(folder, name);
    const st = await stat(path).catch(() => null);
    if (st !== null && now - st.mtimeMs > old) await rm(path, { force: true }).catch(() => undefined);
  }
}

/** The folder the cache lives in. */
export function cacheFolder(env: NodeJS.ProcessEnv = process.env): string {
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'tau-inspect');
  if (platform() === 'win32' && env.LOCALAPPDATA) return join(env.LOCALAPPDATA, 'tau-inspect', 'cache');
  if (platform() === 'darwin') return join(homedir(), 'Library', 'Caches', 'tau-inspect');
  return join(homedir(), '.cache', 'tau-inspect');
}

/**
 * The running program's own bytes — the bundle this module is part of (`npm run build:cli`; `bin/tau-inspect.mjs` runs
 * it), or this file under tsx — so a cache made by another build is another key. (Under tsx a change elsewhere in the
 * core is not seen: `--no-cache` while developing the core's validation or printing.)
 */
let codeHash: string | null = null;
function programHash(): string {
  codeHash ??= programHashGiven();
  if (codeHash === null) {
    const h = createHash('sha256');
    try {
      h.update(readFileSync(realpathSync(programFile())));
    } catch {
      h.update('no program file');
    }
    codeHash = h.digest('hex');
  }
  return codeHash;
}

function keyOf(files: Tau2DbFiles): string {
  const h = createHash('sha256');
  h.update(`${HEADER}\n${programHash()}\n${files.code}\n`);
  // Each text framed by its length in UTF-16 units (no pass over it to count its UTF-8 bytes): the same texts, the same key.
  for (const f of files.files) h.update(`${f.text.length}\n`).update(f.text);
  return h.digest('hex');
}

const note = (line: string): void => {
  process.stderr.write(`${terminalSafe(`note: τ² DB cache: ${line}`)}\n`);
};

/** Whether `--no-cache` was given (or `TAU_INSPECT_NO_CACHE=1` is set). */
export const cacheDisabled = (): boolean => process.env.TAU_INSPECT_NO_CACHE === '1';

/** `--no-cache`: this process and the index workers it starts read the data files every time. */
export function disableCache(): void {
  process.env.TAU_INSPECT_NO_CACHE = '1';
}

/** The store `Tau2Session.open` is given, or undefined under `--no-cache`. */
export function tau2DbStore(folder: string = cacheFolder()): Tau2DbStore | undefined {
  if (cacheDisabled()) return undefined;
  const pathOf = (files: Tau2DbFiles): string => join(folder, `tau2-${files.domain.replace(/[^a-z0-9_-]/gi, '_')}-${keyOf(files).slice(0, 32)}.cache`);
  return {
    async get(files) {
      const path = pathOf(files);
      let bytes: Buffer;
      try {
        bytes = await readFile(path);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
          note(`${path} cannot be read (${(e as Error).message}); ${files.domain}'s DBs read from the data files`);
        return null;
      }
      const nl = bytes.indexOf(10);
      const head = nl < 0 ? '' : bytes.subarray(0, nl).toString('utf8');
      const m = /^(.*) ([0-9a-f]{64}) (\d+) (\d+)$/.exec(head);
      const body = bytes.subarray(nl + 1);
      const jsonLength = m === null ? 0 : Number(m[3]);
      let why: string | null = null;
      if (m === null || m[1] !== HEADER) why = 'it has no header this version writes';
      else if (jsonLength + Number(m[4]) !== body.length)
        why = `it is ${body.length} bytes long where its header says ${jsonLength + Number(m[4])} (cut short?)`;
      else if (createHash('sha256').update(body.subarray(0, jsonLength)).digest('hex') !== m[2]) why = 'its checksum differs from its header’s';
      if (why !== null) {
        note(`${path} is damaged: ${why}; ${files.domain}'s DBs read from the data files and validated (the file is written again)`);
        return null;
      }
      // Used now: its time says so, so pruning leaves it.
      const now = new Date();
      await utimes(path, now, now).catch(() => undefined);
      return { json: body.toString('utf8', 0, jsonLength), bytes: body.subarray(jsonLength) };
    },
    async put(files, snapshot) {
      const path = pathOf(files);
      const tmp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        const snap: Tau2DbSnapshot = snapshot();
        const json = Buffer.from(snap.json, 'utf8');
        const head = `${HEADER} ${createHash('sha256').update(json).digest('hex')} ${json.length} ${snap.bytes.length}\n`;
        await mkdir(folder, { recursive: true });
        await writeFile(tmp, Buffer.concat([Buffer.from(head, 'utf8'), json, snap.bytes]));
        // A rename replaces the file whole: a process reading it meanwhile has the old file or the new one, never a part.
        await rename(tmp, path);
        note(`${files.domain}'s DBs validated and kept in ${path} (the next run with the same data files reads them from there)`);
        await prune(folder);
      } catch (e) {
        await rm(tmp, { force: true }).catch(() => undefined);
        note(`${files.domain}'s validated DBs could not be kept in ${folder} (${(e as Error).message}); judged from the data files as read`);
      }
    },
    refused(files, why) {
      note(`${pathOf(files)} cannot be used (${why}); ${files.domain}'s DBs read from the data files and validated (the file is written again)`);
    },
  };
}
