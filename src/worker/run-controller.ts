import {
  DEFAULT_DATA_BASE,
  DOMAIN_TABLES,
  guessDataCommitFromText,
  guessDomainFromText,
  InspectSession,
  prepareSha256,
  type DataVersion,
  type Detection,
  type Domain,
  type EpisodeNotes,
  type EpisodeView,
  type StepEdit,
  type ViewResult,
  attachNotes,
  sessionReportParts,
} from '../core/contract';
import type { ShareContext } from '../protocol/share-context';
import type { DataOrigin, EpisodeAddress, RunSlot, RunSource } from '../protocol/wire-types';
import { candidatePaths, storeFile } from './data-sources';
import { DataLocator, type Located, type Progress } from './data-locator';
import { PersistentVersions, type ReadAhead } from './persistent-cache';
import { parseNotesFile } from './notes-import';
import { post, yieldToMessages } from './post';
import { looksTau2, openRun, sourceLabel, type OpenedRun } from './read-run';
import { hasSampleData } from './sample';
import { NOT_OPEN, postReport, type ReportSource } from './report-blob';
import { HELPED_EPISODES, JudgeHelper } from './judge-helper/helper';
import type { ByteStore } from './byte-store';
import { Keyer } from './keyer';
import { Scheduler } from './scheduler';
import { postShareLink } from './shared-episode';

/** Episodes searched between two looks at the message queue (a few milliseconds of work). */
const SEARCH_SLICE = 100;

/** How often rows read from a big file are sent to the page while it is read. */
const ROWS_MS = 250;

/**
 * The longest reading waits (ms) for the run's first verdict when that verdict is made from a parsed DB kept
 * from an earlier visit: reading the file meanwhile would share the browser's storage reads and this thread
 * with reading that DB back, and the first verdict would come later (the rest of the file is read after).
 */
const FIRST_VERDICT_HOLD_MS = 1000;

/** Full evaluations kept for views and what-ifs (the rest is recomputed when asked for again). */
const KEPT_EVALUATIONS = 24;

/** The WebAssembly sha256 (the pure-TS fallback works too, only slower). */
const hashReady = prepareSha256().catch(() => undefined);

interface Current {
  readonly slot: RunSlot;
  readonly run: number;
  readonly session: InspectSession;
  readonly sample: boolean;
  readonly scheduler: Scheduler;
  detection: Detection | null;
  origin: DataOrigin;
  /** Bumped whenever data changes, so a running loop stops. */
  epoch: number;
  finished: boolean;
  /** Rows sent to the page (all but the last few while the file is read), and when they last were. */
  rows: number;
  rowsSent: number;
  /** A second worker judging part of a big run (see `JudgeHelper`), while it is judged. */
  helper: JudgeHelper | null;
  /** The file's bytes when it was read as it streamed in (the judge helper is sent episodes from there). */
  readonly bytes: ByteStore | null;
  /**
   * The rows' fingerprints: the rows go out without them (hashing each episode as it is read cost the reading thread
   * ~1.5 s of a 5,000-episode file), the episode opened and the rows on screen get theirs at once, the rest are
   * computed from the episodes' text again once reading and judging leave this thread idle.
   */
  keyer: Keyer;
  /** Data is being looked for (`resolveData` calls under way): the first verdict is near, the sweep waits for it. */
  looking: number;
  /**
   * Resolves when the run's first verdict is out, or once it is known not to come from a DB kept from an earlier
   * visit (none was found or it could not be used): reading the file is held until then (see `open`).
   */
  readonly firstVerdict: Promise<void>;
  verdictOut: () => void;
}

/**
 * A big run (read while it is judged, or of many episodes) is judged on two threads: a judge helper
 * takes batches of its episodes, on the data in use (from the first rows of each evaluation on, so the
 * first verdict does not wait for the DB to be copied, nor share the cores with the helper starting).
 * Where a worker cannot start another (tests, other hosts) everything is judged here.
 */
