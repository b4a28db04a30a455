import {
  attachNotes,
  interactionMetricsText,
  type EpisodeHeader,
  type EpisodeNotes,
  type EpisodeSummary,
  prepareSha256,
  type StepEdit,
  TAU2_DEFAULT_DATA_BASE,
  TAU2_PINNED_COMMIT,
  tau2DbPaths,
  tau2Fingerprint,
  tau2LegacyFingerprints,
  tau2NumTrials,
  tau2ReportParts,
  tau2Rows,
  tau2SimulationJson,
  tau2RecordedSimView,
  tau2Summary,
  Tau2Session,
  type Tau2Run,
} from '../../core/contract';
import type { ToWorker } from '../../protocol/messages';
import type { ShareContext, SharedContext } from '../../protocol/share-context';
import type { EpisodeAddress, RunSlot } from '../../protocol/wire-types';
import { Keyer } from '../keyer';
import { post, yieldToMessages } from '../post';
import { NOT_OPEN, postReport, scheduledReport, type ReportSource } from '../report-blob';
import type { RunHandle } from '../run-handle';
import { Scheduler } from '../scheduler';
import { postShareLink } from '../shared-episode';
import type { Tau2Data } from './data';

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

const WAITING = 'waiting for τ² data';

/**
 * A τ²-bench run open in a slot: read whole, its domain's DBs found by the locator (`Tau2Data`: the embedded sample, a
 * picked folder, a URL base the user agreed to, the dev server's TAU2_DATA, the public host's files cached in this
 * browser) and loaded once per source, then every simulation judged by `Tau2Session`, rows on screen first.
 */
export class Tau2RunHandle implements RunHandle {
  /** Each simulation's row header, as it went out (without its fingerprint unless the run is a shared link's). */
  private headers: EpisodeHeader[];
  /**
   * The rows' fingerprints (each hashes its simulation's content, ~1.5 ms): the rows go out without them (null) and
   * `fingerprints` brings them after, the simulation opened and the rows on screen first.
   */
  private keyer!: Keyer;
  private session: Tau2Session | null = null;
  /** Which simulation is judged next (rows on screen first), one at a time between the page's messages: the worker's one scheduler. */
  private readonly scheduler: Scheduler;
  private closed = false;
  /** Bumped whenever the data changes or the run is closed, so a running loop stops. */
  private epoch = 0;
  /** Data being located or loaded (`resolveData`): the fingerprint sweep waits, so the first verdict is not kept waiting by it. */
  private looking = 0;

  constructor(
    readonly slot: RunSlot,
    readonly run: number,
    private readonly tau2: Tau2Run,
    private readonly sample: boolean,
    readonly data: Tau2Data,
    /** The run folder's other files by their path inside it (a simulation's audio); absent for a one-file results file. */
    private readonly file?: (path: string) => Promise<Blob | null>,
  ) {
    this.headers = tau2Rows(tau2);
    this.scheduler = new Scheduler({ reading: false, evaluate: (i) => this.summary(i) }, yieldToMessages, tau2.simulations.length);
  }

  private live(): boolean {
    return !this.closed;
  }

  /** Posts `run-opened` (`shared`: the context a shared link carried with the simulation), then finds the data. */
  async open(label: string, shared?: SharedContext): Promise<void> {
    const tau2 = this.tau2;
    if (shared !== undefined) {
      // A shared link's one simulation: its notes are adopted under its fingerprint as the run opens.
      await prepareSha256().catch(() => undefined);
      if (!this.live()) return;
    }
    this.keyer = new Keyer(
      {
        run: this.run,
        compute: (i) => tau2Fingerprint(tau2, i),
        legacy: (i) => tau2LegacyFingerprints(tau2, i),
        live: () => this.live(),
        // Judging comes first (as for a τ-bench run), and finding the data before it: the sweep (~3 ms a simulation, both
        // formats) takes the time between.
        mayGo: () => this.looking === 0 && !this.scheduler.busy,
      },
      this.headers.length,
    );
    if (shared !== undefined) this.headers = this.headers.map((h, i) => ({ ...h, fingerprint: this.keyer.fingerprint(i) }));
    post({
      type: 'run-opened',
      run: this.run,
      label,
      benchmark: {
        kind: 'tau2',
        domain: tau2.domain,
        solo: tau2.soloMode,
        numTrials: tau2NumTrials(tau2),
        notes: tau2.notes,
      },
      domainWhy: `a τ²-bench results file (${tau2.simulations.length} simulations, ${tau2.tasks.size} tasks${tau2.soloMode ? ', solo mode' : ''}) of domain ${
        tau2.domain
      } (info.environment_info.domain_name)`,
      headers: this.headers,
      ...(shared !== undefined && { shared }),
    });
    await this.resolveData();
  }

