import { reviveDb, type Db, type Domain } from '../model/data/db';
import { dataLabel, loadDataVersions, type DataVersion, type ReadText, type RewardRule } from '../model/data/versions';
import { byteOffsets, decodeResultsBytes, utf8Slices } from '../model/episode/decode';
import { FILE_KIND_TEXT, ResultsStream, type FileKind } from '../model/episode/results-file';
import type { EpisodeRecord } from '../model/episode/types';
import { jsonDumps } from '../py/json-dumps';
import { EvalCache, type DbWorkSnapshot } from '../judge/cache';
import {
  countRecordedMatches,
  detectRule,
  disagreementNotes,
  hasFractionalRewards,
  preferredVersion,
  FileTally,
  recordedHashSample,
  type FileOptions,
  type RewardEvidence,
  type RuleEvidence,
} from '../judge/detect';
import { evaluateEpisode, type EpisodeOutcome } from '../judge/evaluate';
import { verdictsOf, type EpisodeVerdicts } from './episode-judge';
import { episodeView } from '../view/episode-view';
import type { Finding } from '../view/findings';
import { recordedHashFinding } from '../view/hash-finding';
import { searchEpisodes } from './search';
import type { DataSnapshot, Detection, SessionMemory, ViewResult } from './session-types';
import type { StepEdit } from './what-if';
import { ReadFile, readSource, tallying } from './read-file';
import { VersionChoice } from './version-choice';
import { whatIfView } from './what-if-view';

export type { DataSnapshot, Detection, SessionMemory, StepEdit, ViewResult };
import { episodeReport, type EpisodeReport } from '../view/report-json';
import { episodeHeader, type EpisodeHeader, type EpisodeSummary } from '../view/summary';
import { episodeFingerprint, legacyEpisodeFingerprints, textFingerprints } from '../view/fingerprint';
import { transcriptView, type TranscriptView } from '../view/transcript';

/** What stays of an evaluated episode: its overview row under either rule, and the evidence for the rule. */
interface Kept {
  readonly summaries: Readonly<Record<RewardRule, EpisodeSummary>>;
  readonly evidence: RuleEvidence | null;
}

/**
 * Opens a session from a file's bytes as they arrive (see `InspectSession.reader`): `push` each
 * chunk in order, then `session()`. Null from `session()` (or false from `push`) means the file is
 * not a plain undamaged UTF-8 list of episodes: open it from its whole text instead (`new
 * InspectSession(decodeResultsBytes(bytes), …)`), which locates and explains what is unusual.
 */
export interface SessionReader {
  push(chunk: Uint8Array): boolean;
  /** Episodes read so far. */
  readonly count: number;
  /**
   * A session on the episodes read so far, made once (null before there is an episode whose
   * domain can be told, or once the file is known not to be plain): its `records` grow as chunks
   * are pushed, and it is `reading` until `session()` completes it. Verdicts made meanwhile rest on
   * a provisional data version (`useData`'s sample of the recorded hashes read so far); `settleData`
   * and `finish` wait for the whole file.
   */
  early(): InspectSession | null;
  /**
   * The session on the whole file: the early one, completed, when the file was a plain list and its
   * domain is the one the early session took; otherwise a new session (then every verdict of the early
   * one is void). Null: not a plain list (see above).
   */
  session(): InspectSession | null;
}

/**
 * The one orchestrator: a loaded results file and its evaluation, the same in the Worker and
 * the CLI. Detection (domain on construction, data version in `useData`, rule in `finish`)
 * happens here and nowhere else. Evaluation is incremental so callers can report progress
 * and yield between episodes.
 */
export class InspectSession {
  readonly records: readonly EpisodeRecord[];
  readonly domain: Domain;
  /** Why the domain is the one it is (counted again from every episode once an early session is complete). */
  private why: string;
  /** What was gathered from every episode while the file was read (domain votes, file notes, the address hint). */
  private readonly tally: FileTally;