function helpWith(c: Current): void {
  const bytes = c.bytes;
  if (
    !c.helper &&
    bytes &&
    typeof Worker === 'function' &&
    (c.session.reading || c.session.records.length >= HELPED_EPISODES) &&
    c.session.episodeRange(0) !== null
  ) {
    c.helper = new JudgeHelper(c.session, c.scheduler, (start, end) => bytes.read(start, end));
    c.scheduler.useOffload(c.helper);
  }
  c.helper?.useData();
}

/** The run is judged, closed or replaced: its helper stops (episodes it had go back to the scheduler). */
function unhelp(c: Current): void {
  c.scheduler.useOffload(null);
  c.helper?.close();
  c.helper = null;
}

/**
 * The runs the page opened, one per slot (`a` the open run, `b` one opened beside it to compare),
 * handled alike: reading each, finding its data, evaluating it, answering the page about it.
 */
export class RunController {
  readonly data = new DataLocator();
  private readonly persisted = new PersistentVersions();
  private readonly slots: Record<RunSlot, Current | null> = { a: null, b: null };
  /** The run id the page asked for last in each slot (null once closed): an open overtaken by a later one, or closed while it was read, is dropped. */
  private readonly wanted: Record<RunSlot, number | null> = { a: null, b: null };
  /** Searches started: one that sees a newer one started stops. */
  private searches = 0;

  /** `tau2`: where a τ²-bench run goes once read (it is judged by src/worker/tau2-runs.ts, not here). */
  constructor(private readonly tau2: (slot: RunSlot, run: number, opened: Extract<OpenedRun, { tau2: object }>, sample: boolean) => void = () => undefined) {}

  private live(c: Current): boolean {
    return this.slots[c.slot] === c;
  }

  close(slot: RunSlot): void {
    this.wanted[slot] = null;
    const c = this.slots[slot];
    if (c) {
      c.epoch++;
      c.scheduler.cancel();
      unhelp(c);
    }
    this.slots[slot] = null;
  }

