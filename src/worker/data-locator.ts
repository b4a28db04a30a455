import type { BenchmarkKind, ReadText } from '../core/contract';
import type { DataOrigin, FileLike, FolderFile } from '../protocol/wire-types';
import { allCached, browserCache, folderReader, prefetchUrl, type TextCache } from './data-sources';

/** A data source holding files of a domain, already read (I/O only, no parsing). */
export interface Located {
  readonly key: string;
  readonly read: ReadText;
  /** The sha256 of a file's text without necessarily reading it (cached files know it). */
  readonly identify?: (relativePath: string) => Promise<string | null>;
  readonly label: string;
  readonly origin: DataOrigin;
  /** A URL base the files come from (a base the user agreed to, or the dev server), for files read later (τ³'s documents). */
  readonly base?: string;
}

export type Progress = (p: { done: number; total: number; bytes: number }) => void;

const noRead: ReadText = async () => null;

/**
 * How one benchmark's data is laid out and named, for `DataLocator.locate`: the one description a benchmark gives of
 * its data (src/worker/tau-bench-layout.ts, src/worker/tau2/layout.ts). Everything else about finding data — the order
 * of the sources, the folder picked, the URL bases agreed to, the dev server, this browser's cache — is the locator's.
 */
export interface DataLayout {
  /** Which benchmark's data this is. */
  readonly kind: BenchmarkKind;
  /** The benchmark's name in messages (`τ-bench`, `τ²`). */
  readonly name: string;
  /** The embedded sample data (sample-runs/…): used for a sample run. */
  readonly sample: { readonly has: boolean; readonly read: ReadText; readonly label: string; readonly origin: string; readonly missing: string };
  /** The data files of a domain as fetched from a URL base (every known commit's paths), and as a folder may hold them (any layout). */
  fetchPaths(domain: string): readonly string[];
  folderPaths(domain: string): readonly string[];
  /** Enough of `fetchPaths` were found under a base to use it. */
  complete(found: number, total: number): boolean;
  /** A picked folder's files of this benchmark, under the paths `fetchPaths`/`folderPaths` name. */
  folderIndex(files: readonly FolderFile[]): Map<string, FileLike>;
  /** The dev server's route for this data (relative to the τ-bench route `init` names), the flag its descriptor sets, and its variable. */
  readonly dev: { readonly route: string; readonly flag: string; readonly variable: string };
  /** Where the public data lives (files cached from it earlier are used without asking). */
  readonly defaultBase: string;
  /** This domain's data of source `key` is loaded already (parsed and kept): nothing needs to be read again. */
  kept(key: string, domain: string): boolean;
}

/**
 * A benchmark's data as the run handles use it: its layout (the subclass) found by the one locator. A folder picked
 * for this benchmark replaces its folder before (`forgetFolder`: what was loaded from a folder of that name is read
 * again); one picked for another benchmark leaves it alone.
 */
export abstract class BenchmarkData implements DataLayout {
  abstract readonly kind: BenchmarkKind;
  abstract readonly name: string;
  abstract readonly sample: DataLayout['sample'];
  abstract readonly dev: DataLayout['dev'];
  abstract readonly defaultBase: string;
  abstract fetchPaths(domain: string): readonly string[];
  abstract folderPaths(domain: string): readonly string[];
  abstract complete(found: number, total: number): boolean;
  abstract folderIndex(files: readonly FolderFile[]): Map<string, FileLike>;
  abstract kept(key: string, domain: string): boolean;
  abstract forgetFolder(): void;

  constructor(readonly locator: DataLocator) {}

  locate(domain: string, sample: boolean, progress: (label: string) => Progress, report: (message: string) => void): Promise<Located | null> {
    return this.locator.locate(this, domain, sample, progress, report);
  }
}

/**
 * Where each benchmark's data comes from, in this order: the embedded sample (for a sample run), a picked
 * folder, URL bases the user agreed to, the dev server (`TAU_BENCH_DATA`, `TAU2_DATA`), data cached in this
 * browser from the public host. One chain for every benchmark; a `DataLayout` says what to look for.
 */
export class DataLocator {
  devDataUrl = '';
  readonly agreedBases = new Set<string>();
  /** One folder per benchmark: the last one picked that holds its data files (its name and those files, by path). */
  private readonly folders = new Map<DataLayout, { readonly name: string; readonly files: ReadonlyMap<string, FileLike> }>();
  private cache: TextCache | null = null;
  private readonly devAvailable = new Map<DataLayout, Promise<string | null>>();

