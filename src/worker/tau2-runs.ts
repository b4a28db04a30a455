import {
  type EpisodeHeader,
  type EpisodeNotes,
  type EpisodeSummary,
  attachNotes,
  type StepEdit,
  type LoadedDbs,
  prepareSha256,
  type ReadText,
  TAU2_DEFAULT_DATA_BASE,
  TAU2_PINNED_COMMIT,
  tau2DbPaths,
  tau2Fingerprint,
  tau2LegacyFingerprint,
  tau2NumTrials,
  tau2Rows,
  Tau2Session,
  tau2ReportParts,
  tau2SimulationJson,
  tau2Summary,
  type Tau2Run,
} from '../core/contract';
import type { ShareContext, SharedContext } from '../protocol/share-context';
import type { ToWorker } from '../protocol/messages';
import type { DataOrigin, EpisodeAddress, FileLike, FolderFile, RunSlot } from '../protocol/wire-types';
import { allCached, browserCache, folderReader, prefetchUrl, type TextCache } from './data-sources';
import type { DataLocator } from './data-locator';
import { Keyer } from './keyer';
import { post, yieldToMessages } from './post';
import { NOT_OPEN, postReport, type ReportSource } from './report-blob';
import { readSampleTau2Data, hasSampleTau2Data } from './sample';
import { postShareLink } from './shared-episode';

/** A τ² run open in a slot. */
interface Tau2Current {
  readonly slot: RunSlot;
  readonly run: number;
  readonly tau2: Tau2Run;
  /** Each simulation's row header, as it went out (without its fingerprint unless the run is a shared link's). */
  headers: EpisodeHeader[];
  /**
   * The rows' fingerprints (each hashes its simulation's content, ~1.5 ms): the rows go out without them (null) and
   * `fingerprints` brings them after, the simulation opened and the rows on screen first.
   */
  keyer: Keyer;
  readonly sample: boolean;
  session: Tau2Session | null;
  readonly evaluated: Uint8Array;
  count: number;
  priority: number[];
  cancelled: boolean;
  /** Bumped whenever the data changes or the run is closed, so a running loop stops. */
  epoch: number;
}

/** Where τ² data was found: a reader of `<commit>/data/tau2/domains/…` (or the checkout layout), and what to tell the user. */
interface Tau2Located {
  readonly key: string;
  readonly read: ReadText;
  readonly origin: DataOrigin;
  /** A URL base the user agreed to (or the dev server): banking_knowledge's documents are fetched from it when opened. */
  readonly base?: string;
}

/** `read`, and for a knowledge-base document it does not have, the file fetched from `base` (one small file, when a simulation is opened). */
function withDocuments(read: ReadText, base: string): ReadText {
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

/** A call's arguments as searchable text: keys and values, nested ones too. */
function argumentsText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'bigint' || typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v instanceof Map) return [...v].map(([k, x]) => `${String(k)} ${argumentsText(x)}`).join(' ');
  return Array.isArray(v) ? v.map(argumentsText).join(' ') : '';
}

/** The row of a simulation that could not be judged at all (its index and error set). */
const NOT_JUDGED: EpisodeSummary = {
  index: 0,
  reward: null,
  hypotheticalReward: null,
  done: false,
  doneBy: null,
  reasons: [],
  reasonTexts: [],
  error: null,
  strategy: null,
  stepsExecuted: 0,
  diffCount: 0,
  outputsMissing: [],
  outputsTotal: 0,
  agrees: null,
};

/** The longest wait (ms) between two `summaries` while a run is judged. */
const EMIT_MS = 120;

/**
 * The τ²-bench runs the page opened, one per slot, beside the τ-bench runs of `RunController`: each
 * read whole, its domain's DBs found (the embedded sample, a picked folder, a URL base the user
 * agreed to, the dev server's TAU2_DATA, the public host's files cached in this browser) and loaded
 * once per source, then every simulation judged by `Tau2Session`, rows on screen first.
 */
export class Tau2Runs {
  private readonly slots: Record<RunSlot, Tau2Current | null> = { a: null, b: null };
  private folder: { readonly name: string; readonly index: ReadonlyMap<string, FileLike> } | null = null;
  /** Loaded DBs per data source (each source's DBs are read and validated once). */
  private readonly dbs = new Map<string, Map<string, Promise<LoadedDbs>>>();
  private cache: TextCache | null = null;
  private devAvailable: Promise<string | null> | null = null;