  /** Opens a run into `slot` (the run in the other slot stays). */
  async open(slot: RunSlot, run: number, source: RunSource): Promise<void> {
    this.wanted[slot] = run;
    const wanted = (): boolean => this.wanted[slot] === run;
    // The run open in the slot so far stops evaluating at once; it goes on if this one cannot be opened.
    const previous = this.slots[slot];
    const stoppedBefore = previous?.scheduler.isCancelled === true;
    previous?.scheduler.cancel();
    const resumePrevious = (): void => {
      if (!previous || stoppedBefore || this.slots[slot] !== previous || !wanted() || !previous.detection || previous.finished) return;
      this.restart(previous);
    };
    let label = sourceLabel(source);
    let early: { domain: Domain; located: Promise<Located | null> } | null = null;
    let prefetched: Promise<void> = Promise.resolve();
    let ahead: ReadAhead | null = null;
    // A big plain file is judged while it is read: the run opens on its first episodes (`installing`).
    let installing: Promise<Current | null> | null = null;
    let installed: Current | null = null;
    // While the first verdict is made from a kept DB, reading waits for it (at most FIRST_VERDICT_HOLD_MS).
    let hold: Promise<void> | null = null;
    let r: OpenedRun | null;
    try {
      // Reads the file as it arrives (episodes parsed one by one, no whole text for a plain file);
      // as soon as its first bytes are in, data for the likely domain is looked for meanwhile.
      r = await openRun(source, {
        keptEvaluations: KEPT_EVALUATIONS,
        wanted,
        pause: async () => {
          if (hold) await hold;
          await yieldToMessages();
        },
        progress: (loaded: number, total: number | null) => post({ type: 'run-progress', run, loaded, total }),
        prefix: (text) => {
          const guess = looksTau2(text) ? null : guessDomainFromText(text);
          if (!guess) return;
          const progress =
            (l: string): Progress =>
            (p) =>
              post({ type: 'data-progress', run, label: l, ...p });
          early = { domain: guess, located: this.data.locate(guess, source.kind === 'sample', progress, () => undefined).catch(() => null) };
          // And the parsed DB kept from an earlier visit: IndexedDB reads it while the file is read (none is kept of the sample's).
          if (source.kind !== 'sample') {
            ahead = this.persisted.prefetch(early.located, guess, guessDataCommitFromText(text));
            prefetched = ahead.ready;
          }
        },
        early: (session, bytes) => {
          installing = (async () => {
            await prefetched;
            await hashReady;
            if (!wanted()) return null;
            installed = this.install(slot, run, source, session, label, undefined, bytes);
            // (Until the kept DB is known not to be read: then at once.)
            if (ahead)
              hold = Promise.race([
                installed.firstVerdict,
                new Promise<void>((r) => setTimeout(r, FIRST_VERDICT_HOLD_MS)),
                ahead.kept.then((kept) => (kept ? new Promise<void>(() => undefined) : undefined)),
              ]).then(() => {
                hold = null;
              });
            void this.resolveData(installed, early);
            return installed;
          })();
        },
        grew: () => {
          if (installed && this.live(installed)) this.sendRows(installed, false);
        },
      });
    } catch (e) {
      post({ type: 'run-error', run, label, message: e instanceof Error ? e.message : String(e) });
      resumePrevious();
      return;
    }
    const begun = await (installing ?? Promise.resolve(null));
    if (r === null || !wanted()) return;
    if (r.tau2) {
      // A τ² run: this slot's τ-bench run is closed and the τ² runs take it from here.
      if (this.slots[slot]) {
        this.slots[slot]!.epoch++;
        unhelp(this.slots[slot]!);
      }
      this.slots[slot] = null;
      this.tau2(slot, run, r, source.kind === 'sample');
      return;
    }
    if (r.early && begun && this.live(begun)) {
      // Every episode is in: the last rows go out, and judging goes on to the end (then the data version and rule are settled).
      this.sendRows(begun, true);
      return;
    }
    label = r.label;
    await prefetched;
    await yieldToMessages();
    await hashReady;
    if (!wanted()) return;
    // A file judged while it was read that turned out damaged or of another domain is opened again from the start.
    const c = this.install(slot, run, source, r.session, label, r.shared, r.bytes ?? null);
    await this.resolveData(c, early);
  }

  /** The run becomes the slot's: `run-opened` with the rows read so far (all of them unless the session is still reading). */
  private install(
    slot: RunSlot,
    run: number,
    source: RunSource,
    session: InspectSession,
    label: string,
    shared: OpenedRun['shared'],
    bytes: ByteStore | null,
  ): Current {
    // The open run's local file is kept for a reload (a compared one is not).
    if (source.kind === 'file' && slot === 'a') void storeFile(source.file);
    const before = this.slots[slot];
    if (before) {
      before.epoch++;
      before.scheduler.cancel();
      unhelp(before);
    }
    let headers = session.headers();
    let verdictOut = (): void => undefined;
    const firstVerdict = new Promise<void>((r) => (verdictOut = r));
    const c = {
      slot,
      run,
      session,
      sample: source.kind === 'sample',
      scheduler: new Scheduler(session, yieldToMessages, headers.length),
      detection: null,
      origin: { kind: 'sample', label: '' },
      epoch: 0,
      finished: false,
      rows: headers.length,
      rowsSent: performance.now(),
      helper: null,
      bytes,
      looking: 0,
      firstVerdict,
      verdictOut,
    } as Omit<Current, 'keyer'> as Current;
    c.keyer = new Keyer(
      {
        run,
        compute: (i) => session.fingerprint(i),
        legacy: (i) => session.legacyFingerprints().get(i) ?? null,
        live: () => this.live(c),
        // Reading, finding data and judging come first: the sweep takes the time this thread would otherwise wait
        // (and runs at once when there is no data to judge with).
        mayGo: () => !session.reading && c.looking === 0 && !c.scheduler.busy,
      },
      headers.length,
      session.reading,
    );
    // A shared link's episode: its notes are adopted under its fingerprint as the run opens.
    if (shared !== undefined) headers = headers.map((h, i) => ({ ...h, fingerprint: c.keyer.fingerprint(i) }));
    this.slots[slot] = c;
    post({
      type: 'run-opened',
      run,
      label,
      domain: session.domain,
      domainWhy: session.domainWhy,
      headers,
      reading: session.reading,
      ...(shared !== undefined && { shared }),
    });
    return c;
  }

