import type { DataVersion, RewardRule } from '../model/data/versions';
import { jsonDumps } from '../py/json-dumps';
import { EvalCache } from '../judge/cache';
import { countRecordedMatches, recordedHashSample, type FileOptions } from '../judge/detect';
import type { EpisodeOutcome } from '../judge/evaluate';
import { episodeView } from '../view/episode-view';
import type { Finding } from '../view/findings';
import { recordedHashFinding } from '../view/hash-finding';
import { searchEpisodes } from './search';
import type { DataSnapshot, Detection, SessionMemory, ViewResult } from './session-types';
import type { StepEdit } from './what-if';
import { SessionCore } from './session-core';
import { bytesText, readInChunks, streamReader, wholeTextSource, type SessionReader as StreamReader } from './session-reader';
import { whatIfView } from './what-if-view';

export type { DataSnapshot, Detection, SessionMemory, StepEdit, ViewResult };
import { episodeReport, type EpisodeReport } from '../view/report-json';
import type { EpisodeSummary } from '../view/summary';
import { transcriptView, type TranscriptView } from '../view/transcript';

/** A session read as a file's bytes arrive (`InspectSession.reader`; see session-reader.ts). */
export type SessionReader = StreamReader<InspectSession>;

/**
 * The one orchestrator: a loaded results file and its evaluation, the same in the Worker and
 * the CLI. Detection (domain on construction, data version in `useData`, rule in `finish`)
 * happens here and nowhere else. Evaluation is incremental so callers can report progress
 * and yield between episodes.
 */
export class InspectSession extends SessionCore {
  /**
   * A session read from a file's bytes chunk by chunk, never holding its whole text: each episode is
   * parsed once as it arrives and read again by byte range through `elementText` (which must give
   * the UTF-8 text of those bytes of the file) when asked for. See `SessionReader` (session-reader.ts).
   */
  static reader(
    elementText: (byteStart: number, byteEnd: number) => string,
    options: FileOptions = {},
    cache: EvalCache = new EvalCache(),
    memory: Omit<SessionMemory, 'elementText' | 'byteOffset'> = {},
  ): SessionReader {
    return streamReader(elementText, options, memory, (file) => new InspectSession(file, options, cache, memory));
  }

  /**
   * A session on a file's bytes held in memory (the CLI): read as `reader` does (in one piece unless
   * `chunkBytes` says otherwise, as tests do), the episodes read again from the bytes, so no whole
   * text is made; a file that is not a plain UTF-8 list of episodes is read from its whole text
   * instead (`fromWholeText`), with the same results. Throws what the constructor throws.
   */
  static fromBytes(
    bytes: Uint8Array,
    options: FileOptions = {},
    cache: EvalCache = new EvalCache(),
    memory: Omit<SessionMemory, 'elementText' | 'byteOffset'> = {},
    chunkBytes = Infinity,
  ): InspectSession {
    const reader = InspectSession.reader(bytesText(bytes), options, cache, memory);
    return readInChunks(reader, bytes, chunkBytes) ?? InspectSession.fromWholeText(bytes, options, cache, memory);
  }

  /**
   * A session on the whole text of a file's bytes (`decodeResultsBytes`), read the careful way
   * (`readResults`: damage located, to the byte in the file, and explained): what `fromBytes` and the
   * worker fall back to when the bytes are not a plain UTF-8 list of episodes (see `wholeTextSource`).
   */
  static fromWholeText(
    bytes: Uint8Array,
    options: FileOptions = {},
    cache: EvalCache = new EvalCache(),
    memory: Omit<SessionMemory, 'elementText' | 'byteOffset'> = {},
  ): InspectSession {
    const { text, memory: m } = wholeTextSource(bytes, memory);
    return new InspectSession(text, options, cache, m);
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