  /** The data version: provisional from a sample of recorded hashes, settled from all of them. */
  private readonly choice: VersionChoice;
  private rule: RewardRule = 'db-and-outputs';
  private ruleWhy = '';
  private ruleFinal = false;
  /** Old-format fingerprints where they differ from today's (see `legacyFingerprints`). */
  private readonly legacy = new Map<number, readonly string[]>();
  /** Full evaluations, the most recently used last (all of them unless `memory.keptEvaluations`). */
  private readonly outcomes = new Map<number, EpisodeOutcome>();
  private readonly kept: (Kept | undefined)[];
  private readonly keptEvaluations: number;
  private readonly headerList: EpisodeHeader[] | null;
  readonly fileKind: FileKind;
  /** Notes from reading the file (damage, formats) and from its recorded values. */
  private readNotes: readonly string[];
  private readonly fileNotes: readonly string[];
  /** Episodes are still being read (see `SessionReader.early`): `records` grows, the data version and rule wait for the end. */
  private stillReading: boolean;
  private rewardEvidence: RewardEvidence | null = null;
  private finishNotes: readonly string[] = [];
  private settled = false;
  /** An episode's JSON text as in the file, for lazily read files (see `ResultsFile.episodeText`). */
  private readonly episodeText: ((index: number) => string | null) | null;
  private readonly episodeRangeOf: ((index: number) => readonly [number, number] | null) | null;

  /**
   * `source`: the results file's text (read once; each episode's messages are parsed again from
   * it when needed, so only the text and a few parsed episodes stay), or its episodes already read.
   * `cache`: hashes and reference replays to share with other sessions on the same data (tests, benchmarks).
   */
  constructor(
    source: string | readonly EpisodeRecord[] | ReadFile,
    private readonly options: FileOptions = {},
    private readonly cache: EvalCache = new EvalCache(),
    memory: SessionMemory = {},
  ) {
    const read = source instanceof ReadFile ? source : readSource(source, memory);
    const { file, tally, headers } = read;
    this.records = file.records;
    this.episodeText = file.episodeText ?? null;
    this.episodeRangeOf = file.episodeRange ?? null;
    this.tally = tally;
    this.headerList = headers;
    this.fileKind = file.kind;
    this.fileNotes = file.notes;
    this.readNotes = [...file.notes, ...tally.notes()];
    this.stillReading = read.growing;
    const d = tally.chooseDomain(options);
    this.domain = d.domain;
    this.why = d.why;
    this.choice = new VersionChoice(this.domain, this.cache);
    this.kept = new Array<Kept | undefined>(this.records.length);
    this.keptEvaluations = Math.max(1, memory.keptEvaluations ?? Infinity);
  }

  /**
   * A session read from a file's bytes chunk by chunk, never holding its whole text: each episode is
   * parsed once as it arrives and read again by byte range through `elementText` (which must give
   * the UTF-8 text of those bytes of the file) when asked for. See `SessionReader`.
   */
  static reader(
    elementText: (byteStart: number, byteEnd: number) => string,
    options: FileOptions = {},
    cache: EvalCache = new EvalCache(),
    memory: Omit<SessionMemory, 'elementText' | 'byteOffset'> = {},
  ): SessionReader {
    const t = tallying(memory);
    const stream = new ResultsStream(elementText, t.visit);
    let plain = true;
    let early: InspectSession | null = null;
    return {
      push: (chunk) => (plain = plain && stream.push(chunk)),
      get count() {
        return stream.count;
      },
      early: () => {
        if (early || !plain || stream.count === 0) return plain ? early : null;
        try {
          t.tally.chooseDomain(options);
        } catch {
          return null;
        }
        early = new InspectSession(new ReadFile(stream.sofar(), t.tally, t.headers, true), options, cache, memory);
        return early;
      },
      session: () => {
        const file = stream.end();
        if (file === null) return null;
        if (early && t.tally.chooseDomain(options).domain === early.domain) {
          early.complete();
          return early;
        }
        return new InspectSession(new ReadFile(file, t.tally, t.headers), options, cache, memory);
      },
    };
  }

