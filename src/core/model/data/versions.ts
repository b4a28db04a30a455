import type { PyDict } from '../../py/value';
import { buildDb, DOMAIN_TABLES, type Db, type Domain } from './db';

/**
 * How τ-bench turned checks into a reward:
 * - `db-and-outputs` (merged 2024-12-10, in 14bf0ef): the DB hash must match, and every output be found;
 * - `outputs-only` (up to 7362a17): tasks with outputs are judged on outputs alone, others on the DB.
 */
export type RewardRule = 'db-and-outputs' | 'outputs-only';

/** Where τ-bench's data is fetched from when the user agrees (raw file hosting of the public repository). */
export const DEFAULT_DATA_BASE = 'https://raw.githubusercontent.com/sierra-research/tau-bench';

export interface KnownDataVersion {
  readonly commit: string;
  readonly date: string;
  readonly note: string;
  /** The reward rule τ-bench had at that commit. */
  readonly rule: RewardRule;
  /** Hash of the freshly loaded DB, which identifies the data when the commit is not known. */
  readonly initialHash: Readonly<Record<Domain, string>>;
}

export const PINNED_COMMIT = '14bf0ef52e595922d597a38f32d3e8c0dce3a8f8';
export const HISTORICAL_COMMIT = '7362a1708d720a4d697d042f21fd8637ea144c3b';

/** τ-bench data versions tau-inspect knows by name, newest first. */
export const KNOWN_DATA_VERSIONS: readonly KnownDataVersion[] = [
  {
    commit: PINNED_COMMIT,
    date: '2025-01-22',
    note: 'pinned version; user addresses use "state"',
    rule: 'db-and-outputs',
    initialHash: {
      retail: '5a4b2cb59f4d12dea7e4adff24a7f8fada510ead49372ea4a729a82bbb5f49b5',
      airline: '4587e6b48ad2b2c4f3e1fecb40aabec7bb2286513273b8f8cec3f5865222f290',
    },
  },
  {
    commit: HISTORICAL_COMMIT,
    date: '2024-11-22',
    note: 'data of the published historical trajectories; user addresses use "province"',
    rule: 'outputs-only',
    initialHash: {
      retail: '835f402e86a2f9f1b7d82d8cc497c4f3310c7099db8148fa43709e0eaaf816ed',
      airline: '4a02dcbc0e3ace4d398988d60a33e73afad4d201deb426303159f086cadad20f',
    },
  },
];

export const shortCommit = (c: string): string => c.slice(0, 7);

/** The typed label of a data version. */
export function dataLabel(v: Pick<DataVersion, 'commit' | 'known' | 'label'>): DataLabel {
  if (v.label) return v.label;
  if (v.known) return { kind: 'known', commit: v.known.commit, date: v.known.date };
  return { kind: 'unrecognised', initialHash: v.commit.replace(/^unknown:/, '') };
}

/**
 * What a data version is, typed (the UI and the CLI word it with `describeData`, never by reading `commit`):
 * a known τ-bench commit, data no known commit has (named by the start of its initial hash), or the
 * invented sample data.
 */
export type DataLabel =
  | { readonly kind: 'known'; readonly commit: string; readonly date: string }
  | { readonly kind: 'unrecognised'; readonly initialHash: string }
  | { readonly kind: 'sample' };

/** A loaded data version of one domain. */
export interface DataVersion {
  /** Full commit sha, or `unknown:<initial hash prefix>` for unrecognised data: an identity, not for display (see `label`). */
  readonly commit: string;
  readonly known: KnownDataVersion | null;
  /** What this version is; absent means: known when `known` is set, else unrecognised. */
  readonly label?: DataLabel;
  readonly db: Db;
  /** Where the bytes came from (path or URL), for display. */
  readonly source: string;
}

/** A data version whose DB is parsed on first use (detection often needs only one version). */
export function lazyVersion(commit: string, known: KnownDataVersion | null, source: string, build: () => Db): DataVersion {
  let db: Db | undefined;
  return {
    commit,
    known,
    source,
    get db(): Db {
      db ??= build();
      return db;
    },
  };
}

/** Reads a file relative to a data root; resolves null when it does not exist. */
export type ReadText = (relativePath: string) => Promise<string | null>;

export const dataPath = (domain: Domain, table: string, commit?: string): string => `${commit ? `${commit}/` : ''}tau_bench/envs/${domain}/data/${table}.json`;

async function readTables(read: ReadText, domain: Domain, commit?: string): Promise<Record<string, string> | null> {
  const texts = Object.create(null) as Record<string, string>;
  for (const table of DOMAIN_TABLES[domain]) {
    const text = await read(dataPath(domain, table, commit));
    if (text === null) return null;
    texts[table] = text;
  }
  return texts;
}

/**
 * Loads every data version of `domain` found under a root: `<commit>/tau_bench/envs/...` for
 * each known commit (the layout of ../shared/tau-bench and of raw file hosting), and
 * `tau_bench/envs/...` (a tau-bench checkout). `hash` identifies checkout data by its initial hash.
 */
export async function loadDataVersions(read: ReadText, domain: Domain, source: string, hash: (db: Db) => string): Promise<DataVersion[]> {
  const out: DataVersion[] = [];
  // A data file the same in several versions is parsed once, one frozen table in each of their DBs (see `buildDb`).
  const parsed = new Map<string, PyDict>();
  for (const known of KNOWN_DATA_VERSIONS) {
    const texts = await readTables(read, domain, known.commit);
    if (texts) out.push(lazyVersion(known.commit, known, `${source}/${known.commit}`, () => buildDb(domain, texts, parsed)));
  }
  const checkout = await readTables(read, domain);
  if (checkout) {
    const db = buildDb(domain, checkout, parsed);
    const h = hash(db);
    const known = KNOWN_DATA_VERSIONS.find((k) => k.initialHash[domain] === h) ?? null;
    if (!out.some((v) => v.known !== null && v.known === known))
      out.push({
        commit: known ? known.commit : `unknown:${h.slice(0, 12)}`,
        known,
        label: known ? { kind: 'known', commit: known.commit, date: known.date } : { kind: 'unrecognised', initialHash: h.slice(0, 12) },
        db,
        source,
      });
  }
  return out;
}
