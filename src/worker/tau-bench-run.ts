import {
  DOMAIN_TABLES,
  type DataVersion,
  type Detection,
  type Domain,
  type EpisodeNotes,
  type EpisodeView,
  InspectSession,
  type StepEdit,
  type ViewResult,
  attachNotes,
  DEFAULT_DATA_BASE,
  sessionReportParts,
} from '../core/contract';
import type { ToWorker } from '../protocol/messages';
import type { ShareContext, SharedContext } from '../protocol/share-context';
import type { DataOrigin, EpisodeAddress, RunSlot } from '../protocol/wire-types';
import type { ByteStore } from './byte-store';
import { candidatePaths } from './data-sources';
import type { Located, Progress } from './data-locator';
import { HELPED_EPISODES, JudgeHelper } from './judge-helper/helper';
import { Keyer } from './keyer';
import type { PersistentVersions } from './persistent-cache';
import { post, yieldToMessages } from './post';
import { NOT_OPEN, postReport, scheduledReport, type ReportSource } from './report-blob';
import type { RunHandle } from './run-handle';
import { hasSampleData } from './sample';
import { Scheduler } from './scheduler';
import { postShareLink } from './shared-episode';
import type { TauBenchData } from './tau-bench-data';

/** Episodes searched between two looks at the message queue (a few milliseconds of work); how often rows read from a big file are sent to the page. */
const SEARCH_SLICE = 100;
const ROWS_MS = 250;

/** Data for the domain the file's first bytes suggest, looked for while the rest is read. */
export interface EarlyData {
  readonly domain: Domain;
  readonly located: Promise<Located | null>;
}

/** What a τ-bench run needs of the worker: its data and the parsed DBs kept from earlier visits. */
export interface TauBenchEnv {
  readonly data: TauBenchData;
  readonly persisted: PersistentVersions;
}

/**
 * A τ-bench run open in a slot: read (while it is judged, for a big file), its data found and its version detected,
 * every episode judged by `InspectSession` through a `Scheduler` (rows on screen first; a big run on two threads),
 * then its rule settled and the parsed data kept for later visits.
 */
export class TauBenchRun implements RunHandle {
  private readonly scheduler: Scheduler;
  private detection: Detection | null = null;
  private origin: DataOrigin = { kind: 'sample', label: '' };
  /** Bumped whenever data changes, so a running loop stops. */
  private epoch = 0;
  private finished = false;
  private closed = false;
  /** Rows sent to the page (all but the last few while the file is read), and when they last were. */
  private rows: number;
  private rowsSent = performance.now();
  /** A second worker judging part of a big run (see `JudgeHelper`), while it is judged. */
  private helper: JudgeHelper | null = null;
  /**
   * The rows' fingerprints: the rows go out without them (hashing each episode as it is read cost the reading thread
   * ~1.5 s of a 5,000-episode file), the episode opened and the rows on screen get theirs at once, the rest are
   * computed from the episodes' text again once reading and judging leave this thread idle.
   */
  private readonly keyer: Keyer;
  /** Data is being looked for (`resolveData` calls under way): the first verdict is near, the sweep waits for it. */
  private looking = 0;
  /**
   * Resolves when the run's first verdict is out, or once it is known not to come from a DB kept from an earlier
   * visit (none was found or it could not be used): reading the file is held until then (see the controller's `open`).
   */
  readonly firstVerdict: Promise<void>;
  private verdictOut: () => void = () => undefined;
  /** Searches started: one that sees a newer one started stops. */
  private searches = 0;

  constructor(
    readonly slot: RunSlot,
    readonly run: number,
    readonly session: InspectSession,
    private readonly sample: boolean,
    /** The file's bytes when it was read as it streamed in (the judge helper is sent episodes from there). */
    private readonly bytes: ByteStore | null,
    private readonly env: TauBenchEnv,
  ) {
    const count = session.headers().length;
    this.rows = count;
    this.firstVerdict = new Promise<void>((r) => (this.verdictOut = r));
    this.scheduler = new Scheduler(session, yieldToMessages, count);
    this.keyer = new Keyer(
      {
        run,
        compute: (i) => session.fingerprint(i),
        legacy: (i) => session.legacyFingerprints().get(i) ?? [],
        live: () => this.live(),
        // Reading, finding data and judging come first: the sweep takes the time this thread would otherwise wait
        // (and runs at once when there is no data to judge with).
        mayGo: () => !session.reading && this.looking === 0 && !this.scheduler.busy,
      },
      count,
      session.reading,
    );
  }