  /**
   * A session on a file's bytes held in memory (the CLI): read as `reader` does (in one piece unless
   * `chunkBytes` says otherwise, as tests do), the episodes read again from the bytes, so no whole
   * text is made; a file that is not a plain UTF-8
   * list of episodes is read from its whole text instead (`decodeResultsBytes`), with the same
   * results. Throws what the constructor throws.
   */
  static fromBytes(
    bytes: Uint8Array,
    options: FileOptions = {},
    cache: EvalCache = new EvalCache(),
    memory: Omit<SessionMemory, 'elementText' | 'byteOffset'> = {},
    chunkBytes = Infinity,
  ): InspectSession {
    const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
    const reader = InspectSession.reader((start, end) => decoder.decode(bytes.subarray(start, end)), options, cache, memory);
    // Whole bytes a chunk, at least one (a chunk size of 0 or below never moved on: it hung).
    const step = chunkBytes >= 1 ? Math.floor(chunkBytes) : 1;
    let plain = true;
    for (let at = 0; plain && at < bytes.length; at += step) plain = reader.push(bytes.subarray(at, at + step));
    return (plain ? reader.session() : null) ?? InspectSession.fromWholeText(bytes, options, cache, memory);
  }

  /**
   * A session on the whole text of a file's bytes (`decodeResultsBytes`), read the careful way
   * (`readResults`: damage located, to the byte in the file, and explained): what `fromBytes` and the
   * worker fall back to when the bytes are not a plain UTF-8 list of episodes. Episodes are read again
   * from the bytes when their text is exactly the bytes' UTF-8 (`utf8Slices`), else from the text.
   */
  static fromWholeText(
    bytes: Uint8Array,
    options: FileOptions = {},
    cache: EvalCache = new EvalCache(),
    memory: Omit<SessionMemory, 'elementText' | 'byteOffset'> = {},
  ): InspectSession {
    const text = decodeResultsBytes(bytes);
    const slices = utf8Slices(bytes, text);
    return new InspectSession(text, options, cache, { ...memory, byteOffset: byteOffsets(bytes), ...(slices && { elementText: slices }) });
  }

  /** The rows from `from` on; their fingerprints are null when the session was read with `memory.keysLater` (see `fingerprint`). */
  headers(from = 0): EpisodeHeader[] {
    return this.headerList ? this.headerList.slice(from) : this.records.slice(from).map(episodeHeader);
  }

  /**
   * Episode `index`'s fingerprint (`episodeFingerprint`), computed now: from its text as in the file when the
   * episode is read lazily (read again, not kept), else from its record.
   */
  fingerprint(index: number): string {
    const text = this.episodeText?.(index) ?? null;
    if (text === null) {
      const legacy = legacyEpisodeFingerprints(this.records[index]!);
      if (legacy.length > 0) this.legacy.set(index, legacy);
      return episodeFingerprint(this.records[index]!);
    }
    const keys = textFingerprints(text);
    if (keys.legacy.length > 0) this.legacy.set(index, keys.legacy);
    return keys.fingerprint;
  }

  /**
   * The older-format fingerprints (`legacyEpisodeFingerprints`) of the episodes keyed so far whose fingerprint changed
   * when fingerprints began to keep JSON's types (those holding NaN, Infinity, an int past 2^53 or an integer-valued float), by index.
   */
  legacyFingerprints(): ReadonlyMap<number, readonly string[]> {
    return this.legacy;
  }

  get domainWhy(): string {
    return this.why;
  }

  /** Whether episodes are still being read (an early session, see `SessionReader.early`). */
  get reading(): boolean {
    return this.stillReading;
  }

  /** The whole file is read: what reading noted about every episode counts, and the data version and rule may be settled. */
  complete(): void {
    if (!this.stillReading) return;
    this.stillReading = false;
    this.readNotes = [...this.fileNotes, ...this.tally.notes()];
    this.why = this.tally.chooseDomain(this.options).why;
  }

  /** The DB hash the session uses (cached, resumable); identifies data of unknown commits. */
  hashOf = (db: Db): string => this.cache.hash(db);

