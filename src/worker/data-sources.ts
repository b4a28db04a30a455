import { dataPath, DOMAIN_TABLES, KNOWN_DATA_VERSIONS, sha256Hex, type Domain, type ReadText } from '../core/contract';
import type { FileLike, FolderFile } from '../protocol/wire-types';
import { createStore, get as idbGet, setMany as idbSetMany, set as idbSet, type UseStore } from 'idb-keyval';

/** Every path `loadDataVersions` may read for a domain: each known commit, then the checkout layout. */
export function candidatePaths(domain: Domain): string[] {
  const tables = DOMAIN_TABLES[domain];
  return [...KNOWN_DATA_VERSIONS.map((k) => k.commit), undefined].flatMap((commit) => tables.map((t) => dataPath(domain, t, commit)));
}

const LAYOUT = /(?:^|\/)(?:([0-9a-f]{40})\/)?(?:tau_bench\/)?envs\/(retail|airline)\/data\/([^/]+\.json)$/;

/**
 * Maps the files of a picked folder onto data paths. Accepts the ../shared/tau-bench layout
 * (`<commit>/tau_bench/envs/...`), a tau-bench checkout (`tau_bench/envs/...`), and the
 * `tau_bench` or `envs` folder itself, at any depth below the picked folder.
 */
export function folderIndex(files: readonly FolderFile[]): Map<string, FileLike> {
  const index = new Map<string, FileLike>();
  for (const { path, file } of files) {
    const m = LAYOUT.exec(path.replace(/\\/g, '/'));
    if (!m) continue;
    const [, commit, domain, table] = m;
    index.set(dataPath(domain as Domain, table!.replace(/\.json$/, ''), commit), file);
  }
  return index;
}

export function folderReader(index: ReadonlyMap<string, FileLike>): ReadText {
  return async (rel) => {
    const f = index.get(rel);
    return f ? f.text() : null;
  };
}

export interface FetchProgress {
  done: number;
  total: number;
  bytes: number;
}

const joinUrl = (base: string, rel: string): string => `${base.replace(/\/+$/, '')}/${rel}`;

/** What the cache knows about a file without reading it: its sha256 and size, or that the server has none. */
export interface CachedFile {
  readonly sha: string | null;
  readonly bytes: number;
}

/**
 * Browser-side cache of fetched data files, in IndexedDB: the text under its URL and a small
 * `meta:` entry beside it, so a visit can tell what is cached (and identify it) without
 * reading megabytes of text.
 */
export interface TextCache {
  /** Opens its database now (the first read after it then waits for nothing more). */
  open?(): void;
  meta(url: string): Promise<CachedFile | undefined>;
  get(url: string): Promise<string | null | undefined>;
  put(url: string, text: string | null): Promise<CachedFile>;
}

export const fileMeta = (text: string | null): CachedFile => (text === null ? { sha: null, bytes: 0 } : { sha: sha256Hex(text), bytes: text.length });

export function browserCache(): TextCache {
  let store: UseStore | null = null;
  const db = (): UseStore => (store ??= createStore('tau-inspect', 'data'));
  return {
    open: () => void db(),
    meta: (url) => idbGet<CachedFile>(`meta:${url}`, db()),
    get: (url) => idbGet<string | null>(url, db()),
    async put(url, text) {
      const meta = fileMeta(text);
      await idbSetMany(
        [
          [url, text],
          [`meta:${url}`, meta],
        ],
        db(),
      );
      return meta;
    },
  };
}

let fileStore: UseStore | null = null;
const files = (): UseStore => (fileStore ??= createStore('tau-inspect-files', 'files'));

/** Keeps the last opened local results file, so a reload can open it again. */
export const storeFile = (file: FileLike): Promise<void> => idbSet('last', file, files()).catch(() => undefined);

export const loadStoredFile = (): Promise<FileLike | null> =>
  idbGet<FileLike>('last', files()).then(
    (f) => f ?? null,
    () => null,
  );

export async function allCached(cache: TextCache, base: string, paths: readonly string[]): Promise<boolean> {
  try {
    const hits = await Promise.all(paths.map((p) => cache.meta(joinUrl(base, p))));
    return hits.every((h) => h !== undefined);
  } catch {
    return false;
  }
}

async function fetchText(url: string, onBytes: (n: number) => void): Promise<string | null> {
  let res: Response;
  try {
    res = await fetch(url);
  } catch (e) {
    throw new Error(`could not reach ${url} (${e instanceof Error ? e.message : String(e)}; offline, or the server does not allow cross-origin requests)`);
  }
  if (res.status === 404 || res.status === 410) return null;
  if (!res.ok) throw new Error(`GET ${url}: HTTP ${res.status}`);
  if ((res.headers.get('content-type') ?? '').includes('text/html')) return null;
  if (!res.body) return res.text();
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    onBytes(value.byteLength);
  }
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return new TextDecoder().decode(all);
}

/** Data files under a URL base: a reader (cached texts are read only when asked for) and each file's sha256. */
export interface UrlFiles {
  readonly read: ReadText;
  readonly identify: (rel: string) => Promise<string | null>;
  readonly fetched: number;
  readonly found: number;
}

/**
 * Fetches every candidate path under a URL base that the cache lacks, in parallel, reporting
 * progress; cached files are not read until `read` asks for them.
 */
export async function prefetchUrl(base: string, paths: readonly string[], cache: TextCache | null, onProgress: (p: FetchProgress) => void): Promise<UrlFiles> {
  let fetched = 0;
  let found = 0;
  const progress: FetchProgress = { done: 0, total: paths.length, bytes: 0 };
  let last = 0;
  const report = (force: boolean): void => {
    const now = Date.now();
    if (force || now - last > 80) {
      last = now;
      onProgress({ ...progress });
    }
  };
  report(true);
  const texts = new Map<string, Promise<string | null>>();
  const metas = new Map<string, CachedFile>();
  await Promise.all(
    paths.map(async (p) => {
      const url = joinUrl(base, p);
      const cached = cache ? await cache.meta(url).catch(() => undefined) : undefined;
      if (cached !== undefined) {
        metas.set(p, cached);
        if (cached.sha !== null) found++;
        progress.bytes += cached.bytes;
      } else {
        const text = await fetchText(url, (n) => {
          progress.bytes += n;
          report(false);
        });
        fetched++;
        texts.set(p, Promise.resolve(text));
        if (cache) metas.set(p, await cache.put(url, text).catch(() => fileMeta(text)));
        if (text !== null) found++;
      }
      progress.done++;
      report(true);
    }),
  );
  const read: ReadText = (rel) => {
    let t = texts.get(rel);
    if (!t) {
      const meta = metas.get(rel);
      t = meta && meta.sha !== null && cache ? cache.get(joinUrl(base, rel)).then((x) => x ?? null) : Promise.resolve(null);
      texts.set(rel, t);
    }
    return t;
  };
  const identify = async (rel: string): Promise<string | null> => {
    const meta = metas.get(rel);
    if (meta) return meta.sha;
    const text = await read(rel);
    const m = fileMeta(text);
    metas.set(rel, m);
    return m.sha;
  };
  return { read, identify, fetched, found };
}
