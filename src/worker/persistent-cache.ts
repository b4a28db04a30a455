import { createStore, del, get, keys, set, type UseStore } from 'idb-keyval';
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

let store: UseStore | null = null;
const versionsStore = (): UseStore => (store ??= createStore('tau-inspect-parsed', 'versions'));

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
   * Starts reading the stored snapshot of the version a file will likely use (see
   * `guessDataCommitFromText`) while the file is still being parsed: at once, the one stored for
   * that domain and commit (there is at most one: `save` drops the others), before the data is
   * even located; once it is, the one of the located content, if that is another. Resolves once the
   * reads are under way, or after `patienceMs` when finding the data takes longer (a fetch). The
   * located content's key is computed here only for sources that identify files without reading them
   * (cached URL data); `restore` uses a read only when its key is the located content's.
   */
  async prefetch(located: Promise<Located | null>, domain: Domain, commit: string, patienceMs = 60): Promise<void> {
    const family = `v${FORMAT}|${domain}|${commit}|`;
    // (In a promise chain: where there is no IndexedDB, `versionsStore` throws, and that only costs the read ahead.)
    const guessed = Promise.resolve()
      .then(() => keys(versionsStore()))
      .then((all) => {
        const key = all.find((k): k is string => typeof k === 'string' && familyOf(k) === family);
        if (key !== undefined) this.readEarly(key);
      })
      .catch(() => undefined);
    const started = located.then(async (loc) => {
      if (!loc?.identify || loc.key === 'sample') return;
      const key = await this.key(loc, domain, commit);
      if (key !== null) this.readEarly(key);
    });
    await Promise.race([Promise.all([guessed, started]).catch(() => undefined), new Promise((r) => setTimeout(r, patienceMs))]);
  }

  /** Whether a kept snapshot is being read ahead (`prefetch`) and not yet taken by `restore`. */
  reading(): boolean {
    return this.early.size > 0;
  }

  private readEarly(key: string): void {
    // An entry `restore` knows it reads itself (or took its read ahead already): a second read would only compete.
    if (this.early.has(key) || this.entries.has(key)) return;
    this.early.set(
      key,
      get<Stored>(key, versionsStore()).catch(() => undefined),
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
        const hit = await (early ?? get<Stored>(entry.key, versionsStore()));
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
      const s = versionsStore();
      await set(entry.key, { format: FORMAT, data: snap } satisfies Stored, s);
      entry.stored = snap.work.gtHashes.size;
      entry.restored = v;
      entry.work = snap.work;
      const family = familyOf(entry.key);
      for (const k of await keys(s)) if (typeof k === 'string' && k !== entry.key && familyOf(k) === family) await del(k, s);
    } catch {
      /* a full or unavailable IndexedDB only costs speed */
    }
  }
}
