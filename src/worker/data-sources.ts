import { dataPath, DOMAIN_TABLES, KNOWN_DATA_VERSIONS, type Domain, type FileLike, type FolderFile, type ReadText } from '../core/contract';
import { createStore, get as idbGet, set as idbSet, type UseStore } from 'idb-keyval';

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

/** Browser-side cache of fetched data files (IndexedDB; `null`: the server has no such file). */
export interface TextCache {
  get(url: string): Promise<string | null | undefined>;
  put(url: string, text: string | null): Promise<void>;
}

export function browserCache(): TextCache {
  let store: UseStore | null = null;
  const db = (): UseStore => (store ??= createStore('tau-inspect', 'data'));
  return {
    get: (url) => idbGet<string | null>(url, db()),
    put: (url, text) => idbSet(url, text, db()),
  };
}

let fileStore: UseStore | null = null;
const files = (): UseStore => (fileStore ??= createStore('tau-inspect-files', 'files'));

/** Keeps the last opened local results file, so a reload can open it again. */
export const storeFile = (file: FileLike): Promise<void> => idbSet('last', file, files()).catch(() => undefined);

export const loadStoredFile = (): Promise<FileLike | null> => idbGet<FileLike>('last', files()).then((f) => f ?? null, () => null);

export async function allCached(cache: TextCache, base: string, paths: readonly string[]): Promise<boolean> {
  try {
    const hits = await Promise.all(paths.map((p) => cache.get(joinUrl(base, p))));
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

/**
 * Fetches every candidate path under a URL base in parallel (cache first), reporting progress,
 * and returns a reader over the results.
 */
export async function prefetchUrl(
  base: string,
  paths: readonly string[],
  cache: TextCache | null,
  onProgress: (p: FetchProgress) => void,
): Promise<{ read: ReadText; fetched: number; found: number }> {
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
  const texts = new Map<string, string | null>();
  await Promise.all(
    paths.map(async (p) => {
      const url = joinUrl(base, p);
      let text = cache ? await cache.get(url).catch(() => undefined) : undefined;
      if (text === undefined) {
        text = await fetchText(url, (n) => {
          progress.bytes += n;
          report(false);
        });
        fetched++;
        if (cache) await cache.put(url, text).catch(() => undefined);
      } else if (text !== null) progress.bytes += text.length;
      texts.set(p, text);
      if (text !== null) found++;
      progress.done++;
      report(true);
    }),
  );
  return { read: async (rel) => texts.get(rel) ?? null, fetched, found };
}