  /** Every data version of this file's domain under a data root (see `loadDataVersions`). */
  loadData(read: ReadText, source: string): Promise<DataVersion[]> {
    return loadDataVersions(read, this.domain, source, this.hashOf);
  }

  /** The version `useData` tries first (so a cache can have it ready). */
  preferredVersion(versions: readonly DataVersion[]): DataVersion | null {
    return preferredVersion(this.tally.addressHint(), versions, this.options);
  }

  /**
   * `version` with its DB and the work on it taken from a snapshot of the same content (see
   * `DataSnapshot`); null when the snapshot does not fit (then nothing changed).
   */
  restoreVersion(version: DataVersion, snap: DataSnapshot): DataVersion | null {
    if (snap.domain !== this.domain) return null;
    let db: Db;
    try {
      db = reviveDb(this.domain, snap.db);
    } catch {
      return null;
    }
    if (!this.cache.adopt(db, snap.work)) return null;
    return { commit: version.commit, known: version.known, source: version.source, db };
  }

  /** Takes over the work of a snapshot whose DB is `version.db` already (restored earlier). */
  adoptWork(version: DataVersion, work: DbWorkSnapshot): boolean {
    return this.cache.adopt(version.db, work);
  }

  /** The data version in use and this session's work on it; null before `useData`. */
  dataSnapshot(): DataSnapshot | null {
    const v = this.version;
    return v ? { domain: this.domain, db: v.db, work: this.cache.snapshot(v.db) } : null;
  }

  /** How many reference-replay hashes the session knows for the version in use. */
  knownGroundTruths(): number {
    return this.version ? this.cache.groundTruthCount(this.version.db) : 0;
  }

  /** Chooses the data version among those loaded; resets earlier results. */
  useData(versions: readonly DataVersion[]): Detection {
    const v = this.choice.choose(this.records, this.tally.addressHint(), versions, this.options);
    this.forgetVerdicts();
    this.rule = this.options.rule ?? v.version.known?.rule ?? 'db-and-outputs';
    this.ruleWhy = this.options.rule ? 'given' : 'provisional: the rule of that data version, until all episodes are evaluated';
    this.ruleFinal = this.options.rule !== undefined;
    return this.detection();
  }

  /** The data version in use (null before `useData`). */
  get dataVersion(): DataVersion | null {
    return this.choice.version;
  }

  private get version(): DataVersion | null {
    return this.choice.version;
  }

  /** Drops every verdict and the settled rule (new data, or a data version overturned). */
  private forgetVerdicts(): void {
    this.finishNotes = [];
    this.rewardEvidence = null;
    this.settled = false;
    this.outcomes.clear();
    this.kept.fill(undefined);
  }

  /**
   * Weighs every recorded gt_data_hash against the loaded versions (see `VersionChoice.settle`); when
   * the majority overturns the provisional version, every verdict is made again on the new one, under
   * its rule unless one was given. Returns whether it did. `finish` and `evaluateAll` call it; a caller
   * that judges one episode (the CLI's explain) calls it first.
   */
  settleData(): boolean {
    if (this.stillReading || !this.choice.settle(this.records)) return false;
    this.forgetVerdicts();
    if (!this.options.rule) {
      this.rule = this.version!.known?.rule ?? 'db-and-outputs';
      this.ruleWhy = 'provisional: the rule of that data version, until all episodes are evaluated';
      this.ruleFinal = false;
    }
    return true;
  }

  detection(): Detection {
    if (!this.version) throw new Error('no data yet');
    return {
      domain: this.domain,
      domainWhy: this.options.domain ? 'given' : this.domainWhy,
      dataCommit: this.version.commit,
      data: dataLabel(this.version),
      dataSource: this.version.source,
      versionWhy: this.choice.why,
      dataFinal: this.choice.final,
      dataOverturned: this.choice.overturned,
      hashes: this.choice.evidence,
      rewards: this.rewardEvidence,
      rule: this.rule,
      ruleWhy: this.ruleWhy,
      ruleFinal: this.ruleFinal,
      fileKind: this.fileKind,
      fileKindText: FILE_KIND_TEXT[this.fileKind],
      notes: [...this.readNotes, ...this.choice.notes(), ...this.finishNotes],
    };
  }

