import {
  type LoadedDbs,
  type ReadText,
  TAU2_DEFAULT_DATA_BASE,
  TAU2_DOMAINS,
  TAU2_PINNED_COMMIT,
  tau2DbPaths,
  tau2DbsSnapshot,
  type Tau2DbSnapshot,
} from '../../core/contract';
import type { FileLike, FolderFile } from '../../protocol/wire-types';
import { BenchmarkData, type Located } from '../data-locator';
import { hasSampleTau2Data, readSampleTau2Data } from '../sample';

/** A τ²-bench data file of a picked folder: `[<commit>/]data/tau2/domains/<domain>/<file>`, at any depth. */
const LAYOUT = /(?:^|\/)(?:([0-9a-f]{40})\/)?data\/tau2\/domains\/([A-Za-z0-9_-]+)\/([^/]+\.(?:json|toml))$/;

/** The τ² data files of a picked folder, under the paths `Tau2Session` reads. */
export function tau2FolderIndex(files: readonly FolderFile[]): Map<string, FileLike> {
  const index = new Map<string, FileLike>();
  for (const { path, file } of files) {
    const m = LAYOUT.exec(path.replace(/\\/g, '/'));
    if (m) index.set(`${m[1] ? `${m[1]}/` : ''}data/tau2/domains/${m[2]}/${m[3]}`, file);
  }
  return index;
}

/** `read`, and for a knowledge-base document it does not have, the file fetched from `base` (one small file, when a simulation is opened). */
export function withDocuments(read: ReadText, base: string): ReadText {
  return async (rel) => {
    const text = await read(rel);
    if (text !== null || !/\/documents\/doc_[^/]+\.json$/.test(rel)) return text;
    try {
      const res = await fetch(new URL(rel.split('/').map(encodeURIComponent).join('/'), base.endsWith('/') ? base : `${base}/`).href);
      return res.ok ? await res.text() : null;
    } catch {
      return null;
    }
  };
}

/**
 * τ²'s data as the locator finds it (`<commit>/data/tau2/domains/<domain>/…`, or a checkout's `data/tau2/…`): every
 * DB file of the pinned commit must be there; the DBs loaded (validated) are kept per source, each read once.
 */
export class Tau2Data extends BenchmarkData {
  readonly kind = 'tau2';
  readonly name = 'τ²';
  readonly sample = {
    has: hasSampleTau2Data,
    read: readSampleTau2Data,
    label: 'sample-runs/tau2-data',
    origin: 'embedded sample data (sample-runs/tau2-data, invented; no network)',
    missing: 'sample-runs/tau2-data is empty: this build has no τ² sample data. Pick a tau2-bench folder or fetch the data instead.',
  };
  readonly dev = { route: '../tau2-data/', flag: 'tau2Data', variable: 'TAU2_DATA' };
  readonly defaultBase = TAU2_DEFAULT_DATA_BASE;
  readonly folderIndex = tau2FolderIndex;
  /** Loaded DBs per data source. */
  private readonly dbs = new Map<string, Map<string, Promise<LoadedDbs>>>();

  fetchPaths(domain: string): readonly string[] {
    return tau2DbPaths(domain, false) ?? [];
  }
  folderPaths(domain: string): readonly string[] {
    return tau2DbPaths(domain, true) ?? [];
  }
  complete(found: number, total: number): boolean {
    return total > 0 && found === total;
  }
  kept(key: string, domain: string): boolean {
    return this.dbs.get(key)?.has(`${domain}@${TAU2_PINNED_COMMIT}`) === true;
  }

  forgetFolder(): void {
    for (const k of [...this.dbs.keys()]) if (k.startsWith('folder:')) this.dbs.delete(k);
  }

  /** A source failed: nothing of it is kept, the next try reads it again. */
  forgetAll(): void {
    this.dbs.clear();
  }

  /** The DBs loaded from a source so far (a session opened on it adds its domain's). */
  loaded(key: string): Map<string, Promise<LoadedDbs>> {
    let dbs = this.dbs.get(key);
    if (!dbs) this.dbs.set(key, (dbs = new Map()));
    return dbs;
  }

  /** The DBs of `domain` loaded from a located source as `tau2DbsSnapshot` gives them (null: none kept): for the library judges. */
  keptSnapshot(key: string, domain: string): Promise<Tau2DbSnapshot> | null {
    const classes = TAU2_DOMAINS.get(domain);
    const dbs = classes && this.dbs.get(key)?.get(`${classes.name}@${TAU2_PINNED_COMMIT}`);
    return dbs ? dbs.then((loaded) => tau2DbsSnapshot(classes, loaded)) : null;
  }

  /** The reader a session uses for a located source: banking_knowledge's documents come from its base when opened. */
  reader(loc: Located): ReadText {
    return loc.base ? withDocuments(loc.read, loc.base) : loc.read;
  }

  /**
   * A domain's data for a library folder's run: the same sources in the same order as an opened run, with the DBs
   * loaded kept per source; null when none has it. Nothing is posted (no run of the page).
   */
  async forLibrary(domain: string): Promise<{ read: ReadText; dbs: Map<string, Promise<LoadedDbs>> } | null> {
    const loc = await this.locate(
      domain,
      false,
      () => () => undefined,
      () => undefined,
    );
    return loc ? { read: this.reader(loc), dbs: this.loaded(loc.key) } : null;
  }
}