  private live(): boolean {
    return !this.closed;
  }

  /** `run-opened` with the rows read so far (all of them unless the session is still reading). */
  announce(label: string, shared: SharedContext | undefined): void {
    const session = this.session;
    let headers = session.headers();
    // A shared link's episode: its notes are adopted under its fingerprint as the run opens.
    if (shared !== undefined) headers = headers.map((h, i) => ({ ...h, fingerprint: this.keyer.fingerprint(i) }));
    post({
      type: 'run-opened',
      run: this.run,
      label,
      benchmark: { kind: 'tau-bench', domain: session.domain },
      domainWhy: session.domainWhy,
      headers,
      reading: session.reading,
      ...(shared !== undefined && { shared }),
    });
  }

  close(): void {
    this.closed = true;
    this.epoch++;
    this.scheduler.cancel();
    this.unhelp();
  }

  hold(): () => void {
    const stoppedBefore = this.scheduler.isCancelled;
    this.scheduler.cancel();
    const release = this.keyer.hold();
    return () => {
      release();
      if (!stoppedBefore && this.live() && this.detection && !this.finished) this.restart();
    };
  }

  /**
   * A big run (read while it is judged, or of many episodes) is judged on two threads: a judge helper takes batches of its episodes, on the data in use (from
   * the first rows of each evaluation on, so the first verdict does not wait for the DB to be copied, nor share the cores with the helper starting). Where a
   * worker cannot start another (tests, other hosts) everything is judged here.
   */
  private helpWith(): void {
    const bytes = this.bytes;
    if (
      !this.helper &&
      bytes &&
      typeof Worker === 'function' &&
      (this.session.reading || this.session.records.length >= HELPED_EPISODES) &&
      this.session.episodeRange(0) !== null
    ) {
      this.helper = new JudgeHelper(this.session, this.scheduler, (start, end) => bytes.read(start, end));
      this.scheduler.useOffload(this.helper);
    }
    this.helper?.useData();
  }

  /** The run is judged, closed or replaced: its helper stops (episodes it had go back to the scheduler). */
  private unhelp(): void {
    this.scheduler.useOffload(null);
    this.helper?.close();
    this.helper = null;
  }

  /**
   * Rows read since the last ones sent go to the page (a few times a second while the file is read, so no task on the page handles thousands at once; `last`:
   * the file is read to its end), and the scheduler may judge them.
   */
  sendRows(last: boolean): void {
    if (!this.live()) return;
    const count = this.session.records.length;
    if (!last && (count === this.rows || performance.now() - this.rowsSent < ROWS_MS)) return;
    post({ type: 'run-rows', run: this.run, headers: this.session.headers(this.rows), reading: !last });
    this.rows = count;
    this.rowsSent = performance.now();
    this.scheduler.grow(count, !last);
    this.keyer.grow(count, !last);
  }

  retryData(onlyIfMissing: boolean): void {
    if (!this.sample && !(onlyIfMissing && this.detection)) void this.resolveData();
  }

  get data(): TauBenchData {
    return this.env.data;
  }

  folderPicked(name: string, found: boolean): void {
    if (this.sample) return;
    if (found) return this.retryData(false);
    post({
      type: 'data-error',
      run: this.run,
      message: `“${name}” holds no τ-bench data files (expected <commit>/tau_bench/envs/<domain>/data/*.json or tau_bench/envs/<domain>/data/*.json)`,
    });
  }

  async resolveData(early: EarlyData | null = null): Promise<void> {
    this.looking++;
    try {
      await this.findData(early);
    } finally {
      this.looking--;
      // No data found: no verdict comes to wait for.
      if (!this.detection) this.verdictOut();
    }
  }

