/**
 * τ-bench's data work kept between processes, beside τ²'s DBs (`tau2/db-cache.ts`, the same folder and `--no-cache`):
 * what a session worked out on a data version — the text of every record as the hash prints it, the sorted keys, the
 * base hash and the reference replays' hashes by task (`InspectSession.dataSnapshot().work`, as the app keeps it in
 * IndexedDB) — so a later process on the same data does not print the whole DB to hash it (~140 ms for airline) nor
 * replay a task's reference actions to learn its hash. The DB itself is still built from the data files.
 *
 * A file per data version, named by the domain and the sha256 of the program's own bytes (`programHash`: another build
 * prints with other code), the commit and the data files' texts: data changed under the same path is another file.
 * The file is `HEADER <sha256 of the body> <body's length>\n` + the body (`node:v8`'s serialization), written to a
 * temporary file beside it and renamed over it, so processes filling it at once never see a part of another's. A file
 * that is damaged (its length, its checksum, a body that is not a snapshot) or unreadable is named in a note on
 * standard error and the data is worked out from the data files as without the cache (and the file written again). A
 * snapshot the DB refuses (other tables or keys, a base hash its texts do not give) is said the same way. A process
 * writes the file when it ends knowing more reference-replay hashes than it found, nothing when it ends with none new.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { dataPath, DOMAIN_TABLES, type DataVersion, type DbWorkSnapshot, type Domain, type InspectSession, type ReadText } from '../core/contract';
import { dataReader } from './data-reader';
import { cacheDisabled, cacheFileBytes, cacheFolder, markUsed, programHash, prune, replaceFile } from './tau2/db-cache';
import { terminalSafe } from './terminal';

const HEADER = 'tau-inspect τ-bench data work 1';

const sha256 = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

const note = (line: string): void => {
  process.stderr.write(`${terminalSafe(`note: τ-bench data cache: ${line}`)}\n`);
};

/** A session that may leave its work: where, and how many reference-replay hashes the file it read had (-1: none read). */
interface Pending {
  readonly folder: string;
  readonly path: string;
  readonly session: InspectSession;
  readonly version: DataVersion;
  readonly stored: number;
}
const pending = new Map<string, Pending>();

/** The kept work at `path`, or why it cannot be used (null: there is none). */
async function readKept(path: string): Promise<DbWorkSnapshot | { why: string } | null> {
  const bytes = await cacheFileBytes(path);
  if (bytes === null || !Buffer.isBuffer(bytes)) return bytes;
  const nl = bytes.indexOf(10);
  const m = /^(.*) ([0-9a-f]{64}) (\d+)$/.exec(nl < 0 ? '' : bytes.subarray(0, nl).toString('utf8'));
  const body = bytes.subarray(nl + 1);
  let why: string | null = null;
  if (m === null || m[1] !== HEADER) why = 'it has no header this version writes';
  else if (Number(m[3]) !== body.length)
    why = `it is ${body.length} bytes long where its header says ${m[3]} (${body.length < Number(m[3]) ? 'cut short?' : 'bytes added after it?'})`;
  else if (sha256(body) !== m[2]) why = 'its checksum differs from its header’s';
  let work: DbWorkSnapshot | null = null;
  if (why === null)
    try {
      const v = deserialize(body) as { work?: DbWorkSnapshot } | null;
      if (v?.work && v.work.gtHashes instanceof Map && typeof v.work.hasher === 'object' && v.work.hasher !== null) work = v.work;
      else why = 'it holds no snapshot this version reads';
    } catch (e) {
      why = `it cannot be decoded (${(e as Error).message})`;
    }
  if (why !== null || work === null) return { why: `is damaged: ${why}` };
  await markUsed(path);
  return work;
}

/**
 * τ-bench's data under `root` (a folder or URL base): the reader `session.loadData` takes, which remembers each text's
 * sha256, and `restore`, which hands the session the work kept for the version it tries first before it chooses one.
 */
export function tauBenchData(
  root: string,
  folder: string = cacheFolder(),
): {
  readonly read: ReadText;
  restore(session: InspectSession, versions: readonly DataVersion[]): Promise<void>;
} {
  const base = dataReader(root);
  const off = cacheDisabled();
  // The texts read (their DBs are built from them lazily, so they are kept anyway); only the version looked up is hashed.
  const texts = new Map<string, string>();
  const read: ReadText = async (rel) => {
    const text = await base(rel);
    if (text !== null && !off) texts.set(rel, text);
    return text;
  };
  /** The file of a version's work: by the texts its DB was built from (at `<commit>/…`, else a checkout's). */
  const pathOf = (domain: Domain, v: DataVersion): string | null => {
    for (const commit of [v.commit, undefined]) {
      const mine = DOMAIN_TABLES[domain].map((t) => texts.get(dataPath(domain, t, commit)));
      if (mine.some((t) => t === undefined)) continue;
      const key = sha256(`${HEADER}\n${programHash()}\n${domain}\n${v.commit}\n${mine.map((t) => sha256(t!)).join('\n')}`);
      return join(folder, `tau-bench-${domain}-${key.slice(0, 32)}.cache`);
    }
    return null;
  };
  return {
    read,
    async restore(session, versions) {
      if (off) return;
      const v = session.preferredVersion(versions);
      const path = v === null ? null : pathOf(session.domain, v);
      if (v === null || path === null) return;
      const kept = await readKept(path);
      let stored = -1;
      if (kept !== null && 'why' in kept) note(`${path} ${kept.why}; ${session.domain}'s data worked out from the data files (the file is written again)`);
      else if (kept !== null) {
        if (session.adoptWork(v, kept)) stored = kept.gtHashes.size;
        else note(`${path} does not fit the data files read; ${session.domain}'s data worked out from them (the file is written again)`);
      }
      pending.set(path, { folder, path, session, version: v, stored });
    },
  };
}

/**
 * Writes the work of each session `restore` saw that ended on the version it was handed and knows more reference-replay
 * hashes than its file had. Called when a command has run; never fails (a cache that cannot be written only costs time).
 */
export async function keepDataWork(): Promise<void> {
  const all = [...pending.values()];
  pending.clear();
  let wrote: string | null = null;
  for (const p of all) {
    if (p.session.dataVersion !== p.version || p.session.knownGroundTruths() <= p.stored) continue;
    try {
      const snap = p.session.dataSnapshot();
      if (!snap) continue;
      const body = serialize({ work: snap.work });
      await replaceFile(p.folder, p.path, Buffer.concat([Buffer.from(`${HEADER} ${sha256(body)} ${body.length}\n`, 'utf8'), body]));
      wrote = p.folder;
    } catch {
      /* not kept: the next process works it out again */
    }
  }
  if (wrote !== null) await prune(wrote).catch(() => undefined);
}
