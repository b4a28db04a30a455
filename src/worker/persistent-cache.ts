import { createStore, del, get, keys, set, type UseStore } from 'idb-keyval';
import { DOMAIN_TABLES, dataPath, sha256Hex, type DataSnapshot, type DataVersion, type DbWorkSnapshot, type Domain, type InspectSession, type ReadText } from '../core/contract';

/** Bumped when what is stored changes shape; entries of other formats are ignored (and replaced). */
const FORMAT = 1;

interface Stored {
  readonly format: number;
  readonly data: DataSnapshot;
}

interface Entry {
  /** IndexedDB key: domain, commit and the sha256 of the data files' texts. */
  readonly key: string;
  restored: DataVersion | null;
  work: DbWorkSnapshot | null;
  /** Reference-replay hashes in the stored snapshot (-1: nothing stored). */
  stored: number;
}

let store: UseStore | null = null;
const versionsStore = (): UseStore => (store ??= createStore('tau-inspect-parsed', 'versions'));

const prefix = (domain: Domain, commit: string): string => `v${FORMAT}|${domain}|${commit}|`;

/** The texts of a known version's tables, hashed: the identity of the content a snapshot was made from. */
async function contentKey(read: ReadText, domain: Domain, commit: string): Promise<string | null> {
  const texts: string[] = [];
  for (const table of DOMAIN_TABLES[domain]) {
    const text = await read(dataPath(domain, table, commit));
    if (text === null) return null;
    texts.push(`${table}\u0000${text}`);
  }
  return prefix(domain, commit) + sha256Hex(texts.join('\u0000'));
}

/**
 * Parsed data versions and the work on them (hasher midstates, per-record texts,
 * reference-replay hashes) kept in IndexedDB across visits, keyed by the content they were
 * parsed from. Core stays pure: it hands out and takes back plain snapshots
 * (`InspectSession.dataSnapshot` / `restoreVersion`); storing them is done here.
 */
export class PersistentVersions {
  private readonly memo = new WeakMap<DataVersion, Entry>();

  /**
   * The versions with the one detection tries first taken from the cache when it holds a
   * snapshot of the same content (its DB revived, its hashes adopted by `session`).
   */
  async prepare(session: InspectSession, versions: readonly DataVersion[], read: ReadText): Promise<DataVersion[]> {
    const v = session.preferredVersion(versions);
    if (!v || !v.known) return [...versions];
    let entry = this.memo.get(v);
    try {
      if (!entry) {
        const key = await contentKey(read, session.domain, v.commit);
        if (key === null) return [...versions];
        entry = { key, restored: null, work: null, stored: -1 };
        this.memo.set(v, entry);
        const hit = await get<Stored>(key, versionsStore());
        if (hit?.format === FORMAT) {
          const restored = session.restoreVersion(v, hit.data);
          if (restored) {
            entry.restored = restored;
            entry.work = hit.data.work;
            entry.stored = hit.data.work.gtHashes.size;
            this.memo.set(restored, entry);
          }
        }
      } else if (entry.restored && entry.work && !session.adoptWork(entry.restored, entry.work)) entry.restored = null;
    } catch {
      return [...versions];
    }
    const restored = entry.restored;
    return restored ? versions.map((x) => (x === v ? restored : x)) : [...versions];
  }

  /**
   * After a whole file is evaluated: stores the session's snapshot of the version it used,
   * when the cache lacks it or it now knows more reference replays. Other snapshots of the
   * same domain and commit (older content) are dropped.
   */
  async save(session: InspectSession): Promise<void> {
    const v = session.dataVersion;
    const entry = v ? this.memo.get(v) : undefined;
    if (!entry || session.knownGroundTruths() <= entry.stored) return;
    const snap = session.dataSnapshot();
    if (!snap) return;
    try {
      const s = versionsStore();
      await set(entry.key, { format: FORMAT, data: snap } satisfies Stored, s);
      entry.stored = snap.work.gtHashes.size;
      if (entry.restored) entry.work = snap.work;
      const same = entry.key.slice(entry.key.indexOf('|') + 1, entry.key.lastIndexOf('|') + 1);
      for (const k of await keys(s)) if (typeof k === 'string' && k !== entry.key && k.slice(k.indexOf('|') + 1).startsWith(same)) await del(k, s);
    } catch {
      /* a full or unavailable IndexedDB only costs speed */
    }
  }
}