  /** Evaluates one episode (memoised) and returns its overview row. */
  evaluate(index: number): EpisodeSummary {
    return this.keptOf(index).summaries[this.rule];
  }

  /** Whether the episode has been evaluated since the data was chosen (its row is known). */
  isEvaluated(index: number): boolean {
    return this.kept[index] !== undefined;
  }

  private keptOf(index: number): Kept {
    const k = this.kept[index];
    if (k) return k;
    this.outcome(index);
    return this.kept[index]!;
  }

  private outcome(index: number): EpisodeOutcome {
    if (!this.version) throw new Error('no data yet');
    let o = this.outcomes.get(index);
    if (o) {
      if (this.keptEvaluations !== Infinity) {
        this.outcomes.delete(index);
        this.outcomes.set(index, o);
      }
      return o;
    }
    o = evaluateEpisode(this.records[index]!, this.domain, this.version, this.cache);
    if (this.outcomes.size >= this.keptEvaluations) this.outcomes.delete(this.outcomes.keys().next().value!);
    this.outcomes.set(index, o);
    if (index >= 0 && index < this.records.length && !this.kept[index]) this.keep(index, verdictsOf(o));
    return o;
  }

  private keep(index: number, v: EpisodeVerdicts): Kept {
    const r = this.records[index]!;
    const kept: Kept = { summaries: v.summaries, evidence: v.evidence && { ...v.evidence, record: { index, recordedReward: r.recordedReward, task: r.task } } };
    this.kept[index] = kept;
    return kept;
  }

  /**
   * Takes the verdicts of episode `index` judged elsewhere (`EpisodeJudge`, on this session's
   * `dataSnapshot()` and the episode's bytes at `episodeRange`) as if judged here; its row under the rule in
   * use, or null when the episode is judged already (or there is no such episode).
   */
  adoptVerdicts(index: number, v: EpisodeVerdicts): EpisodeSummary | null {
    if (!this.version || index < 0 || index >= this.records.length || this.kept[index]) return null;
    return this.keep(index, v).summaries[this.rule];
  }

  /** Episode `index`'s place in the bytes of a file read as it streamed in, `[start, end)` (null otherwise): the UTF-8 JSON of the episode, which `EpisodeJudge` judges elsewhere. */
  episodeRange(index: number): readonly [number, number] | null {
    return this.episodeRangeOf?.(index) ?? null;
  }

  /** After every episode is evaluated: settles the rule; returns whether it changed. */
  finish(): boolean {
    if (this.stillReading) throw new Error('the file is still being read: the rule is settled once every episode is in');
    // Every recorded hash first: a data version overturned drops every verdict (made again below).
    const moved = this.settleData();
    if (this.settled) return moved;
    this.settled = true;
    const evals = this.records.map((_, i) => this.keptOf(i).evidence).filter((e): e is RuleEvidence => e !== null);
    const given = this.ruleFinal;
    const r = given ? { rule: this.rule, why: this.ruleWhy, notes: [], evidence: null } : detectRule(evals, this.version!);
    const changed = r.rule !== this.rule;
    this.rule = r.rule;
    this.ruleWhy = r.why;
    this.ruleFinal = true;
    this.rewardEvidence = r.evidence;
    this.finishNotes = [...r.notes, ...disagreementNotes(evals, this.rule, this.choice.otherEvaluator || hasFractionalRewards(this.records))];
    return moved || changed;
  }

  /**
   * Evaluates every episode and settles the rule (the CLI's `--json` prints these); the reports, each passed through `keep` (what a
   * caller holds of 5,000 reports: a JSON line, a table row) as soon as it is made.
   */
  evaluateAll(): EpisodeReport[];
  evaluateAll<T>(keep: (report: EpisodeReport) => T): T[];
  evaluateAll<T>(keep: (report: EpisodeReport) => T = (r) => r as T): T[] {
    // Each report is made while its episode is evaluated, under the rule in use (a known data
    // version's rule never changes), so a session that keeps few evaluations evaluates each
    // episode once; they are made again only if settling the rule changes it.
    // Every recorded hash is weighed first, so a provisional data version is never judged under.
    this.settleData();
    const rule = this.rule;
    const kept = this.records.map((_, i) => keep(this.report(i, rule)));
    return this.finish() ? this.records.map((_, i) => keep(this.report(i, this.rule))) : kept;
  }