  close(): void {
    this.closed = true;
    this.epoch++;
    this.scheduler.cancel();
  }

  hold(): () => void {
    const before = this.scheduler.isCancelled;
    this.scheduler.cancel();
    // (No keyer yet while a shared link's run waits for the sha256 before `open` makes it.)
    const release = (this.keyer as Keyer | undefined)?.hold();
    return () => {
      release?.();
      if (!before && this.live()) this.resume();
    };
  }

  folderPicked(name: string, found: boolean): void {
    if (this.session || this.sample) return;
    if (found) return this.retryData();
    post({
      type: 'data-error',
      run: this.run,
      message: `“${name}” holds no τ²-bench data files (expected data/tau2/domains/<domain>/… as in a tau2-bench checkout, or <commit>/data/tau2/domains/<domain>/…)`,
    });
  }

  /** Looks for data again (a URL base was agreed to, a folder picked) if the run is still without it. */
  retryData(): void {
    if (!this.session && !this.sample) void this.resolveData();
  }

  private async resolveData(): Promise<void> {
    this.looking++;
    try {
      await this.findData();
    } finally {
      this.looking--;
    }
  }

  private async findData(): Promise<void> {
    const report = (message: string): void => void (this.live() && post({ type: 'data-error', run: this.run, message }));
    const domain = this.tau2.domain;
    const paths = tau2DbPaths(domain, false);
    try {
      if (paths === null) {
        // Unknown or not ported: the session's own words say which.
        await Tau2Session.open(this.tau2, async () => null);
        return;
      }
      const progress = (label: string) => (p: { done: number; total: number; bytes: number }) =>
        this.live() && post({ type: 'data-progress', run: this.run, label, ...p });
      const loc = await this.data.locate(domain, this.sample, progress, report);
      if (!this.live()) return;
      if (!loc) {
        post({
          type: 'data-needed',
          run: this.run,
          benchmark: 'tau2',
          domain,
          suggestedBase: TAU2_DEFAULT_DATA_BASE,
          files: paths,
          reason: `Recomputing rewards needs τ²-bench's ${domain} DB (${paths
            .map((p) => p.slice(p.lastIndexOf('/') + 1))
            .join(', ')} at ${TAU2_PINNED_COMMIT.slice(0, 7)}, v1.0.1; τ²'s DB files are the same from v0.1.0 to v1.0.1), which is not in this browser yet.`,
        });
        return;
      }
      await prepareSha256().catch(() => undefined);
      const session = await Tau2Session.open(this.tau2, this.data.reader(loc), { dbs: this.data.loaded(loc.key) });
      if (!this.live()) return;
      this.session = session;
      this.epoch++;
      // A voice run's interaction metrics, pooled over its simulations as τ² pools them, for the overview.
      const about = session.voice ? [`Interaction (whole run): ${interactionMetricsText(session.interactionMetrics())}`] : [];
      post({ type: 'data-ready', run: this.run, origin: loc.origin, detection: null, why: session.dataWhy, reset: true, about });
      void this.evaluateAll(this.epoch);
    } catch (e) {
      // A source that failed is not kept: the next try reads it again.
      this.data.forgetAll();
      report(e instanceof Error ? e.message : String(e));
    }
  }

