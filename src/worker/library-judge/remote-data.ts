/**
 * A library judge's data: τ-bench's and τ²'s layouts (their memo of versions and DBs, as in the evaluator) whose
 * sources are the evaluator's, asked over the wire (`locate`, then each file `read`). A domain's data is loaded by
 * one judge: the others restore what it shares (`SharedData`) through the evaluator.
 */
import {
  EvalCache,
  TAU2_DOMAINS,
  TAU2_PINNED_COMMIT,
  tau2DbsFromSnapshot,
  tau2DbsSnapshot,
  type DataSnapshot,
  type DataVersion,
  type InspectSession,
  type LoadedDbs,
  type ReadText,
} from '../../core/contract';
import { DataLocator, type Located } from '../data-locator';
import { TauBenchData } from '../tau-bench-data';
import { Tau2Data } from '../tau2/data';
import type { DataKind, FromLibraryJudge, SharedDataOf, ToLibraryJudge } from './wire';

type Answer = Extract<ToLibraryJudge, { rid: number }>;
type Question = Extract<FromLibraryJudge, { rid: number }>;
/** A question before it is numbered. */
type Unnumbered<T> = T extends unknown ? Omit<T, 'rid'> : never;

/** Questions to the evaluator and their answers, matched by `rid`. */
export class Asker {
  private next = 0;
  private readonly waiting = new Map<number, (a: Answer) => void>();

  constructor(private readonly post: (m: FromLibraryJudge) => void) {}

  private ask(m: Unnumbered<Question>): Promise<Answer> {
    const rid = this.next++;
    return new Promise((resolve) => {
      this.waiting.set(rid, resolve);
      this.post({ ...m, rid });
    });
  }

  answer(a: Answer): void {
    const w = this.waiting.get(a.rid);
    this.waiting.delete(a.rid);
    w?.(a);
  }

  /** Where `kind`'s data of `domain` is, with a reader of its files through the evaluator. */
  async locate(kind: DataKind, domain: string): Promise<Located | null> {
    const located = await this.ask({ type: 'locate', kind, domain });
    const found = located.type === 'located' ? located.found : null;
    if (found === null) return null;
    const read: ReadText = async (path) => {
      const a = await this.ask({ type: 'read', kind, key: found.key, domain, path });
      if (a.type !== 'text') return null;
      if (a.error !== null) throw new Error(a.error);
      return a.text;
    };
    return { key: found.key, label: found.label, origin: found.origin, read };
  }

  /** The data another judge loaded of `domain` at `key`; null: this judge loads it, and must `share` it (or null). */
  async shared<K extends DataKind>(kind: K, key: string, domain: string): Promise<SharedDataOf[K] | null> {
    const a = await this.ask({ type: 'ask-shared', kind, key, domain });
    // The evaluator answers with what a judge shared for the same kind.
    return a.type === 'shared' ? (a.data as SharedDataOf[K] | null) : null;
  }

  share<K extends DataKind>(kind: K, key: string, domain: string, data: SharedDataOf[K] | null): void {
    this.post({ type: 'share', kind, key, domain, data });
  }

  work(key: string, domain: string, commit: string, gtHashes: ReadonlyMap<string, string>): void {
    this.post({ type: 'work', key, domain, commit, gtHashes });
  }
}

/** A judge's versions of one source and domain, and what it owes the other judges. */
interface Mine {
  readonly key: string;
  readonly domain: string;
  versions: Promise<DataVersion[]>;
  /** Reference-replay hashes told to the evaluator, by commit. */
  readonly told: Map<string, number>;
  /** The commits whose DB was built here (parsed or restored): the others are never touched (see `track`). */
  readonly built: Set<string>;
  /** The data files' texts this judge read to load them, while it owes them to the others (see `used`); null once shared, or when it was handed them. */
  owed: Map<string, string> | null;
}

/**
 * τ-bench's data found by the evaluator: versions parsed here, once per source and domain, unless another judge
 * did already (restored from what it shares, with the reference replays it hashed); `cache` is the judge's. A judge
 * that loads a domain's data shares it once its first run has chosen a version (`used`): the versions it built (DB,
 * hasher, reference-replay hashes) and the data files' texts, from which the others build a version it did not use
 * if they need one. Before, every version was built and hashed to be shared at once (~300 ms of retail's two and
 * ~650 ms of airline's in the judge that loaded them, mostly for a version no run of the 12 shared ones used), and
 * copied three times on the way.
 */