  summaries(): EpisodeSummary[] {
    return this.records.map((_, i) => this.keptOf(i).summaries[this.rule]);
  }

  reports(): EpisodeReport[] {
    return this.records.map((_, i) => this.report(i, this.rule));
  }

  /**
   * One episode's report under the rule in use, and whether it may still change before the data
   * version is settled: while it is provisional, an episode whose recorded gt_data_hash the version
   * in use does not reproduce may yet be named in the minority (a finding) — the CLI holds its line.
   */
  reportOf(index: number): { readonly report: EpisodeReport; readonly provisional: boolean } {
    const o = this.outcome(index);
    const misfit = o.ok && o.value.recordedGtHash !== null && o.value.recordedGtHash !== o.value.gtHash;
    return { report: this.report(index, this.rule), provisional: misfit && !this.choice.final };
  }

  private report(index: number, rule: RewardRule): EpisodeReport {
    return episodeReport(this.outcome(index), this.domain, this.version!, rule, this.fileFindings(index));
  }

  /** What the file's other episodes show about this one: a recorded hash the majority disagrees with (`EpisodeJudge.reportLine` leaves it to the session). */
  fileFindings(index: number): Finding[] {
    const m = this.choice.minority;
    if (!m.has(index)) return [];
    return [recordedHashFinding(m.get(index)!, this.choice.evidence!)];
  }

  /** The evaluation itself (for tests and analyses that need more than the view). */
  evaluation(index: number): EpisodeOutcome {
    return this.outcome(index);
  }

  /** The episode screen's data; an error for an episode that cannot be evaluated. */
  view(index: number): ViewResult {
    const o = this.outcome(index);
    if (!o.ok) return { error: o.error, index };
    return episodeView(o.value, this.version!, this.rule, this.fileFindings(index));
  }

  /** The dialogue as recorded, without data or evaluation (shown while data is missing or loading). */
  transcript(index: number): TranscriptView | null {
    const r = this.records[index];
    return r ? transcriptView(r) : null;
  }

  /**
   * What-if replay: the episode with agent actions changed (tool arguments, a respond's text),
   * removed or inserted, judged again under the same data version and rule. The messages are
   * edited, so the dialogue shows the edited episode; recorded user turns and tool results
   * after the first change stay as recorded (the user simulator is not re-run). An inserted
   * call's result is the replayed one.
   */
  whatIf(index: number, edits: readonly StepEdit[]): ViewResult {
    if (!this.version) throw new Error('no data yet');
    const record = this.records[index]!;
    const before = this.outcome(index);
    if (!before.ok) return { error: before.error, index };
    return whatIfView(record, before.value, this.domain, this.version, this.cache, this.rule, edits);
  }

  /** Whether some recorded gt_data_hash values are reproduced on `version` (and none contradicts it). */
  reproducesRecordedHashes(version: DataVersion): boolean {
    const picked = recordedHashSample(this.records);
    return picked.length > 0 && countRecordedMatches(picked, this.domain, version, this.cache) === picked.length;
  }

  /** The episode as JSON text that Python's json.loads reads back to the same values. */
  episodeJson(index: number): string {
    return jsonDumps(this.records[index]!.raw);
  }

  /**
   * Indices of episodes whose user, agent or tool messages contain `query` (case-insensitive). The
   * system prompt is left out: it is the same policy text in every episode, so it would match all.
   * `from`/`to`: only episodes in that index range (a caller searching a big file in slices).
   */
  search(query: string, from = 0, to = this.records.length): number[] {
    return searchEpisodes(this.records.slice(from, to), this.episodeText, query);
  }
}
