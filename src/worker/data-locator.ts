import { DEFAULT_DATA_BASE, type DataVersion, type Domain, type InspectSession, type ReadText } from '../core/contract';
import type { DataOrigin, FileLike } from '../protocol/wire-types';
import { allCached, browserCache, candidatePaths, folderReader, prefetchUrl, type TextCache } from './data-sources';
import { hasSampleData, readSampleData } from './sample';

/** How the invented sample data is named where a τ-bench commit would be. */
export const SAMPLE_COMMIT = 'sample-runs/data';
export const SAMPLE_LABEL = 'sample-runs/data';

/** A data source holding files of a domain, already read (I/O only, no parsing). */
export interface Located {
  readonly key: string;
  readonly read: ReadText;
  /** The sha256 of a file's text without necessarily reading it (cached files know it). */
  readonly identify?: (relativePath: string) => Promise<string | null>;
  readonly label: string;
  readonly origin: DataOrigin;
}

export type Progress = (p: { done: number; total: number; bytes: number }) => void;

const noRead: ReadText = async () => null;

/**
 * Where τ-bench data comes from, in this order: the embedded sample, a picked folder, URL
 * bases the user agreed to, the dev server's TAU_BENCH_DATA, data cached in this browser.
 * Parsed versions are memoised per source and domain.
 */
export class DataLocator {
  devDataUrl = '';
  folder: { readonly name: string; readonly index: ReadonlyMap<string, FileLike> } | null = null;
  readonly agreedBases = new Set<string>();
  private readonly memo = new Map<string, Promise<DataVersion[]>>();
  private cache: TextCache | null = null;
  private devAvailable: Promise<string | null> | null = null;

  private textCache(): TextCache | null {
    try {
      return (this.cache ??= browserCache());
    } catch {
      return null;
    }
  }

  useFolder(name: string, index: ReadonlyMap<string, FileLike>): void {
    this.folder = { name, index };
    for (const k of [...this.memo.keys()]) if (k.startsWith('folder:')) this.memo.delete(k);
  }

  private probeDev(): Promise<string | null> {
    this.devAvailable ??= (async () => {
      if (!this.devDataUrl) return null;
      try {
        const res = await fetch(this.devDataUrl, { cache: 'no-store' });
        if (!res.ok || !(res.headers.get('content-type') ?? '').includes('json')) return null;
        const body = (await res.json()) as { tauBenchData?: boolean; source?: string };
        return body.tauBenchData ? (body.source ?? 'TAU_BENCH_DATA') : null;
      } catch {
        return null;
      }
    })();
    return this.devAvailable;
  }

  /** The parsed data versions of a located source (memoised; the sample is renamed). */
  versions(key: string, read: ReadText, label: string, session: InspectSession): Promise<DataVersion[]> {
    const k = `${key}|${session.domain}`;
    let hit = this.memo.get(k);
    if (!hit) {
      const loading = session.loadData(read, label);
      hit = key === 'sample' ? loading.then((vs) => vs.map((v) => ({ ...v, commit: SAMPLE_COMMIT, label: { kind: 'sample' } as const }))) : loading;
      this.memo.set(k, hit);
      hit.catch(() => this.memo.delete(k));
    }
    return hit;
  }

  sampleVersions(session: InspectSession): Promise<DataVersion[]> {
    return this.versions('sample', readSampleData, SAMPLE_LABEL, session);
  }

  private memoised(key: string, domain: Domain): boolean {
    return this.memo.has(`${key}|${domain}`);
  }

  /** Finds data for a domain. Errors of one source are reported, then the next is tried. */
  async locate(domain: Domain, sample: boolean, progress: (label: string) => Progress, report: (message: string) => void): Promise<Located | null> {
    const paths = candidatePaths(domain);
    if (sample) {
      if (hasSampleData)
        return {
          key: 'sample',
          read: readSampleData,
          label: SAMPLE_LABEL,
          origin: { kind: 'sample', label: 'embedded sample data (sample-runs/data, invented; no network)' },
        };
      report('sample-runs/data is empty: this build has no sample data. Pick a tau-bench folder or fetch the data instead.');
    }
    const folder = this.folder;
    if (folder && paths.some((p) => folder.index.has(p)))
      return {
        key: `folder:${folder.name}`,
        read: folderReader(folder.index),
        label: folder.name,
        origin: { kind: 'folder', label: `local folder “${folder.name}” (read in this browser)` },
      };
    const store = this.textCache();
    for (const base of this.agreedBases) {
      const key = `url:${base}`;
      const origin = (fetched: boolean): DataOrigin => ({
        kind: fetched ? 'url' : 'cache',
        label: `${base} (${fetched ? 'fetched with your agreement, now cached in this browser' : 'cached in this browser'})`,
      });
      if (this.memoised(key, domain)) return { key, read: noRead, label: base, origin: origin(false) };
      try {
        const { read, identify, fetched, found } = await prefetchUrl(base, paths, store, progress(`Fetching ${domain} data`));
        if (found > 0) return { key, read, identify, label: base, origin: origin(fetched > 0) };
        report(`no ${domain} data under ${base} (looked for ${paths[0]} and similar)`);
      } catch (e) {
        report(`could not load data from ${base}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    const dev = await this.probeDev();
    if (dev) {
      const origin: DataOrigin = { kind: 'dev', label: `dev server ${dev}` };
      if (this.memoised('dev', domain)) return { key: 'dev', read: noRead, label: this.devDataUrl, origin };
      const { read, identify, found } = await prefetchUrl(this.devDataUrl, paths, null, progress('Reading TAU_BENCH_DATA'));
      if (found > 0) return { key: 'dev', read, identify, label: this.devDataUrl.replace(/\/$/, ''), origin };
    }
    const key = `url:${DEFAULT_DATA_BASE}`;
    const cached: DataOrigin = { kind: 'cache', label: `${DEFAULT_DATA_BASE} (cached in this browser earlier)` };
    if (this.memoised(key, domain)) return { key, read: noRead, label: DEFAULT_DATA_BASE, origin: cached };
    if (store && (await allCached(store, DEFAULT_DATA_BASE, paths))) {
      const { read, identify } = await prefetchUrl(DEFAULT_DATA_BASE, paths, store, progress('Reading cached data'));
      return { key, read, identify, label: DEFAULT_DATA_BASE, origin: cached };
    }
    return null;
  }
}