  /**
   * Rows read since the last ones sent go to the page (a few times a second while the file is read,
   * so no task on the page handles thousands at once; `last`: the file is read to its end), and the
   * scheduler may judge them.
   */
  private sendRows(c: Current, last: boolean): void {
    const count = c.session.records.length;
    if (!last && (count === c.rows || performance.now() - c.rowsSent < ROWS_MS)) return;
    post({ type: 'run-rows', run: c.run, headers: c.session.headers(c.rows), reading: !last });
    c.rows = count;
    c.rowsSent = performance.now();
    c.scheduler.grow(count, !last);
    c.keyer.grow(count, !last);
  }

  /** Looks for data again (a folder was picked, a URL agreed to) if the open run still needs it. */
  retryData(onlyIfMissing: boolean): void {
    for (const c of [this.slots.a, this.slots.b]) if (c && !c.sample && !(onlyIfMissing && c.detection)) void this.resolveData(c);
  }

  folderWithoutData(name: string): void {
    const c = this.slots.a;
    if (c && !c.sample)
      post({
        type: 'data-error',
        run: c.run,
        message: `“${name}” holds no τ-bench data files (expected <commit>/tau_bench/envs/<domain>/data/*.json or tau_bench/envs/<domain>/data/*.json)`,
      });
  }

  private async resolveData(c: Current, early: { domain: Domain; located: Promise<Located | null> } | null = null): Promise<void> {
    c.looking++;
    try {
      await this.findData(c, early);
    } finally {
      c.looking--;
      // No data found: no verdict comes to wait for.
      if (!c.detection) c.verdictOut();
    }
  }

  private async findData(c: Current, early: { domain: Domain; located: Promise<Located | null> } | null): Promise<void> {
    const { session, run } = c;
    const domain = session.domain;
    const progress =
      (label: string): Progress =>
      (p) =>
        this.live(c) && post({ type: 'data-progress', run, label, ...p });
    const report = (message: string): void => void (this.live(c) && post({ type: 'data-error', run, message }));
    try {
      const loc = early?.domain === domain ? await early.located : await this.data.locate(domain, c.sample, progress, report);
      if (!this.live(c)) return;
      if (!loc && hasSampleData && domain === 'retail') {
        // A run recorded on the embedded sample data (e.g. one episode shared in a link) needs nothing else.
        const sample = await this.data.sampleVersions(session);
        if (!this.live(c)) return;
        if (sample[0] && session.reproducesRecordedHashes(sample[0])) {
          this.useData(c, sample, { kind: 'sample', label: 'embedded sample data (the recorded gt_data_hash values match it)' });
          return;
        }
      }
      if (!loc) {
        post({
          type: 'data-needed',
          run,
          domain,
          suggestedBase: DEFAULT_DATA_BASE,
          files: candidatePaths(domain),
          reason: `Recomputing rewards needs τ-bench's ${domain} data (the initial DB), which is not in this browser yet.`,
        });
        return;
      }
      // The parsed DB and its hashes from an earlier visit, when this browser keeps them: no data file is read or parsed.
      const restored = await this.persisted.restore(session, loc);
      // Without a kept DB the first verdict waits for the data files to be parsed: reading goes on meanwhile.
      if (!restored) c.verdictOut();
      if (!this.live(c)) return;
      const vs = restored ? [restored] : await this.data.versions(loc.key, loc.read, loc.label, session);
      const extra = vs.length > 0 && !c.sample && hasSampleData ? await this.data.sampleVersions(session) : [];
      if (!this.live(c)) return;
      if (vs.length > 0) this.useData(c, [...vs, ...extra], loc.origin, extra);
      else report(`${loc.label} has files of the ${domain} domain, but not a complete set of tables (${DOMAIN_TABLES[domain].join(', ')})`);
    } catch (e) {
      report(e instanceof Error ? e.message : String(e));
    }
  }