export class RemoteTauBenchData extends TauBenchData {
  private readonly mine = new Map<string, Mine>();

  constructor(
    private readonly asker: Asker,
    private readonly cache: EvalCache,
  ) {
    super(new DataLocator());
  }
  override locate(domain: string): Promise<Located | null> {
    return this.asker.locate('tau-bench', domain);
  }

  override versions(key: string, read: ReadText, label: string, session: InspectSession): Promise<DataVersion[]> {
    const k = `${key}|${session.domain}`;
    let hit = this.mine.get(k);
    if (!hit) {
      const m: Mine = { key, domain: session.domain, versions: Promise.resolve([]), told: new Map(), built: new Set(), owed: null };
      m.versions = this.sharedOrLoaded(key, read, label, session, m);
      this.mine.set(k, (hit = m));
      m.versions.catch(() => this.mine.delete(k));
    }
    return hit.versions;
  }

  /** `v` as it is, noting in `built` when its DB is first asked for (a version whose DB is never asked for is never parsed). */
  private static track(v: DataVersion, built: Set<string>): DataVersion {
    const { commit } = v;
    return {
      commit,
      known: v.known,
      source: v.source,
      ...(v.label !== undefined && { label: v.label }),
      get db() {
        built.add(commit);
        return v.db;
      },
    };
  }

  private async sharedOrLoaded(key: string, read: ReadText, label: string, session: InspectSession, m: Mine): Promise<DataVersion[]> {
    const domain = session.domain;
    const shared = await this.asker.shared(this.kind, key, domain);
    if (shared !== null) {
      // Each version built by the judge that shared it revived, the work on it taken over (by this judge's cache, the
      // session's); the others as the data files' texts it read, parsed here only if asked for.
      const restored = new Map<string, DataVersion>();
      for (const { facts, snapshot } of shared.versions) {
        const v = session.restoreVersion({ ...facts, db: new Map() }, snapshot);
        if (v === null) break;
        restored.set(v.commit, { ...v, ...(facts.label !== undefined && { label: facts.label }) });
      }
      if (restored.size === shared.versions.length) {
        const texts = new Map(shared.texts);
        const lazy = await super.versions(key, async (path) => texts.get(path) ?? null, label, session);
        const all = [...lazy.map((v) => restored.get(v.commit) ?? v), ...[...restored.values()].filter((v) => !lazy.some((l) => l.commit === v.commit))];
        for (const commit of restored.keys()) m.built.add(commit);
        return all.map((v) => RemoteTauBenchData.track(v, m.built));
      }
    }
    // This judge loads them (the texts it reads kept to share).
    const texts = new Map<string, string>();
    const recording: ReadText = async (path) => {
      const text = await read(path);
      if (text !== null) texts.set(path, text);
      return text;
    };
    let versions: DataVersion[];
    try {
      versions = await super.versions(key, recording, label, session);
    } catch (e) {
      if (shared === null) this.asker.share(this.kind, key, domain, null);
      throw e;
    }
    if (shared === null) m.owed = texts;
    return versions.map((v) => RemoteTauBenchData.track(v, m.built));
  }

  /** A run chose its version: data this judge owes the others is shared now (the versions built, the texts). */
  override used(key: string, session: InspectSession): void {
    const m = this.mine.get(`${key}|${session.domain}`);
    if (m) void this.settle(m);
  }

  /** After a run: data this judge still owes (its run failed before it chose a version) is shared as it is. */
  settleOwed(): Promise<void> {
    return Promise.all([...this.mine.values()].map((m) => this.settle(m))).then(() => undefined);
  }

  private async settle(m: Mine): Promise<void> {
    const texts = m.owed;
    if (texts === null) return;
    m.owed = null;
    const versions = await m.versions.catch(() => null);
    if (versions === null) return this.asker.share(this.kind, m.key, m.domain, null);
    this.asker.share(this.kind, m.key, m.domain, {
      versions: versions
        .filter((v) => m.built.has(v.commit))
        .map(({ db, ...facts }) => ({ facts, snapshot: { domain: m.domain as DataSnapshot['domain'], db, work: this.cache.snapshot(db) } })),
      texts: [...texts],
    });
  }