  /** A simulation judged (a row that cannot be judged says why, never throws). */
  private summary(i: number): EpisodeSummary {
    try {
      return tau2Summary(this.session!.report(i));
    } catch (e) {
      return { ...NOT_JUDGED, index: i, error: e instanceof Error ? e.message : String(e) };
    }
  }

  private async evaluateAll(epoch: number): Promise<void> {
    const s = this.scheduler;
    await s.runAll(
      () => this.live() && this.epoch === epoch,
      (summaries) => post({ type: 'summaries', run: this.run, summaries, evaluated: s.count, total: s.total, replace: false }),
    );
  }

  cancel(): void {
    this.scheduler.cancel();
  }

  resume(): void {
    if (!this.scheduler.isCancelled) return;
    this.scheduler.resume();
    if (this.session) void this.evaluateAll(++this.epoch);
  }

  prioritize(indices: readonly number[]): void {
    this.scheduler.prioritize(indices);
    this.keyer.first(indices);
  }

  /** A simulation's screen data (judged now if it was not yet: its row goes out too). */
  view({ run, episode }: EpisodeAddress): void {
    // The simulation opened gets its notes at once, not when the sweep reaches it.
    this.keyer.now(episode);
    const session = this.session;
    if (!session) return this.recordedView({ run, episode });
    const s = this.scheduler;
    if (episode < 0 || episode >= s.total) return post({ type: 'view', run, episode, view: null, error: `no simulation ${episode}` });
    if (!s.isEvaluated(episode)) post({ type: 'summaries', run, summaries: [s.evaluate(episode)], evaluated: s.count, total: s.total, replace: false });
    try {
      const view = session.simView(episode);
      if (session.domain.name !== 'banking_knowledge') return post({ type: 'view', run, episode, view, error: null });
      // banking_knowledge: the retrieved documents are opened from the data first (a few small files).
      void session.retrieval(episode).then(
        (retrieval) => post({ type: 'view', run, episode, view: { ...view, retrieval }, error: null }),
        () => post({ type: 'view', run, episode, view, error: null }),
      );
    } catch (e) {
      post({ type: 'view', run, episode, view: null, error: e instanceof Error ? e.message : String(e) });
    }
  }

  /** Before τ²'s data is here: the simulation as its file records it (dialogue, recorded verdict); the recomputed view follows `data-ready`. */
  private recordedView({ run, episode }: EpisodeAddress): void {
    try {
      post({ type: 'view', run, episode, view: tau2RecordedSimView(this.tau2, episode), error: null });
    } catch (e) {
      post({ type: 'view', run, episode, view: null, error: `${WAITING} (${e instanceof Error ? e.message : String(e)})` });
    }
  }

  /** The offline report of a τ² run (as the CLI's `report`, with the notes of its simulations): every simulation judged first. */
  async report(id: number, title: string, notes: readonly EpisodeNotes[], edits: ReadonlyMap<number, readonly StepEdit[]> = new Map()): Promise<void> {
    const session = this.session;
    await postReport(
      this.run,
      id,
      !this.live() ? NOT_OPEN : !session ? 'the run is waiting for τ² data; rewards cannot be recomputed yet' : this.reportSource(session, title, notes, edits),
    );
  }

  private reportSource(session: Tau2Session, title: string, notes: readonly EpisodeNotes[], edits: ReadonlyMap<number, readonly StepEdit[]>): ReportSource {
    return scheduledReport(this.scheduler, {
      gone: () => !this.live(),
      // The notes are matched to simulations by fingerprint: every one is needed.
      keyed: () => this.keyer.finish(),
      parts: () => tau2ReportParts(session, title, attachNotes(this.keyer.rowKeys(), notes).byIndex, edits),
    });
  }

