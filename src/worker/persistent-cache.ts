import { del, get, keys, promisifyRequest, set, type UseStore } from 'idb-keyval';
import {
  DOMAIN_TABLES,
  KNOWN_DATA_VERSIONS,
  dataPath,
  sha256Hex,
  type DataSnapshot,
  type DataVersion,
  type DbWorkSnapshot,
  type Domain,
  type InspectSession,
} from '../core/contract';
import type { Located } from './data-locator';

/** Bumped when what is stored changes shape; entries of other formats are ignored (and replaced). */
const FORMAT = 1;

interface Stored {
  readonly format: number;
  readonly data: DataSnapshot;
}

interface Entry {
  /** IndexedDB key: format, domain, commit and the sha256 of the data files' texts. */
  readonly key: string;
  restored: DataVersion | null;
  work: DbWorkSnapshot | null;
  /** Reference-replay hashes in the stored snapshot (-1: nothing stored). */
  stored: number;
}

/** Where snapshots are kept: IndexedDB in the app; specs give one of their own. */
export interface SnapshotStorage {
  keys(): Promise<IDBValidKey[]>;
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
  del(key: string): Promise<void>;
}

/** The snapshots' database, once open (opened as the worker starts: `PersistentVersions` lists its keys). */
let opening: Promise<IDBDatabase> | null = null;
let opened: IDBDatabase | null = null;
const versionsDb = (): Promise<IDBDatabase> => {
  if (!opening) {
    const request = indexedDB.open('tau-inspect-parsed');
    request.onupgradeneeded = () => request.result.createObjectStore('versions');
    opening = promisifyRequest(request);
    opening.then(
      (db) => {
        opened = db;
        db.onclose = () => (opening = opened = null);
      },
      () => (opening = null),
    );
  }
  return opening;
};
const versionsStore: UseStore = (mode, callback) => versionsDb().then((db) => callback(db.transaction('versions', mode).objectStore('versions')));
/**
 * The browser's IndexedDB (its database opened at the first call; where there is none, each call rejects). A read is
 * asked for at once when the database is open (not a turn of promises later: the read of a kept snapshot is started
 * before the file's first piece is parsed, and IndexedDB reads it meanwhile).
 */
export const indexedDbStorage: SnapshotStorage = {
  keys: async () => keys(versionsStore),
  get: async (key) => (opened ? promisifyRequest(opened.transaction('versions', 'readonly').objectStore('versions').get(key)) : get(key, versionsStore)),
  set: async (key, value) => set(key, value, versionsStore),
  del: async (key) => del(key, versionsStore),
};

/** What `prefetch` started. */
export interface ReadAhead {
  /** Resolves once the reads are under way, or after the patience given (finding the data takes longer). */
  readonly ready: Promise<void>;
  /** Whether the snapshot kept for the file's domain and commit is being read ahead (resolves once the kept keys are listed: at once, usually). */
  readonly kept: Promise<boolean>;
}

/** Same domain and commit: `v1|airline|<commit>|`. */
const familyOf = (key: string): string => key.slice(0, key.lastIndexOf('|') + 1);

/** The identity of a version's content: the sha256 of each table's text (cached files know it without being read). */
async function contentKey(loc: Located, domain: Domain, commit: string): Promise<string | null> {
  const shas: string[] = [];
  for (const table of DOMAIN_TABLES[domain]) {
    const rel = dataPath(domain, table, commit);
    const sha = loc.identify ? await loc.identify(rel) : await loc.read(rel).then((t) => (t === null ? null : sha256Hex(t)));
    if (sha === null) return null;
    shas.push(`${table}:${sha}`);
  }
  return `v${FORMAT}|${domain}|${commit}|${sha256Hex(shas.join(','))}`;
}

/** A stand-in for ordering versions by what detection tries first; its DB is never read. */
const placeholder = (commit: string, known: (typeof KNOWN_DATA_VERSIONS)[number]): DataVersion => ({
  commit,
  known,
  source: '',
  get db(): never {
    throw new Error('placeholder version');
  },
});

/**
 * Parsed data versions and the work on them (hasher midstates, per-record texts,
 * reference-replay hashes) kept in IndexedDB across visits, keyed by the content they were
 * parsed from. Core stays pure: it hands out and takes back plain snapshots
 * (`InspectSession.dataSnapshot` / `restoreVersion`); storing them is done here.
 */
export class PersistentVersions {
  /** `<source key>|<domain>|<commit>` → content key (null: not all files there). */
  private readonly contentKeys = new Map<string, Promise<string | null>>();
  private readonly entries = new Map<string, Entry>();
  /** Per session: the entry of each commit it may use, for `save`. */
  private readonly bySession = new WeakMap<InspectSession, Map<string, Entry>>();
  /** Reads started before the results file was parsed, by content key. */
  private readonly early = new Map<string, Promise<Stored | undefined>>();

  /**
   * The keys kept, listed as the worker starts (opening the IndexedDB database meanwhile), so a file's read
   * ahead starts as soon as its first bytes name domain and commit; kept up to date by `save` (another tab's
   * save may be missing: then a read ahead misses, which costs only speed).
   */
  private listed: string[] | null = null;
  private readonly listing: Promise<string[]>;

  constructor(private readonly storage: SnapshotStorage = indexedDbStorage) {
    // (Where there is no IndexedDB this rejects, which only costs the read ahead.)
    this.listing = storage
      .keys()
      .then((all) => (this.listed = all.filter((k): k is string => typeof k === 'string')))
      .catch(() => (this.listed = []));
  }