  /** Tells the evaluator the reference replays hashed here since it was last told (after each run). */
  async shareWork(): Promise<void> {
    for (const m of this.mine.values()) {
      const versions = await m.versions.catch(() => []);
      for (const v of versions) {
        if (!m.built.has(v.commit)) continue;
        const n = this.cache.groundTruthCount(v.db);
        if (n <= (m.told.get(v.commit) ?? 0)) continue;
        m.told.set(v.commit, n);
        this.asker.work(m.key, m.domain, v.commit, this.cache.groundTruthHashes(v.db));
      }
    }
  }
}

/** A map of loaded DBs that calls `loading` for each DB it is handed to keep (a session loading them). */
class WatchedDbs extends Map<string, Promise<LoadedDbs>> {
  loading: ((key: string, dbs: Promise<LoadedDbs>) => void) | null = null;
  override set(key: string, dbs: Promise<LoadedDbs>): this {
    super.set(key, dbs);
    this.loading?.(key, dbs);
    return this;
  }
}

/**
 * τ²'s data found by the evaluator: DBs loaded here, once per source and domain, unless another judge did already
 * (restored from its `tau2DbsSnapshot`); knowledge documents read through the evaluator's reader.
 */
export class RemoteTau2Data extends Tau2Data {
  private readonly mine = new Map<string, WatchedDbs>();
  /** DBs this judge was asked to load and has not shared yet, by `<source key>|<domain>`. */
  private readonly owed = new Set<string>();

  constructor(private readonly asker: Asker) {
    super(new DataLocator());
  }
  override locate(domain: string): Promise<Located | null> {
    return this.asker.locate('tau2', domain);
  }

  override loaded(key: string): Map<string, Promise<LoadedDbs>> {
    let dbs = this.mine.get(key);
    if (!dbs) this.mine.set(key, (dbs = new WatchedDbs()));
    return dbs;
  }

  override async forLibrary(domain: string): Promise<{ read: ReadText; dbs: Map<string, Promise<LoadedDbs>> } | null> {
    const loc = await this.locate(domain);
    if (!loc) return null;
    const dbs = this.loaded(loc.key) as WatchedDbs;
    const classes = TAU2_DOMAINS.get(domain);
    // As `Tau2Session.open` keys them (telecom-workflow's DBs are telecom's).
    const dbKey = `${classes?.name}@${TAU2_PINNED_COMMIT}`;
    if (classes !== undefined && !dbs.has(dbKey)) {
      const shared = await this.asker.shared(this.kind, loc.key, domain);
      if (shared === null) {
        // This judge loads them (the session does, into `dbs`) and hands them on as one snapshot.
        const owed = `${loc.key}|${domain}`;
        this.owed.add(owed);
        dbs.loading = (key, loading) => {
          if (key !== dbKey) return;
          dbs.loading = null;
          loading.then(
            (loaded) => this.settle(owed, loc.key, domain, () => ({ snapshot: tau2DbsSnapshot(classes, loaded) })),
            () => this.settle(owed, loc.key, domain, () => null),
          );
        };
      } else {
        try {
          dbs.set(dbKey, Promise.resolve(tau2DbsFromSnapshot(classes, shared.snapshot)));
        } catch {
          // A snapshot that does not read back: the session loads the files.
        }
      }
    }
    return { read: this.reader(loc), dbs };
  }

  private settle(owed: string, key: string, domain: string, data: () => SharedDataOf['tau2'] | null): void {
    if (!this.owed.delete(owed)) return;
    let d: SharedDataOf['tau2'] | null = null;
    try {
      d = data();
    } catch {
      /* nothing to share: the others load it themselves */
    }
    this.asker.share(this.kind, key, domain, d);
  }

  /** After a run: DBs this judge was to load but never did (its run failed before) are given up, so no judge waits for them. */
  settleOwed(): void {
    for (const owed of [...this.owed]) {
      const at = owed.lastIndexOf('|');
      this.settle(owed, owed.slice(0, at), owed.slice(at + 1), () => null);
    }
  }
}