  private async findData(early: EarlyData | null): Promise<void> {
    const { session, run } = this;
    const domain = session.domain;
    const { data, persisted } = this.env;
    const progress =
      (label: string): Progress =>
      (p) =>
        this.live() && post({ type: 'data-progress', run, label, ...p });
    const report = (message: string): void => void (this.live() && post({ type: 'data-error', run, message }));
    try {
      const loc = early?.domain === domain ? await early.located : await data.locate(domain, this.sample, progress, report);
      if (!this.live()) return;
      if (!loc && hasSampleData && domain === 'retail') {
        // A run recorded on the embedded sample data (e.g. one episode shared in a link) needs nothing else.
        const sample = await data.sampleVersions(session);
        if (!this.live()) return;
        if (sample[0] && session.reproducesRecordedHashes(sample[0])) {
          this.useData(sample, { kind: 'sample', label: 'embedded sample data (the recorded gt_data_hash values match it)' });
          return;
        }
      }
      if (!loc) {
        post({
          type: 'data-needed',
          run,
          benchmark: 'tau-bench',
          domain,
          suggestedBase: DEFAULT_DATA_BASE,
          files: candidatePaths(domain),
          reason: `Recomputing rewards needs τ-bench's ${domain} data (the initial DB), which is not in this browser yet.`,
        });
        return;
      }
      // The parsed DB and its hashes from an earlier visit, when this browser keeps them: no data file is read or parsed.
      const restored = await persisted.restore(session, loc);
      // Without a kept DB the first verdict waits for the data files to be parsed: reading goes on meanwhile.
      if (!restored) this.verdictOut();
      if (!this.live()) return;
      const vs = restored ? [restored] : await data.versions(loc.key, loc.read, loc.label, session);
      const extra = vs.length > 0 && !this.sample && hasSampleData ? await data.sampleVersions(session) : [];
      if (!this.live()) return;
      if (vs.length > 0) this.useData([...vs, ...extra], loc.origin, extra);
      else report(`${loc.label} has files of the ${domain} domain, but not a complete set of tables (${DOMAIN_TABLES[domain].join(', ')})`);
    } catch (e) {
      report(e instanceof Error ? e.message : String(e));
    }
  }

  private postDetection(reset: boolean): void {
    const detection = this.detection!;
    post({ type: 'data-ready', run: this.run, detection, origin: this.origin, why: detection.versionWhy, reset });
  }

  /** `sampleCandidates`: sample data offered beside real data; it wins only when the file's recorded gt_data_hash values match it. */
  private useData(vs: DataVersion[], located: DataOrigin, sampleCandidates: readonly DataVersion[] = []): void {
    if (!this.live()) return;
    const detection = this.session.useData(vs);
    this.origin = sampleCandidates.some((v) => v.commit === detection.dataCommit)
      ? { kind: 'sample', label: 'embedded sample data (the recorded gt_data_hash values match it)' }
      : located;
    this.epoch++;
    this.detection = detection;
    this.scheduler.reset();
    this.finished = false;
    this.postDetection(true);
    void this.evaluateAll(this.epoch);
  }

  private async evaluateAll(epoch: number): Promise<void> {
    const s = this.scheduler;
    const complete = await s.runAll(
      () => this.live() && this.epoch === epoch,
      (summaries) => {
        post({ type: 'summaries', run: this.run, summaries, evaluated: s.count, total: s.total, replace: false, threads: this.helper?.working ? 2 : 1 });
        this.verdictOut();
        // Once the first verdict is out, a big run gets its second thread (the DB is copied to it meanwhile).
        this.helpWith();
      },
    );
    if (complete) await this.settle();
  }

  /** Once every episode is evaluated: settles the rule (all rows again if it changed) and keeps the parsed data for later visits. */
  private async settle(): Promise<void> {
    const s = this.scheduler;
    if (this.finished || this.session.reading) return;
    if (this.session.settleData()) {
      // Every recorded hash weighed: they overturn the data version the first ones suggested. Every verdict is made again
      // on the version most of them fit, and the detection says so (`dataOverturned`).
      this.epoch++;
      this.detection = this.session.detection();
      s.reset();
      this.postDetection(true);
      void this.evaluateAll(this.epoch);
      return;
    }
    this.finished = true;
    this.unhelp();
    const changed = this.session.finish();
    this.detection = this.session.detection();
    this.postDetection(false);
    if (changed) post({ type: 'summaries', run: this.run, summaries: this.session.summaries(), evaluated: s.total, total: s.total, replace: true });
    await this.env.persisted.save(this.session);
  }

  cancel(): void {
    this.scheduler.cancel();
  }

  /** Goes on after `cancel`: nothing to do before its data is known, once it is finished, or while it runs. */
  resume(): void {
    if (!this.detection || this.finished || !this.scheduler.isCancelled) return;
    this.restart();
  }

  /** Evaluation goes on after a cancel. A loop stopped by `cancel` may not have noticed yet: the new epoch ends it for good. */
  private restart(): void {
    this.scheduler.resume();
    this.epoch++;
    void this.evaluateAll(this.epoch);
  }