  /**
   * Starts reading the stored snapshot of the version a file will likely use (see
   * `guessDataCommitFromText`) while the file is still being parsed: at once, the one stored for
   * that domain and commit (there is at most one: `save` drops the others), before the data is
   * even located; once it is, the one of the located content, if that is another. `ready` resolves once
   * the reads are under way, or after `patienceMs` when finding the data takes longer (a fetch). The
   * located content's key is computed here only for sources that identify files without reading them
   * (cached URL data); `restore` uses a read only when its key is the located content's.
   */
  prefetch(located: Promise<Located | null>, domain: Domain, commit: string, patienceMs = 60): ReadAhead {
    const family = `v${FORMAT}|${domain}|${commit}|`;
    const ahead = (key: string | null | undefined): boolean => {
      if (key === null || key === undefined) return false;
      this.readEarly(key);
      return this.early.has(key);
    };
    // The family of the guessed commit; else, when the domain has one family kept, that one (a commit guessed from a
    // file's first 64 KB may miss the outputs that tell: a wrong read ahead costs only speed).
    const inFamily = (all: readonly string[]): string | undefined => {
      const ofDomain = all.filter((k) => k.startsWith(`v${FORMAT}|${domain}|`));
      return ofDomain.find((k) => familyOf(k) === family) ?? (new Set(ofDomain.map(familyOf)).size === 1 ? ofDomain[0] : undefined);
    };
    // The family's entry: at once when the keys are listed already (as they usually are), else once they are.
    const kept = this.listed ? Promise.resolve(ahead(inFamily(this.listed))) : this.listing.then((all) => ahead(inFamily(all)));
    const started = located.then(async (loc) => {
      if (loc?.identify && loc.key !== 'sample') ahead(await this.key(loc, domain, commit));
    });
    const underWay = Promise.all([kept, started]).then(
      () => undefined,
      () => undefined,
    );
    return { ready: Promise.race([underWay, new Promise<void>((r) => setTimeout(r, patienceMs))]), kept };
  }

  private readEarly(key: string): void {
    // An entry `restore` knows it reads itself (or took its read ahead already): a second read would only compete.
    if (this.early.has(key) || this.entries.has(key)) return;
    this.early.set(
      key,
      (this.storage.get(key) as Promise<Stored | undefined>).catch(() => undefined),
    );
    // Unused (the guess was wrong, or the data changed): forget it after a while.
    setTimeout(() => this.early.delete(key), 30_000);
  }

  private key(loc: Located, domain: Domain, commit: string): Promise<string | null> {
    const k = `${loc.key}|${domain}|${commit}`;
    let hit = this.contentKeys.get(k);
    if (!hit) {
      hit = contentKey(loc, domain, commit).catch(() => null);
      this.contentKeys.set(k, hit);
      void hit.then((x) => x === null && this.contentKeys.delete(k));
    }
    return hit;
  }

  /**
   * The version detection would choose, restored from a snapshot of the same content
   * without reading or parsing any data file, when that snapshot's reference replays
   * reproduce every recorded gt_data_hash that detection checks (so no other version would
   * be tried). Null otherwise: then the caller loads the data files as usual.
   */
  async restore(session: InspectSession, loc: Located): Promise<DataVersion | null> {
    if (loc.key === 'sample') return null;
    const domain = session.domain;
    const present: { v: DataVersion; key: string }[] = [];
    for (const known of KNOWN_DATA_VERSIONS) {
      const key = await this.key(loc, domain, known.commit);
      if (key !== null) present.push({ v: placeholder(known.commit, known), key });
    }
    const entries = new Map<string, Entry>();
    for (const { v, key } of present) {
      let e = this.entries.get(key);
      if (!e) this.entries.set(key, (e = { key, restored: null, work: null, stored: -1 }));
      entries.set(v.commit, e);
    }
    this.bySession.set(session, entries);
    const preferred = session.preferredVersion(present.map((p) => p.v));
    const entry = preferred ? entries.get(preferred.commit) : undefined;
    if (!preferred || !entry) return null;
    try {
      if (entry.restored && entry.work) {
        if (!session.adoptWork(entry.restored, entry.work)) return null;
      } else {
        const early = this.early.get(entry.key);
        this.early.delete(entry.key);
        const hit = await (early ?? (this.storage.get(entry.key) as Promise<Stored | undefined>));
        if (hit?.format !== FORMAT) return null;
        const restored = session.restoreVersion(
          { commit: preferred.commit, known: preferred.known, source: `${loc.label}/${preferred.commit}`, db: new Map() },
          hit.data,
        );
        if (!restored) return null;
        entry.restored = restored;
        entry.work = hit.data.work;
        entry.stored = hit.data.work.gtHashes.size;
      }
    } catch {
      return null;
    }
    return session.reproducesRecordedHashes(entry.restored) ? entry.restored : null;
  }

  /**
   * After a whole file is evaluated: stores the session's snapshot of the version it used,
   * when the cache lacks it or it now knows more reference replays. Snapshots of other
   * content of the same domain and commit are dropped.
   */
  async save(session: InspectSession): Promise<void> {
    const v = session.dataVersion;
    const entry = v ? this.bySession.get(session)?.get(v.commit) : undefined;
    if (!entry || session.knownGroundTruths() <= entry.stored) return;
    const snap = session.dataSnapshot();
    if (!snap) return;
    try {
      const s = this.storage;
      await s.set(entry.key, { format: FORMAT, data: snap } satisfies Stored);
      entry.stored = snap.work.gtHashes.size;
      entry.restored = v;
      entry.work = snap.work;
      const family = familyOf(entry.key);
      const all = (await s.keys()).filter((k): k is string => typeof k === 'string');
      for (const k of all) if (k !== entry.key && familyOf(k) === family) await s.del(k);
      this.listed = all.filter((k) => k === entry.key || familyOf(k) !== family);
    } catch {
      /* a full or unavailable IndexedDB only costs speed */
    }
  }
}