  constructor(private readonly data: DataLocator) {}

  private live(c: Tau2Current): boolean {
    return this.slots[c.slot] === c;
  }

  /**
   * A τ² domain's data for a library folder's run (src/worker/library): the same sources in the same order as an
   * opened run, with the DBs it loaded kept per source; null when none has it. Nothing is posted (no run of the page).
   */
  async libraryData(tau2: Tau2Run): Promise<{ read: ReadText; dbs: Map<string, Promise<LoadedDbs>> } | null> {
    const c = { slot: 'a', run: -1, tau2, sample: false } as unknown as Tau2Current;
    const loc = await this.locate(c, () => undefined);
    if (!loc) return null;
    let dbs = this.dbs.get(loc.key);
    if (!dbs) this.dbs.set(loc.key, (dbs = new Map()));
    return { read: loc.read, dbs };
  }

  private at(run: number): Tau2Current | null {
    return this.slots.a?.run === run ? this.slots.a : this.slots.b?.run === run ? this.slots.b : null;
  }

  close(slot: RunSlot): void {
    const c = this.slots[slot];
    if (c) c.epoch++;
    this.slots[slot] = null;
  }

  /** `shared`: the context a shared link carried with the simulation (file, index, notes). */
  async open(slot: RunSlot, run: number, tau2: Tau2Run, label: string, sample: boolean, shared?: SharedContext): Promise<void> {
    this.close(slot);
    const c = {
      slot,
      run,
      tau2,
      headers: tau2Rows(tau2),
      sample,
      session: null,
      evaluated: new Uint8Array(tau2.simulations.length),
      count: 0,
      priority: [],
      cancelled: false,
      epoch: 0,
    } as Omit<Tau2Current, 'keyer'> as Tau2Current;
    this.slots[slot] = c;
    if (shared !== undefined) {
      // A shared link's one simulation: its notes are adopted under its fingerprint as the run opens.
      await prepareSha256().catch(() => undefined);
      if (!this.live(c)) return;
    }
    c.keyer = new Keyer(
      { run, compute: (i) => tau2Fingerprint(tau2, i), legacy: (i) => tau2LegacyFingerprint(tau2, i), live: () => this.live(c) },
      c.headers.length,
    );
    if (shared !== undefined) c.headers = c.headers.map((h, i) => ({ ...h, fingerprint: c.keyer.fingerprint(i) }));
    post({
      type: 'run-opened',
      run,
      label,
      domain: null,
      domainWhy: `a τ²-bench results file (${tau2.simulations.length} simulations, ${tau2.tasks.size} tasks${tau2.soloMode ? ', solo mode' : ''}) of domain ${
        tau2.domain
      } (info.environment_info.domain_name)`,
      headers: c.headers,
      ...(shared !== undefined && { shared }),
      tau2: {
        domain: tau2.domain,
        solo: tau2.soloMode,
        numTrials: tau2NumTrials(tau2),
        notes: tau2.notes,
      },
    });
    await this.resolveData(c);
  }

  useFolder(name: string, files: readonly FolderFile[]): void {
    const index = tau2FolderIndex(files);
    if (index.size === 0) {
      for (const c of [this.slots.a, this.slots.b])
        if (c && !c.session)
          post({
            type: 'data-error',
            run: c.run,
            message: `“${name}” holds no τ²-bench data files (expected data/tau2/domains/<domain>/… as in a tau2-bench checkout, or <commit>/data/tau2/domains/<domain>/…)`,
          });
      return;
    }
    this.folder = { name, index };
    this.dbs.delete(`folder:${name}`);
    this.retryData();
  }

  /** Looks for data again (a URL base was agreed to, a folder picked) for runs still without it. */
  retryData(): void {
    for (const c of [this.slots.a, this.slots.b]) if (c && !c.session && !c.sample) void this.resolveData(c);
  }

  private textCache(): TextCache | null {
    try {
      return (this.cache ??= browserCache());
    } catch {
      return null;
    }
  }

  /** The dev server's τ² data route (`$TAU2_DATA`), beside its τ-bench one: its descriptor's source, or null. */
  private devUrl(): string | null {
    try {
      return this.data.devDataUrl ? new URL('../tau2-data/', this.data.devDataUrl).href : null;
    } catch {
      return null;
    }
  }