  /**
   * The offline report of a run (with the page's what-if edits): every episode evaluated first (the rule settled), then
   * `sessionReportParts` gathered into a Blob a megabyte at a time. Both stages pause every few milliseconds for other
   * messages, so building the report of a big run (~100 MB for 5,000 episodes) never holds the worker.
   */
  async report(id: number, title: string, notes: readonly EpisodeNotes[], edits: ReadonlyMap<number, readonly StepEdit[]> = new Map()): Promise<void> {
    await postReport(
      this.run,
      id,
      !this.live()
        ? NOT_OPEN
        : !this.detection
          ? 'the run is waiting for τ-bench data; rewards cannot be recomputed yet'
          : this.session.reading
            ? 'the file is still being read; the report can be made once every episode is in'
            : this.reportSource(title, notes, edits),
    );
  }

  /** A run as its report is built (`postReport`): episodes evaluated first, the rule settled, the notes matched by fingerprint. */
  private reportSource(title: string, notes: readonly EpisodeNotes[], edits: ReadonlyMap<number, readonly StepEdit[]>): ReportSource {
    return scheduledReport(this.scheduler, {
      gone: () => !this.live(),
      settled: () => void this.settle(),
      // The notes are matched to episodes by fingerprint: the missing ones are computed now (none needed without notes).
      keyed: () => (notes.length > 0 ? this.keyer.finish() : Promise.resolve()),
      parts: () => sessionReportParts(this.session, { title, notes: attachNotes(this.keyer.rowKeys(), notes).byIndex, edits }),
    });
  }

  prioritize(indices: readonly number[]): void {
    this.scheduler.prioritize(indices);
    this.keyer.first(indices);
  }

  /**
   * Searches in slices of episodes, letting other messages (a view, a step) in between, so a search through thousands of episodes never holds the worker; a
   * search overtaken by a newer one stops (the page only wants the newest).
   */
  search(id: number, query: string): void {
    void this.searchSlices(id, query);
  }

  private async searchSlices(id: number, query: string): Promise<void> {
    const mine = ++this.searches;
    const indices: number[] = [];
    const total = this.session.records.length;
    for (let at = 0; at < total; at += SEARCH_SLICE) {
      if (at > 0) {
        await yieldToMessages();
        if (mine !== this.searches || !this.live()) return;
      }
      indices.push(...this.session.search(query, at, at + SEARCH_SLICE));
    }
    post({ type: 'search', run: this.run, id, query, indices });
  }

  view({ run, episode }: EpisodeAddress): void {
    // The episode opened gets its notes at once, not when the sweep reaches it.
    this.keyer.now(episode);
    if (!this.detection) {
      post({ type: 'view', run, episode, view: null, error: 'waiting for data' });
      return;
    }
    const s = this.scheduler;
    const fresh = !s.isEvaluated(episode);
    const answer = this.answer(episode, () => this.session.view(episode));
    if (fresh && episode >= 0 && episode < s.total)
      post({ type: 'summaries', run, summaries: [s.evaluate(episode)], evaluated: s.count, total: s.total, replace: false });
    post({ type: 'view', run, episode, ...answer });
  }

  /** A τ-bench episode is text only. */
  audio({ run, episode }: EpisodeAddress): void {
    post({ type: 'audio', run, episode, audio: null, path: null, error: 'a τ-bench episode has no audio' });
  }

  transcript({ run, episode }: EpisodeAddress): void {
    this.keyer.now(episode);
    post({ type: 'transcript', run, episode, transcript: this.session.transcript(episode) });
  }

  whatIf({ run, episode }: EpisodeAddress, id: number, edits: readonly StepEdit[]): void {
    if (this.detection) post({ type: 'what-if', run, episode, id, ...this.answer(episode, () => this.session.whatIf(episode, edits)) });
  }

  /** A τ-bench episode's view carries each step's record changes: the screen shows the DB at a step from them. */
  state({ run, episode }: ToWorker<'state-at-step'>): void {
    post({ type: 'state-at-step', run, episode, state: null, error: 'a τ-bench episode’s view carries the DB at each step' });
  }

  private answer(index: number, make: () => ViewResult): { view: EpisodeView; error: null } | { view: null; error: string } {
    let r: ViewResult;
    try {
      r = make();
    } catch (e) {
      r = { error: e instanceof Error ? e.message : String(e), index };
    }
    return 'error' in r ? { view: null, error: r.error } : { view: r, error: null };
  }

  /** The `ep=` payload of an episode shared with its context, and its JSON as a file (offered when the link is too long). */
  shareLink(address: EpisodeAddress, context: ShareContext): void {
    postShareLink(address, context, () => this.session.episodeJson(address.episode), 'episode');
  }
}
