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
 *
 * Stamps: reading and hashing airline's 7 MB data file for the key is ~30 ms of every process, so once a set of data
 * files has been read whole and its cache file found or written, a small `.key` file named by the files' stamps — each
 * file's place, device, inode, size, and modification and change times in nanoseconds, from `fstat` before and after
 * the read — names that cache file; a later process that finds the same stamps (`stat`) reads the cache file without
 * reading the data files. A change to a file's content changes its change time (which `utimes` cannot set back), a
 * file replaced by a rename is another inode. A stamp is kept only for a file unchanged during its read and whose
 * times are more than `SETTLED_MS` before the read began, so a later write within the file system's time granularity
 * cannot leave it unchanged (git's "racy" files). A `.key` file that is damaged, or names a cache file that is missing
 * or damaged, is passed over silently: the data files are then read and hashed as before, and the cache file's notes
 * are the ones above.
 */
import { createHash, randomBytes } from 'node:crypto';
import { appendFile, mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { homedir, platform } from 'node:os';
import { join, resolve } from 'node:path';
import { realpathSync, readFileSync, type BigIntStats } from 'node:fs';
import type { ReadText, Tau2DbFiles, Tau2DbPlaces, Tau2DbSnapshot, Tau2DbStore } from '../../core/contract';
import { dataReader } from '../data-reader';
import { programFile, programHashGiven } from '../program-file';
import { terminalSafe } from '../terminal';

const HEADER = 'tau-inspect τ² DB cache 2';
const KEY_HEADER = 'tau-inspect τ² DB cache key 1';
/** A file changed less than this before its read began gets no stamp (more than any file system's time granularity). */
const SETTLED_MS = 2000;
/** A cache file no run has read for this long is removed when another is written (each build and each set of data files has its own). */
const UNUSED_MS = 30 * 24 * 3600 * 1000;
/** A temporary file this old was left by a process that ended while writing. */
const STALE_TMP_MS = 3600 * 1000;

/** Removes cache files unused for `UNUSED_MS` and temporary files older than `STALE_TMP_MS` (never one in use: a read refreshes the time). */
export async function prune(folder: string, now = Date.now()): Promise<void> {
  for (const name of await readdir(folder).catch(() => [] as string[])) {
    const kept =
      ((name.endsWith('.cache') || name.endsWith('.key') || name.endsWith('.hashes')) && name.startsWith('tau2-')) ||
      (name.endsWith('.cache') && name.startsWith('tau-bench-')) ||
      (name.endsWith('.v8') && name.startsWith('cli-code-'));
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
export function programHash(): string {
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

const sha256 = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

/** A data file's stamp: its place, device, inode, size and times (see the module comment). */
const stampOf = (path: string, st: BigIntStats): string => [resolve(path), st.dev, st.ino, st.size, st.mtimeNs, st.ctimeNs].join('\0');

/** A cache file read now: its time says so, so pruning leaves it (never fails). */
export async function markUsed(path: string): Promise<void> {
  const now = new Date();
  await utimes(path, now, now).catch(() => undefined);
}

/** A cache file's bytes; null when there is none, why when it cannot be read. */
export async function cacheFileBytes(path: string): Promise<Buffer | { why: string } | null> {
  try {
    return await readFile(path);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? null : { why: `cannot be read (${(e as Error).message})` };
  }
}

/** The cache file's snapshot, or why it cannot be used (null: there is none). */
async function readCacheFile(path: string): Promise<Tau2DbSnapshot | { why: string } | null> {
  const bytes = await cacheFileBytes(path);
  if (bytes === null || !Buffer.isBuffer(bytes)) return bytes;
  const nl = bytes.indexOf(10);
  const head = nl < 0 ? '' : bytes.subarray(0, nl).toString('utf8');
  const m = /^(.*) ([0-9a-f]{64}) (\d+) (\d+)$/.exec(head);
  const body = bytes.subarray(nl + 1);
  const jsonLength = m === null ? 0 : Number(m[3]);
  let why: string | null = null;
  if (m === null || m[1] !== HEADER) why = 'it has no header this version writes';
  else if (jsonLength + Number(m[4]) !== body.length) why = `it is ${body.length} bytes long where its header says ${jsonLength + Number(m[4])} (cut short?)`;
  else if (sha256(body.subarray(0, jsonLength)) !== m[2]) why = 'its checksum differs from its header’s';
  if (why !== null) return { why: `is damaged: ${why}` };
  await markUsed(path);
  return { json: body.toString('utf8', 0, jsonLength), bytes: body.subarray(jsonLength) };
}

/** Writes `data` to `path` through a temporary file renamed over it (a reader meanwhile has the old file or the new one, never a part). */
export async function replaceFile(folder: string, path: string, data: Buffer | Uint8Array): Promise<void> {
  const tmp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await mkdir(folder, { recursive: true });
    await writeFile(tmp, data);
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw e;
  }
}

/** A file of known hashes is read whole by every process: past this it is started again. */
const KNOWN_MAX_BYTES = 4 * 1024 * 1024;
const keepers: (() => Promise<void>)[] = [];

/**
 * Hands on the hashes of DB states this process computed (`Tau2DbStore.knownHashes`: a `.hashes` file per base DB's
 * text, each line a hash by the exact description of the DB's text, with a check of its own), so a later process judging
 * the same tasks or the same passing states does not hash them again. Called when a run is judged; never fails.
 */
export async function keepKnownHashes(): Promise<void> {
  for (const keep of keepers) await keep().catch(() => undefined);
}

/** The τ² data of a `--data` folder or URL base: its reader, and the DB cache (undefined under `--no-cache`) that knows the stamps of what it read. */
export function tau2Data(root: string, folder: string = cacheFolder()): { read: ReadText; store: Tau2DbStore | undefined } {
  if (cacheDisabled()) return { read: dataReader(root), store: undefined };
  const stamps = new Map<string, string>();
  const read = dataReader(root, (rel, path, before, after, began) => {
    const stamp = stampOf(path, before);
    const settled = (before.mtimeNs > before.ctimeNs ? before.mtimeNs : before.ctimeNs) < BigInt(began - SETTLED_MS) * 1_000_000n;
    if (settled && stamp === stampOf(path, after)) stamps.set(rel, stamp);
    else stamps.delete(rel);
  });
  const local = !/^https?:\/\//.test(root);
  return { read, store: tau2DbStore(folder, local ? { root, stamps } : undefined) };
}

/** The store `Tau2Session.open` is given, or undefined under `--no-cache`; with `data`, the stamps of the files its reader read. */
export function tau2DbStore(
  folder: string = cacheFolder(),
  data?: { readonly root: string; readonly stamps: ReadonlyMap<string, string> },
): Tau2DbStore | undefined {
  if (cacheDisabled()) return undefined;
  const domainPart = (domain: string): string => domain.replace(/[^a-z0-9_-]/gi, '_');
  // By the files' content: hashed once per set of files read (get, put and the `.key` ask for it).
  const paths = new WeakMap<Tau2DbFiles, string>();
  const pathOf = (files: Tau2DbFiles): string => {
    let path = paths.get(files);
    if (path === undefined) paths.set(files, (path = join(folder, `tau2-${domainPart(files.domain)}-${keyOf(files).slice(0, 32)}.cache`)));
    return path;
  };
  const stampKey = (domain: string, code: string, stamped: readonly (readonly [string, string])[]): string =>
    sha256(`${KEY_HEADER}\n${programHash()}\n${domain}\n${code}\n${stamped.map(([where, stamp]) => `${where}\0${stamp}`).join('\n')}`);
  const keyPathOf = (domain: string, key: string): string => join(folder, `tau2-${domainPart(domain)}-${key.slice(0, 32)}.key`);
  const keyLine = (key: string, cacheName: string): string => `${KEY_HEADER} ${key} ${cacheName} ${sha256(`${key} ${cacheName}`)}\n`;
  /** After the files were read and their cache file found or written: a `.key` file naming it by their stamps (when each has one). */
  const keep = async (files: Tau2DbFiles): Promise<void> => {
    const stamped = files.files.map((f) => [f.where, data?.stamps.get(f.where)] as const);
    if (stamped.some(([, stamp]) => stamp === undefined)) return;
    const key = stampKey(files.domain, files.code, stamped as [string, string][]);
    const name = pathOf(files).slice(folder.length + 1);
    await replaceFile(folder, keyPathOf(files.domain, key), Buffer.from(keyLine(key, name), 'utf8')).catch(() => undefined);
  };
  return {
    async peek(places: Tau2DbPlaces) {
      if (data === undefined) return null;
      const stamped: [string, string][] = [];
      for (const candidates of places.files) {
        let found: [string, string] | null = null;
        for (const rel of candidates) {
          const path = join(data.root, rel);
          try {
            found = [rel, stampOf(path, await stat(path, { bigint: true }))];
            break;
          } catch (e) {
            const code = (e as NodeJS.ErrnoException).code;
            if (code !== 'ENOENT' && code !== 'ENOTDIR') return null;
          }
        }
        if (found === null) return null;
        stamped.push(found);
      }
      const key = stampKey(places.domain, places.code, stamped);
      const line = await readFile(keyPathOf(places.domain, key), 'utf8').catch(() => '');
      const m = /^(.*) ([0-9a-f]{64}) (tau2-[A-Za-z0-9_-]+-[0-9a-f]{32}\.cache) ([0-9a-f]{64})\n$/.exec(line);
      if (m === null || line !== keyLine(key, m[3]!)) return null;
      const snapshot = await readCacheFile(join(folder, m[3]!));
      if (snapshot === null || 'why' in snapshot) return null;
      await markUsed(keyPathOf(places.domain, key));
      return { snapshot, where: stamped.map(([where]) => where) };
    },
    async get(files) {
      const path = pathOf(files);
      const kept = await readCacheFile(path);
      if (kept !== null && 'why' in kept) {
        note(
          kept.why.startsWith('is damaged')
            ? `${path} ${kept.why}; ${files.domain}'s DBs read from the data files and validated (the file is written again)`
            : `${path} ${kept.why}; ${files.domain}'s DBs read from the data files`,
        );
        return null;
      }
      if (kept !== null) await keep(files);
      return kept;
    },
    async put(files, snapshot) {
      const path = pathOf(files);
      try {
        const snap: Tau2DbSnapshot = snapshot();
        const json = Buffer.from(snap.json, 'utf8');
        const head = `${HEADER} ${sha256(json)} ${json.length} ${snap.bytes.length}\n`;
        await replaceFile(folder, path, Buffer.concat([Buffer.from(head, 'utf8'), json, snap.bytes]));
        note(`${files.domain}'s DBs validated and kept in ${path} (the next run with the same data files reads them from there)`);
        await keep(files);
        await prune(folder);
      } catch (e) {
        note(`${files.domain}'s validated DBs could not be kept in ${folder} (${(e as Error).message}); judged from the data files as read`);
      }
    },
    async knownHashes(textHash) {
      const path = join(folder, `tau2-known-${textHash.slice(0, 32)}.hashes`);
      let text: string | null = null;
      try {
        // A file grown past its bound is started again (a few hundred bytes a simulation judged).
        if ((await stat(path)).size > KNOWN_MAX_BYTES) await rm(path, { force: true });
        else text = await readFile(path, 'utf8');
      } catch {
        text = null;
      }
      return {
        text,
        keep(take) {
          keepers.push(async () => {
            const lines = take();
            if (lines === '') return;
            // One append per process and base: whole lines, which a reader checks one by one.
            await mkdir(folder, { recursive: true });
            await appendFile(path, lines);
          });
        },
      };
    },
    refused(files, why) {
      note(`${pathOf(files)} cannot be used (${why}); ${files.domain}'s DBs read from the data files and validated (the file is written again)`);
    },
  };
}