  /** Opens this browser's cache of data files as the worker starts: the first run's data is then found without waiting for it to open. */
  openCache(): void {
    try {
      this.textCache()?.open?.();
    } catch {
      /* no IndexedDB here: nothing is cached */
    }
  }

  private textCache(): TextCache | null {
    try {
      return (this.cache ??= browserCache());
    } catch {
      return null;
    }
  }

  /**
   * A folder was picked or dropped for `layouts` (the benchmark it was picked for, or every one for a drop): each of them
   * that finds its data files in it takes it in place of its folder before; the others keep theirs. Returns those that took it.
   */
  useFolder(name: string, files: readonly FolderFile[], layouts: readonly DataLayout[]): DataLayout[] {
    const took: DataLayout[] = [];
    for (const layout of layouts) {
      const index = layout.folderIndex(files);
      if (index.size === 0) continue;
      this.folders.set(layout, { name, files: index });
      took.push(layout);
    }
    return took;
  }

  /** The folder picked for a layout's benchmark: its files of that layout (empty without one). */
  folderFiles(layout: DataLayout): ReadonlyMap<string, FileLike> {
    return this.folders.get(layout)?.files ?? new Map();
  }

  /** The dev server's route for a layout (absolute), or null without a dev server. */
  devUrl(layout: DataLayout): string | null {
    try {
      return this.devDataUrl ? new URL(layout.dev.route, this.devDataUrl).href : null;
    } catch {
      return null;
    }
  }

  private probeDev(layout: DataLayout): Promise<string | null> {
    let probe = this.devAvailable.get(layout);
    if (!probe) {
      probe = (async () => {
        const url = this.devUrl(layout);
        if (!url) return null;
        try {
          const res = await fetch(url, { cache: 'no-store' });
          if (!res.ok || !(res.headers.get('content-type') ?? '').includes('json')) return null;
          const body = (await res.json()) as Record<string, unknown>;
          return body[layout.dev.flag] === true ? (typeof body.source === 'string' ? body.source : layout.dev.variable) : null;
        } catch {
          return null;
        }
      })();
      this.devAvailable.set(layout, probe);
    }
    return probe;
  }

  /** Finds a domain's data. Errors of one source are reported, then the next is tried; null: none has it. */
  async locate(
    layout: DataLayout,
    domain: string,
    sample: boolean,
    progress: (label: string) => Progress,
    report: (message: string) => void,
  ): Promise<Located | null> {
    const paths = layout.fetchPaths(domain);
    if (sample) {
      if (layout.sample.has)
        return { key: 'sample', read: layout.sample.read, label: layout.sample.label, origin: { kind: 'sample', label: layout.sample.origin } };
      report(layout.sample.missing);
    }
    const folder = this.folders.get(layout);
    if (folder && layout.folderPaths(domain).some((p) => folder.files.has(p)))
      return {
        key: `folder:${folder.name}`,
        read: folderReader(folder.files),
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
      if (layout.kept(key, domain)) return { key, read: noRead, label: base, base, origin: origin(false) };
      try {
        const { read, identify, fetched, found } = await prefetchUrl(base, paths, store, progress(`Fetching ${layout.name} ${domain} data`));
        if (layout.complete(found, paths.length)) return { key, read, identify, label: base, base, origin: origin(fetched > 0) };
        report(`no ${layout.name} ${domain} data under ${base} (looked for ${paths[0]} and similar)`);
      } catch (e) {
        report(`could not load ${layout.name} data from ${base}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    const dev = await this.probeDev(layout);
    const devUrl = this.devUrl(layout);
    if (dev && devUrl) {
      const origin: DataOrigin = { kind: 'dev', label: `dev server ${dev}` };
      const label = devUrl.replace(/\/$/, '');
      if (layout.kept('dev', domain)) return { key: 'dev', read: noRead, label, base: devUrl, origin };
      const { read, identify, found } = await prefetchUrl(devUrl, paths, null, progress(`Reading ${layout.dev.variable}`));
      if (layout.complete(found, paths.length)) return { key: 'dev', read, identify, label, base: devUrl, origin };
    }
    const key = `url:${layout.defaultBase}`;
    const cached: DataOrigin = { kind: 'cache', label: `${layout.defaultBase} (cached in this browser earlier)` };
    if (layout.kept(key, domain)) return { key, read: noRead, label: layout.defaultBase, origin: cached };
    if (store && (await allCached(store, layout.defaultBase, paths))) {
      const { read, identify, found } = await prefetchUrl(layout.defaultBase, paths, store, progress(`Reading cached ${layout.name} data`));
      if (layout.complete(found, paths.length)) return { key, read, identify, label: layout.defaultBase, origin: cached };
    }
    return null;
  }
}