  /** `sampleCandidates`: sample data offered beside real data; it wins only when the file's recorded gt_data_hash values match it. */
  private useData(c: Current, vs: DataVersion[], located: DataOrigin, sampleCandidates: readonly DataVersion[] = []): void {
    if (!this.live(c)) return;
    const detection = c.session.useData(vs);
    const origin: DataOrigin = sampleCandidates.some((v) => v.commit === detection.dataCommit)
      ? { kind: 'sample', label: 'embedded sample data (the recorded gt_data_hash values match it)' }
      : located;
    c.epoch++;
    c.detection = detection;
    c.origin = origin;
    c.scheduler.reset();
    c.finished = false;
    post({ type: 'detection', run: c.run, detection, origin, reset: true });
    void this.evaluateAll(c, c.epoch);
  }

  private async evaluateAll(c: Current, epoch: number): Promise<void> {
    const s = c.scheduler;
    const complete = await s.runAll(
      () => this.live(c) && c.epoch === epoch,
      (summaries) => {
        post({ type: 'summaries', run: c.run, summaries, evaluated: s.count, total: s.total, replace: false, threads: c.helper?.working ? 2 : 1 });
        c.verdictOut();
        // Once the first verdict is out, a big run gets its second thread (the DB is copied to it meanwhile).
        helpWith(c);
      },
    );
    if (complete) await this.settle(c);
  }

  /** Once every episode is evaluated: settles the rule (all rows again if it changed) and keeps the parsed data for later visits. */
  private async settle(c: Current): Promise<void> {
    const s = c.scheduler;
    if (c.finished || c.session.reading) return;
    if (c.session.settleData()) {
      // Every recorded hash weighed: they overturn the data version the first ones suggested. Every verdict is made again
      // on the version most of them fit, and the detection says so (`dataOverturned`).
      c.epoch++;
      c.detection = c.session.detection();
      s.reset();
      post({ type: 'detection', run: c.run, detection: c.detection, origin: c.origin, reset: true });
      void this.evaluateAll(c, c.epoch);
      return;
    }
    c.finished = true;
    unhelp(c);
    const changed = c.session.finish();
    c.detection = c.session.detection();
    post({ type: 'detection', run: c.run, detection: c.detection, origin: c.origin, reset: false });
    if (changed) post({ type: 'summaries', run: c.run, summaries: c.session.summaries(), evaluated: s.total, total: s.total, replace: true });
    await this.persisted.save(c.session);
  }

  /** Stops evaluating `run` if it is the open one (rows evaluated so far stay; views are still answered). */
  cancel(run: number): void {
    this.at(run)?.scheduler.cancel();
  }

  /**
   * Goes on evaluating `run` after `cancel` (as `open` resumes the previous run when a new one
   * cannot be opened): nothing to do before its data is known, once it is finished, or while it runs.
   */
  resume(run: number): void {
    const c = this.at(run);
    if (!c || !c.detection || c.finished || !c.scheduler.isCancelled) return;
    this.restart(c);
  }

  /** Evaluation goes on after a cancel. A loop stopped by `cancel` may not have noticed yet: the new epoch ends it for good. */
  private restart(c: Current): void {
    c.scheduler.resume();
    c.epoch++;
    void this.evaluateAll(c, c.epoch);
  }

  /** The open run `run` names, in either slot. */
  private at(run: number): Current | null {
    return this.slots.a?.run === run ? this.slots.a : this.slots.b?.run === run ? this.slots.b : null;
  }