  /** A DB of a simulation after a message (the replay is kept by the session for the simulation open). */
  state(m: ToWorker<'state-at-step'>): void {
    const { run, episode } = m;
    if (!this.session) return post({ type: 'state-at-step', run, episode, state: null, error: WAITING });
    try {
      post({ type: 'state-at-step', run, episode, state: this.session.stateAt(episode, m.message, m.db, m.record), error: null });
    } catch (e) {
      post({ type: 'state-at-step', run, episode, state: null, error: e instanceof Error ? e.message : String(e) });
    }
  }

  /** A simulation with what-if edits, judged again (the page keeps the edits; only its latest `id` is shown). */
  whatIf({ run, episode }: EpisodeAddress, id: number, edits: readonly StepEdit[]): void {
    const refuse = (error: string): void => post({ type: 'what-if', run, episode, id, view: null, error });
    if (!this.session) return refuse(WAITING);
    if (episode < 0 || episode >= this.scheduler.total) return refuse(`no simulation ${episode}`);
    try {
      const r = this.session.whatIf(episode, edits);
      if ('error' in r) refuse(r.error);
      else post({ type: 'what-if', run, episode, id, view: r, error: null });
    } catch (e) {
      refuse(e instanceof Error ? e.message : String(e));
    }
  }

  /** Simulations whose messages (text, tool names and arguments) or speech (a voice simulation's) hold the query, case-insensitively, like a τ-bench search. */
  search(id: number, query: string): void {
    const q = query.toLowerCase();
    const holds = (t: string | null): boolean => t !== null && t.toLowerCase().includes(q);
    const indices = this.tau2.simulations
      .filter(
        (s) =>
          q === '' ||
          s.messages.some(
            (m) => m.role !== 'system' && (holds(m.content) || (m.toolCalls ?? []).some((x) => holds(x.name) || holds(argumentsText(x.arguments)))),
          ) ||
          // A voice simulation's speech is in its ticks (its messages are the calls and results): each speaker's words joined.
          (s.ticks != null && [s.ticks.map((t) => t.agentChunk?.content ?? '').join(''), s.ticks.map((t) => t.userChunk?.content ?? '').join('')].some(holds)),
      )
      .map((s) => s.index);
    post({ type: 'search', run: this.run, id, query, indices });
  }

  /** The `ep=` payload of a simulation shared with its context (a τ² results file of its one task and simulation), and that file. */
  shareLink(address: EpisodeAddress, context: ShareContext): void {
    postShareLink(address, context, () => tau2SimulationJson(this.tau2, address.episode), 'simulation');
  }

  /**
   * A voice simulation's audio: the first of the paths τ² saves it under (`artifacts/task_<task>/sim_<id>/audio/both.wav`)
   * that the run folder has, read now and for this simulation alone (a leaderboard run's audio is gigabytes).
   */
  audio({ run, episode }: EpisodeAddress): void {
    const answer = (audio: Blob | null, path: string | null, error: string | null): void => {
      if (this.live()) post({ type: 'audio', run, episode, audio, path, error });
    };
    const session = this.session;
    if (!session) return answer(null, null, WAITING);
    let paths: readonly string[];
    try {
      paths = session.voiceTimeline(episode)?.audioPaths ?? [];
    } catch (e) {
      return answer(null, null, e instanceof Error ? e.message : String(e));
    }
    if (paths.length === 0) return answer(null, null, 'not a full-duplex (voice) simulation');
    const file = this.file;
    if (!file) return answer(null, null, 'the run is one results file: its audio would be in a run folder (artifacts/…/audio/both.wav)');
    void (async () => {
      try {
        for (const path of paths) {
          const blob = await file(path);
          if (blob) return answer(blob, path, null);
        }
        answer(null, null, `the run folder has no ${paths[0]}`);
      } catch (e) {
        answer(null, null, `its audio could not be read (${e instanceof Error ? e.message : String(e)})`);
      }
    })();
  }

  /** A τ² simulation's dialogue comes with its view (the simulation screen has no separate transcript). */
  transcript({ run, episode }: EpisodeAddress): void {
    this.keyer.now(episode);
    post({ type: 'transcript', run, episode, transcript: null });
  }
}