  private probeDev(): Promise<string | null> {
    this.devAvailable ??= (async () => {
      const url = this.devUrl();
      if (!url) return null;
      try {
        const res = await fetch(url, { cache: 'no-store' });
        if (!res.ok || !(res.headers.get('content-type') ?? '').includes('json')) return null;
        const body = (await res.json()) as { tau2Data?: boolean; source?: string };
        return body.tau2Data ? (body.source ?? 'TAU2_DATA') : null;
      } catch {
        return null;
      }
    })();
    return this.devAvailable;
  }

  /** Finds the domain's data: sample, picked folder, agreed URL bases, the dev server, this browser's cache of the public host. */
  private async locate(c: Tau2Current, report: (m: string) => void): Promise<Tau2Located | null> {
    const domain = c.tau2.domain;
    const atCommit = tau2DbPaths(domain, false) ?? [];
    const anyLayout = tau2DbPaths(domain, true) ?? [];
    const progress = (label: string) => (p: { done: number; total: number; bytes: number }) =>
      this.live(c) && post({ type: 'data-progress', run: c.run, label, ...p });
    if (c.sample && hasSampleTau2Data)
      return {
        key: 'sample',
        read: readSampleTau2Data,
        origin: { kind: 'sample', label: 'embedded sample data (sample-runs/tau2-data, invented; no network)' },
      };
    const folder = this.folder;
    if (folder && anyLayout.some((p) => folder.index.has(p)))
      return {
        key: `folder:${folder.name}`,
        read: folderReader(folder.index),
        origin: { kind: 'folder', label: `local folder “${folder.name}” (read in this browser)` },
      };
    const store = this.textCache();
    for (const base of this.data.agreedBases) {
      try {
        const { read, fetched, found } = await prefetchUrl(base, atCommit, store, progress(`Fetching τ² ${domain} data`));
        if (found === atCommit.length)
          return {
            key: `url:${base}`,
            read,
            base,
            origin: {
              kind: fetched > 0 ? 'url' : 'cache',
              label: `${base} (${fetched > 0 ? 'fetched with your agreement, now cached' : 'cached'} in this browser)`,
            },
          };
        report(`no τ² ${domain} data under ${base} (looked for ${atCommit[0]})`);
      } catch (e) {
        report(`could not load τ² data from ${base}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    const dev = await this.probeDev();
    const devUrl = this.devUrl();
    if (dev && devUrl) {
      const origin: DataOrigin = { kind: 'dev', label: `dev server ${dev}` };
      // DBs read from the dev server once stay loaded (validated): the next file of the domain does not fetch them again.
      if (this.dbs.get('dev')?.has(`${domain}@${TAU2_PINNED_COMMIT}`)) return { key: 'dev', read: async () => null, origin, base: devUrl };
      const { read, found } = await prefetchUrl(devUrl, atCommit, null, progress('Reading TAU2_DATA'));
      if (found === atCommit.length) return { key: 'dev', read, origin, base: devUrl };
    }
    if (store && (await allCached(store, TAU2_DEFAULT_DATA_BASE, atCommit))) {
      const { read, found } = await prefetchUrl(TAU2_DEFAULT_DATA_BASE, atCommit, store, progress('Reading cached τ² data'));
      if (found === atCommit.length)
        return { key: `url:${TAU2_DEFAULT_DATA_BASE}`, read, origin: { kind: 'cache', label: `${TAU2_DEFAULT_DATA_BASE} (cached in this browser earlier)` } };
    }
    return null;
  }

  private async resolveData(c: Tau2Current): Promise<void> {
    const report = (message: string): void => void (this.live(c) && post({ type: 'data-error', run: c.run, message }));
    const paths = tau2DbPaths(c.tau2.domain, false);
    try {
      if (paths === null) {
        // Unknown or not ported: the session's own words say which.
        await Tau2Session.open(c.tau2, async () => null);
        return;
      }
      const loc = await this.locate(c, report);
      if (!this.live(c)) return;
      if (!loc) {
        post({
          type: 'data-needed',
          run: c.run,
          benchmark: 'tau2',
          domain: c.tau2.domain,
          suggestedBase: TAU2_DEFAULT_DATA_BASE,
          files: paths,
          reason: `Recomputing rewards needs τ²-bench's ${c.tau2.domain} DB (${paths
            .map((p) => p.slice(p.lastIndexOf('/') + 1))
            .join(', ')} at ${TAU2_PINNED_COMMIT.slice(0, 7)}, v1.0.1; τ²'s DB files are the same from v0.1.0 to v1.0.1), which is not in this browser yet.`,
        });
        return;
      }
      await prepareSha256().catch(() => undefined);
      let dbs = this.dbs.get(loc.key);
      if (!dbs) this.dbs.set(loc.key, (dbs = new Map()));
      const session = await Tau2Session.open(c.tau2, loc.base ? withDocuments(loc.read, loc.base) : loc.read, { dbs });
      if (!this.live(c)) return;
      c.session = session;
      c.epoch++;
      post({ type: 'tau2-ready', run: c.run, origin: loc.origin, why: session.dataWhy });
      void this.evaluateAll(c, c.epoch);
    } catch (e) {
      // A source that failed is not kept: the next try reads it again.
      this.dbs.clear();
      report(e instanceof Error ? e.message : String(e));
    }
  }

  private summary(c: Tau2Current, i: number): EpisodeSummary {
    let s: EpisodeSummary;
    try {
      s = tau2Summary(c.session!.report(i));
    } catch (e) {
      const error = e instanceof Error ? e.message : String(e);
      s = { ...NOT_JUDGED, index: i, error };
    }
    if (!c.evaluated[i]) {
      c.evaluated[i] = 1;
      c.count++;
    }
    return s;
  }

  private nextIndex(c: Tau2Current): number | null {
    while (c.priority.length > 0) {
      const i = c.priority.shift()!;
      if (i >= 0 && i < c.evaluated.length && !c.evaluated[i]) return i;
    }
    const i = c.evaluated.indexOf(0);
    return i < 0 ? null : i;
  }

  private async evaluateAll(c: Tau2Current, epoch: number): Promise<void> {
    const live = (): boolean => this.live(c) && c.epoch === epoch && !c.cancelled;
    const total = c.evaluated.length;
    let batch: EpisodeSummary[] = [];
    let last = 0;
    const flush = (): void => {
      if (batch.length === 0) return;
      post({ type: 'summaries', run: c.run, summaries: batch, evaluated: c.count, total, replace: false });
      batch = [];
      last = performance.now();
    };
    for (;;) {
      if (!live()) return flush();
      const i = this.nextIndex(c);
      if (i === null) break;
      batch.push(this.summary(c, i));
      if (c.count <= 1 || performance.now() - last > EMIT_MS) flush();
      await yieldToMessages();
    }
    flush();
  }

  cancel(run: number): void {
    const c = this.at(run);
    if (c) c.cancelled = true;
  }

  resume(run: number): void {
    const c = this.at(run);
    if (!c || !c.cancelled) return;
    c.cancelled = false;
    if (c.session) void this.evaluateAll(c, ++c.epoch);
  }

  prioritize(run: number, indices: readonly number[]): void {
    const c = this.at(run);
    if (!c) return;
    c.priority = [...indices];
    c.keyer.first(indices);
  }

  /** Whether `run` is a τ² run (its requests are answered here). */
  has(run: number): boolean {
    return this.at(run) !== null;
  }

  /** A simulation's screen data (judged now if it was not yet: its row goes out too). */
  simView({ run, episode }: EpisodeAddress): void {
    const c = this.at(run);
    if (!c) return;
    // The simulation opened gets its notes at once, not when the sweep reaches it.
    c.keyer.now(episode);
    if (!c.session) return post({ type: 'tau2-view', run, episode, view: null, error: 'waiting for τ² data' });
    if (episode < 0 || episode >= c.evaluated.length) return post({ type: 'tau2-view', run, episode, view: null, error: `no simulation ${episode}` });
    if (!c.evaluated[episode])
      post({ type: 'summaries', run, summaries: [this.summary(c, episode)], evaluated: c.count, total: c.evaluated.length, replace: false });
    const session = c.session;
    try {
      const view = session.simView(episode);
      if (session.domain.name !== 'banking_knowledge') return post({ type: 'tau2-view', run, episode, view, error: null });
      // banking_knowledge: the retrieved documents are opened from the data first (a few small files).
      void session.retrieval(episode).then(
        (retrieval) => post({ type: 'tau2-view', run, episode, view: { ...view, retrieval }, error: null }),
        () => post({ type: 'tau2-view', run, episode, view, error: null }),
      );
    } catch (e) {
      post({ type: 'tau2-view', run, episode, view: null, error: e instanceof Error ? e.message : String(e) });
    }
  }

  /** The offline report of a τ² run (as the CLI's `report`, with the notes of its simulations): every simulation judged first. */
  async report(run: number, id: number, title: string, notes: readonly EpisodeNotes[]): Promise<void> {
    const c = this.at(run);
    const session = c?.session ?? null;
    await postReport(
      run,
      id,
      !c ? NOT_OPEN : !session ? 'the run is waiting for τ² data; rewards cannot be recomputed yet' : this.reportSource(c, session, title, notes),
    );
  }

  private reportSource(c: Tau2Current, session: Tau2Session, title: string, notes: readonly EpisodeNotes[]): ReportSource {
    return {
      total: c.evaluated.length,
      isEvaluated: (i) => c.evaluated[i] === 1,
      evaluate: (i) => this.summary(c, i),
      evaluated: () => c.count,
      gone: () => !this.live(c),
      // The notes are matched to simulations by fingerprint: every one is needed.
      keyed: () => c.keyer.finish(),
      parts: () => tau2ReportParts(session, title, attachNotes(c.keyer.rowKeys(), notes).byIndex),
    };
  }

  /** A DB of a simulation after a message (the replay is kept by the session for the simulation open). */
  state(m: ToWorker<'tau2-state'>): void {
    const { run, episode } = m;
    const c = this.at(run);
    if (!c) return;
    if (!c.session) return post({ type: 'tau2-state', run, episode, state: null, error: 'waiting for τ² data' });
    try {
      post({ type: 'tau2-state', run, episode, state: c.session.stateAt(episode, m.message, m.db, m.record), error: null });
    } catch (e) {
      post({ type: 'tau2-state', run, episode, state: null, error: e instanceof Error ? e.message : String(e) });
    }
  }

  /** A simulation with what-if edits, judged again (the page keeps the edits; only its latest `id` is shown). */
  whatIf({ run, episode }: EpisodeAddress, id: number, edits: readonly StepEdit[]): void {
    const c = this.at(run);
    if (!c) return;
    const refuse = (error: string): void => post({ type: 'tau2-what-if', run, episode, id, view: null, error });
    if (!c.session) return refuse('waiting for τ² data');
    if (episode < 0 || episode >= c.evaluated.length) return refuse(`no simulation ${episode}`);
    try {
      const r = c.session.whatIf(episode, edits);
      if ('error' in r) refuse(r.error);
      else post({ type: 'tau2-what-if', run, episode, id, view: r, error: null });
    } catch (e) {
      refuse(e instanceof Error ? e.message : String(e));
    }
  }

  /** Simulations whose messages (text, tool names and arguments) hold the query, case-insensitively, like a τ-bench search. */
  search(run: number, id: number, query: string): void {
    const c = this.at(run);
    if (!c) return;
    const q = query.toLowerCase();
    const holds = (t: string | null): boolean => t !== null && t.toLowerCase().includes(q);
    const indices = c.tau2.simulations
      .filter(
        (s) =>
          q === '' ||
          s.messages.some(
            (m) => m.role !== 'system' && (holds(m.content) || (m.toolCalls ?? []).some((x) => holds(x.name) || holds(argumentsText(x.arguments)))),
          ),
      )
      .map((s) => s.index);
    post({ type: 'search', run, id, query, indices });
  }

  /** The `ep=` payload of a simulation shared with its context (a τ² results file of its one task and simulation), and that file. */
  shareLink(address: EpisodeAddress, context: ShareContext): void {
    const c = this.at(address.run);
    if (c) postShareLink(address, context, () => tau2SimulationJson(c.tau2, address.episode), 'simulation');
  }

  /** The τ-bench episode view does not serve τ² simulations: they have their own screen. */
  view({ run, episode }: EpisodeAddress): void {
    if (this.has(run)) post({ type: 'view', run, episode, view: null, error: 'a τ² simulation: see the τ² simulation screen' });
  }

  transcript({ run, episode }: EpisodeAddress): void {
    if (this.has(run)) post({ type: 'transcript', run, episode, transcript: null });
  }
}