  /**
   * The offline report of a run: every episode evaluated first (the rule settled), then
   * `sessionReportParts` gathered into a Blob a megabyte at a time. Both stages pause every few
   * milliseconds for other messages (a view, a step), so building the report of a big run (~100 MB
   * for 5,000 episodes) never holds the worker, and the report is never one string in this process.
   */
  /** A notes import read and checked here, off the page's thread; answered with its records in chunks (`parse-notes`). */
  async parseNotes(id: number, file: Blob): Promise<void> {
    const r = await parseNotesFile(file);
    post(
      { type: 'parse-notes', id, ...r },
      r.chunks.map((c) => c.buffer as ArrayBuffer),
    );
  }

  async report(run: number, id: number, title: string, notes: readonly EpisodeNotes[]): Promise<void> {
    const c = this.at(run);
    await postReport(
      run,
      id,
      !c
        ? NOT_OPEN
        : !c.detection
          ? 'the run is waiting for τ-bench data; rewards cannot be recomputed yet'
          : c.session.reading
            ? 'the file is still being read; the report can be made once every episode is in'
            : this.reportSource(c, title, notes),
    );
  }

  /** A run as its report is built (`postReport`): episodes evaluated first, the rule settled, the notes matched by fingerprint. */
  private reportSource(c: Current, title: string, notes: readonly EpisodeNotes[]): ReportSource {
    const s = c.scheduler;
    return {
      total: s.total,
      isEvaluated: (i) => s.isEvaluated(i),
      evaluate: (i) => s.evaluate(i),
      evaluated: () => s.count,
      gone: () => !this.live(c),
      settled: () => void this.settle(c),
      // The notes are matched to episodes by fingerprint: the missing ones are computed now (none needed without notes).
      keyed: () => (notes.length > 0 ? c.keyer.finish() : Promise.resolve()),
      parts: () => sessionReportParts(c.session, { title, notes: attachNotes(c.keyer.rowKeys(), notes).byIndex }),
    };
  }

  prioritize(run: number, indices: readonly number[]): void {
    const c = this.at(run);
    c?.scheduler.prioritize(indices);
    c?.keyer.first(indices);
  }

  /**
   * Searches in slices of episodes, letting other messages (a view, a step) in between, so a search
   * through thousands of episodes never holds the worker; a search overtaken by a newer one stops
   * (the page only wants the newest).
   */
  async search(run: number, id: number, query: string): Promise<void> {
    const c = this.at(run);
    if (!c) return;
    const mine = ++this.searches;
    const indices: number[] = [];
    const total = c.session.records.length;
    for (let at = 0; at < total; at += SEARCH_SLICE) {
      if (at > 0) {
        await yieldToMessages();
        if (mine !== this.searches || !this.live(c)) return;
      }
      indices.push(...c.session.search(query, at, at + SEARCH_SLICE));
    }
    post({ type: 'search', run, id, query, indices });
  }

  view({ run, episode }: EpisodeAddress): void {
    const c = this.at(run);
    if (!c) return;
    // The episode opened gets its notes at once, not when the sweep reaches it.
    c.keyer.now(episode);
    if (!c.detection) {
      post({ type: 'view', run, episode, view: null, error: 'waiting for data' });
      return;
    }
    const fresh = !c.scheduler.isEvaluated(episode);
    const answer = this.answer(episode, () => c.session.view(episode));
    if (fresh && episode >= 0 && episode < c.scheduler.total)
      post({ type: 'summaries', run, summaries: [c.scheduler.evaluate(episode)], evaluated: c.scheduler.count, total: c.scheduler.total, replace: false });
    post({ type: 'view', run, episode, ...answer });
  }

  transcript({ run, episode }: EpisodeAddress): void {
    const c = this.at(run);
    if (!c) return;
    c.keyer.now(episode);
    post({ type: 'transcript', run, episode, transcript: c.session.transcript(episode) });
  }

  whatIf(run: number, id: number, episode: number, edits: readonly StepEdit[]): void {
    const c = this.at(run);
    if (c?.detection) post({ type: 'what-if', run, id, ...this.answer(episode, () => c.session.whatIf(episode, edits)) });
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
    const c = this.at(address.run);
    if (c) postShareLink(address, context, () => c.session.episodeJson(address.episode), 'episode');
  }
}
