import { DEFAULT_DATA_BASE, type DataVersion, type Domain, type InspectSession, type ReadText } from '../core/contract';
import { candidatePaths, folderIndex } from './data-sources';
import { BenchmarkData } from './data-locator';
import { hasSampleData, readSampleData } from './sample';

/** How the invented sample data is named where a τ-bench commit would be. */
export const SAMPLE_COMMIT = 'sample-runs/data';
export const SAMPLE_LABEL = 'sample-runs/data';

/**
 * τ-bench's data as the locator finds it (`<commit>/tau_bench/envs/<domain>/data/*.json`, or a checkout's
 * `tau_bench/envs/…`), and its parsed versions, memoised per source and domain.
 */
export class TauBenchData extends BenchmarkData {
  readonly kind = 'tau-bench';
  readonly name = 'τ-bench';
  readonly sample = {
    has: hasSampleData,
    read: readSampleData,
    label: SAMPLE_LABEL,
    origin: 'embedded sample data (sample-runs/data, invented; no network)',
    missing: 'sample-runs/data is empty: this build has no sample data. Pick a tau-bench folder or fetch the data instead.',
  };
  readonly dev = { route: '', flag: 'tauBenchData', variable: 'TAU_BENCH_DATA' };
  readonly defaultBase = DEFAULT_DATA_BASE;
  readonly folderIndex = folderIndex;
  private readonly memo = new Map<string, Promise<DataVersion[]>>();

  fetchPaths(domain: string): readonly string[] {
    return candidatePaths(domain as Domain);
  }
  folderPaths(domain: string): readonly string[] {
    return candidatePaths(domain as Domain);
  }
  complete(found: number): boolean {
    return found > 0;
  }
  kept(key: string, domain: string): boolean {
    return this.memo.has(`${key}|${domain}`);
  }

  /** The versions loaded from a located source for `domain` (null: none kept). */
  keptVersions(key: string, domain: string): Promise<DataVersion[]> | null {
    return this.memo.get(`${key}|${domain}`) ?? null;
  }

  /** A picked folder replaces the one before: what was loaded from a folder of that name is read again. */
  forgetFolder(): void {
    for (const k of [...this.memo.keys()]) if (k.startsWith('folder:')) this.memo.delete(k);
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

  /** A session chose its version among `versions(key, …)` (a library judge then shares what it loaded; nothing here). */
  used(_key: string, _session: InspectSession): void {}

  sampleVersions(session: InspectSession): Promise<DataVersion[]> {
    return this.versions('sample', readSampleData, SAMPLE_LABEL, session);
  }
}
