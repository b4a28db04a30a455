/** One file of `tau-inspect index` evaluated into rows, with what a worker keeps between files (data, hashes, reference replays). */
import { readFile } from 'node:fs/promises';
import { EvalCache, InspectSession, prepareSha256, Tau2FileError, Tau2Session, type DataVersion, type LoadedDbs, type Tau2Run } from '../../core/contract';
import { dataReader } from '../data-reader';
import { readTau2Run } from '../tau2/commands';
import { keepKnownHashes, tau2Data } from '../tau2/db-cache';
import type { FoundRun } from './walk';
import { tau2RunRows, tauBenchRunRows, type IndexRow } from '../../core/contract';

/** Where each benchmark's data is (a folder or URL base). */
export interface DataRoots {
  readonly tauBench: string;
  readonly tau2: string;
}

/**
 * What a worker keeps across the files it evaluates: each domain's data loaded once (τ-bench's versions and a cache of
 * their DB hashes and reference replays, τ²'s DBs), until the plan says the group of files that loaded it is done
 * (`forget`).
 */
export class IndexContext {
  private cache = new EvalCache();
  private readonly versions = new Map<string, Promise<DataVersion[]>>();
  private readonly tau2Dbs = new Map<string, Promise<LoadedDbs>>();
  /** The keys of `versions` and `tau2Dbs` first loaded by a file of each group (`IndexPlan`'s `group`). */
  private readonly loadedBy = new Map<string, { versions: Set<string>; tau2Dbs: Set<string> }>();
  private ready: Promise<void> | null = null;

  constructor(private readonly data: DataRoots) {}

  /**
   * The rows of one run; throws (with the reason in words) for a file that is not one. `group`: the plan's guess of
   * the data it needs, under which the data it loads is kept.
   */
  async rows(run: FoundRun, contentHash: string, group = ''): Promise<IndexRow[]> {
    const before = { versions: new Set(this.versions.keys()), tau2Dbs: new Set(this.tau2Dbs.keys()) };
    try {
      return await this.judged(run, contentHash);
    } finally {
      let mine = this.loadedBy.get(group);
      if (mine === undefined) this.loadedBy.set(group, (mine = { versions: new Set(), tau2Dbs: new Set() }));
      for (const k of this.versions.keys()) if (!before.versions.has(k)) mine.versions.add(k);
      for (const k of this.tau2Dbs.keys()) if (!before.tau2Dbs.has(k)) mine.tau2Dbs.add(k);
    }
  }

  /**
   * Lets go of the data files of `groups` loaded (no file left needs it). τ-bench's hashes and reference replays are
   * in one cache for every domain: it starts afresh, any other domain's made again when asked for.
   */
  forget(groups: readonly string[]): void {
    for (const g of groups) {
      const mine = this.loadedBy.get(g);
      if (mine === undefined) continue;
      this.loadedBy.delete(g);
      for (const k of mine.versions) this.versions.delete(k);
      for (const k of mine.tau2Dbs) this.tau2Dbs.delete(k);
      if (mine.versions.size > 0) this.cache = new EvalCache();
    }
  }

  private async judged(run: FoundRun, contentHash: string): Promise<IndexRow[]> {
    this.ready ??= prepareSha256();
    await this.ready;
    const facts = { file: run.name ?? run.path, content_hash: contentHash };
    let tau2: Tau2Run | null = null;
    let tau2Error: string | null = null;
    try {
      tau2 = await readTau2Run(run.path);
    } catch (e) {
      if (run.kind === 'tau2-folder' || !(e instanceof Tau2FileError)) throw e;
      tau2Error = e.message;
    }
    if (tau2 !== null) return this.tau2Rows(tau2, facts);
    try {
      return await this.tauBenchRows(run.path, facts);
    } catch (e) {
      if (tau2Error === null) throw e;
      throw new Error(`neither a τ²-bench results file (${tau2Error}) nor a τ-bench one (${(e as Error).message})`);
    }
  }

  private async tauBenchRows(path: string, facts: { file: string; content_hash: string }): Promise<IndexRow[]> {
    const bytes = await readFile(path);
    const session = InspectSession.fromBytes(bytes, {}, this.cache, { keptEvaluations: 8 });
    const root = this.data.tauBench;
    const key = `${session.domain}\n${root}`;
    let loading = this.versions.get(key);
    if (loading === undefined) {
      loading = session.loadData(dataReader(root), root);
      this.versions.set(key, loading);
    }
    const versions = await loading;
    if (versions.length === 0) throw new Error(`no ${session.domain} data under ${root} (looked for <commit>/tau_bench/envs/${session.domain}/data/*.json)`);
    session.useData(versions);
    return tauBenchRunRows(session, facts);
  }

  private async tau2Rows(run: Tau2Run, facts: { file: string; content_hash: string }): Promise<IndexRow[]> {
    const { read, store } = tau2Data(this.data.tau2);
    const session = await Tau2Session.open(run, read, { dbs: this.tau2Dbs, ...(store && { store }) });
    const rows = tau2RunRows(run, facts, (i) => session.report(i));
    await keepKnownHashes();
    return rows;
  }
}
