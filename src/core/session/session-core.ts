import { reviveDb, type Db, type Domain } from '../model/data/db';
import { dataLabel, loadDataVersions, type DataVersion, type ReadText, type RewardRule } from '../model/data/versions';
import { FILE_KIND_TEXT, type FileKind } from '../model/episode/results-file';
import type { EpisodeRecord } from '../model/episode/types';
import { EvalCache, type DbWorkSnapshot } from '../judge/cache';
import {
  detectRule,
  disagreementNotes,
  hasFractionalRewards,
  preferredVersion,
  FileTally,
  type FileOptions,
  type RewardEvidence,
  type RuleEvidence,
} from '../judge/detect';
import { evaluateEpisode, type EpisodeOutcome } from '../judge/evaluate';
import { verdictsOf, type EpisodeVerdicts } from './episode-judge';
import type { DataSnapshot, Detection, SessionMemory } from './session-types';
import { ReadFile, readSource } from './read-file';
import { VersionChoice } from './version-choice';
import { episodeHeader, type EpisodeHeader, type EpisodeSummary } from '../view/summary';
import { episodeFingerprint, legacyEpisodeFingerprints, textFingerprints } from '../view/fingerprint';

/** What stays of an evaluated episode: its overview row under either rule, and the evidence for the rule. */
interface Kept {
  readonly summaries: Readonly<Record<RewardRule, EpisodeSummary>>;
  readonly evidence: RuleEvidence | null;
}

/**
 * What every session is made of (`InspectSession`, session.ts, adds what it answers: reports, views, what-if,
 * search): the file as read, the data version and rule chosen, the verdicts made and kept. Detection (domain on
 * construction, data version in `useData`, rule in `finish`) happens here and nowhere else. Evaluation is
 * incremental so callers can report progress and yield between episodes.
 */
export class SessionCore {
  readonly records: readonly EpisodeRecord[];
  readonly domain: Domain;
  /** Why the domain is the one it is (counted again from every episode once an early session is complete). */
  private why: string;
  /** What was gathered from every episode while the file was read (domain votes, file notes, the address hint). */
  private readonly tally: FileTally;

  /** The data version: provisional from a sample of recorded hashes, settled from all of them. */
  protected readonly choice: VersionChoice;
  protected rule: RewardRule = 'db-and-outputs';
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
  protected readonly episodeText: ((index: number) => string | null) | null;
  private readonly episodeRangeOf: ((index: number) => readonly [number, number] | null) | null;

  /**
   * `source`: the results file's text (read once; each episode's messages are parsed again from
   * it when needed, so only the text and a few parsed episodes stay), or its episodes already read.
   * `cache`: hashes and reference replays to share with other sessions on the same data (tests, benchmarks).
   */
  constructor(
    source: string | readonly EpisodeRecord[] | ReadFile,
    private readonly options: FileOptions = {},
    protected readonly cache: EvalCache = new EvalCache(),
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

  protected get version(): DataVersion | null {
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

  protected keptOf(index: number): Kept {
    const k = this.kept[index];
    if (k) return k;
    this.outcome(index);
    return this.kept[index]!;
  }

  protected outcome(index: number): EpisodeOutcome {
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
}
