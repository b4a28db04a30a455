import type { Db, Domain } from '../model/data/db';
import { loadDataVersions, type DataVersion, type ReadText, type RewardRule } from '../model/data/versions';
import { readResultsFile } from '../model/episode/results-file';
import type { EpisodeRecord } from '../model/episode/types';
import { jsonDumps } from '../py/json-dumps';
import { tryParseJson } from '../py/json-parse';
import { EvalCache } from '../judge/cache';
import { chooseDomain, chooseVersion, countRecordedMatches, detectRule, recordedHashSample, type FileOptions } from '../judge/detect';
import { evaluateEpisode, type EpisodeEvaluation, type EpisodeOutcome } from '../judge/evaluate';
import { episodeView, type EpisodeView } from '../view/episode-view';
import { episodeReport, type EpisodeReport } from '../view/report-json';
import { episodeHeader, episodeSummary, type EpisodeHeader, type EpisodeSummary } from '../view/summary';
import { transcriptView, type TranscriptView } from '../view/transcript';

/** One change for a what-if replay, addressed by the agent message that produced the action. */
export interface StepEdit {
  readonly messageIndex: number;
  readonly remove?: boolean;
  /** A new tool name (optional) and new arguments as JSON text (Python's json dialect). */
  readonly name?: string;
  readonly kwargsJson?: string;
}

/** What was detected about a file, each choice with the sentence saying why. */
export interface Detection {
  readonly domain: Domain;
  readonly domainWhy: string;
  readonly dataCommit: string;
  readonly dataSource: string;
  readonly versionWhy: string;
  readonly rule: RewardRule;
  readonly ruleWhy: string;
  /** The rule is provisional until every episode has been evaluated. */
  readonly ruleFinal: boolean;
}

export type ViewResult = EpisodeView | { readonly error: string; readonly index: number };

/**
 * The one orchestrator: a loaded results file and its evaluation, the same in the Worker and
 * the CLI. Detection (domain on construction, data version in `useData`, rule in `finish`)
 * happens here and nowhere else. Evaluation is incremental so callers can report progress
 * and yield between episodes.
 */
export class InspectSession {
  readonly records: readonly EpisodeRecord[];
  readonly domain: Domain;
  readonly domainWhy: string;
  private readonly cache = new EvalCache();
  private version: DataVersion | null = null;
  private versionWhy = '';
  private rule: RewardRule = 'db-and-outputs';
  private ruleWhy = '';
  private ruleFinal = false;
  private readonly outcomes: (EpisodeOutcome | undefined)[];

  /** `source`: the results file's text, or its episodes already read. */
  constructor(
    source: string | readonly EpisodeRecord[],
    private readonly options: FileOptions = {},
  ) {
    this.records = typeof source === 'string' ? readResultsFile(source) : source;
    const d = chooseDomain(this.records, options);
    this.domain = d.domain;
    this.domainWhy = d.why;
    this.outcomes = new Array<EpisodeOutcome | undefined>(this.records.length);
  }

  headers(): EpisodeHeader[] {
    return this.records.map(episodeHeader);
  }

  /** The DB hash the session uses (cached, resumable); identifies data of unknown commits. */
  hashOf = (db: Db): string => this.cache.hash(db);

  /** Every data version of this file's domain under a data root (see `loadDataVersions`). */
  loadData(read: ReadText, source: string): Promise<DataVersion[]> {
    return loadDataVersions(read, this.domain, source, this.hashOf);
  }

  /** Chooses the data version among those loaded; resets earlier results. */
  useData(versions: readonly DataVersion[]): Detection {
    const v = chooseVersion(this.records, this.domain, versions, this.cache, this.options);
    this.version = v.version;
    this.versionWhy = v.why;
    this.outcomes.fill(undefined);
    this.rule = this.options.rule ?? v.version.known?.rule ?? 'db-and-outputs';
    this.ruleWhy = this.options.rule ? 'given' : 'provisional: the rule of that data version, until all episodes are evaluated';
    this.ruleFinal = this.options.rule !== undefined;
    return this.detection();
  }

  /** The data version in use (null before `useData`). */
  get dataVersion(): DataVersion | null {
    return this.version;
  }

  detection(): Detection {
    if (!this.version) throw new Error('no data yet');
    return {
      domain: this.domain,
      domainWhy: this.options.domain ? 'given' : this.domainWhy,
      dataCommit: this.version.commit,
      dataSource: this.version.source,
      versionWhy: this.versionWhy,
      rule: this.rule,
      ruleWhy: this.ruleWhy,
      ruleFinal: this.ruleFinal,
    };
  }

  /** Evaluates one episode (memoised) and returns its overview row. */
  evaluate(index: number): EpisodeSummary {
    return episodeSummary(this.outcome(index), this.rule);
  }

  private outcome(index: number): EpisodeOutcome {
    if (!this.version) throw new Error('no data yet');
    let o = this.outcomes[index];
    if (!o) {
      o = evaluateEpisode(this.records[index]!, this.domain, this.version, this.cache);
      this.outcomes[index] = o;
    }
    return o;
  }

  /** After every episode is evaluated: settles the rule; returns whether it changed. */
  finish(): boolean {
    if (this.ruleFinal) return false;
    const evals = this.records.map((_, i) => this.outcome(i)).filter((o): o is { ok: true; value: EpisodeEvaluation } => o.ok).map((o) => o.value);
    const r = detectRule(evals, this.version!);
    const changed = r.rule !== this.rule;
    this.rule = r.rule;
    this.ruleWhy = r.why;
    this.ruleFinal = true;
    return changed;
  }

  /** Evaluates every episode, settles the rule and returns the verdicts as plain JSON (the CLI's `--json`). */
  evaluateAll(): EpisodeReport[] {
    this.finish();
    return this.reports();
  }

  summaries(): EpisodeSummary[] {
    return this.records.map((_, i) => episodeSummary(this.outcome(i), this.rule));
  }

  reports(): EpisodeReport[] {
    return this.records.map((_, i) => episodeReport(this.outcome(i), this.domain, this.version!, this.rule));
  }

  /** The evaluation itself (for tests and analyses that need more than the view). */
  evaluation(index: number): EpisodeOutcome {
    return this.outcome(index);
  }

  /** The episode screen's data; an error for an episode that cannot be evaluated. */
  view(index: number): ViewResult {
    const o = this.outcome(index);
    if (!o.ok) return { error: o.error, index };
    return episodeView(o.value, this.version!, this.rule);
  }

  /** The dialogue as recorded, without data or evaluation (shown while data is missing or loading). */
  transcript(index: number): TranscriptView | null {
    const r = this.records[index];
    return r ? transcriptView(r) : null;
  }

  /**
   * What-if replay: the episode with some agent actions replaced (new kwargs as JSON text) or
   * removed, judged again under the same data version and rule. The recorded observations of
   * later steps stay as they were; only the replayed ones change.
   */
  whatIf(index: number, edits: readonly StepEdit[]): ViewResult {
    if (!this.version) throw new Error('no data yet');
    const byMessage = new Map(edits.map((e) => [e.messageIndex, e]));
    let problem: string | null = null;
    const o = evaluateEpisode(this.records[index]!, this.domain, this.version, this.cache, (steps) =>
      steps.flatMap((s) => {
        const e = byMessage.get(s.messageIndex);
        if (!e) return [s];
        if (e.remove) return [];
        if (e.kwargsJson === undefined || s.action === null) return [s];
        const parsed = tryParseJson(e.kwargsJson);
        if (!parsed.ok || !(parsed.value instanceof Map)) {
          problem = `arguments of the action at message ${s.messageIndex} are not a JSON object${parsed.ok ? '' : `: ${parsed.error.text}`}`;
          return [s];
        }
        return [{ ...s, action: { name: e.name ?? s.action.name, kwargs: parsed.value } }];
      }),
    );
    if (problem !== null) return { error: problem, index };
    if (!o.ok) return { error: o.error, index };
    return episodeView(o.value, this.version, this.rule);
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
   */
  search(query: string): number[] {
    const q = query.toLowerCase();
    if (!q) return this.records.map((r) => r.index);
    return this.records
      .filter((r) =>
        r.traj.some((m) => {
          if (m.get('role') === 'system') return false;
          const c = m.get('content');
          if (typeof c === 'string' && c.toLowerCase().includes(q)) return true;
          const calls = m.get('tool_calls');
          if (!Array.isArray(calls)) return false;
          return calls.some((x) => {
            const fn = x instanceof Map ? x.get('function') : null;
            if (!(fn instanceof Map)) return false;
            return [fn.get('name'), fn.get('arguments')].some((t) => typeof t === 'string' && t.toLowerCase().includes(q));
          });
        }),
      )
      .map((r) => r.index);
  }
}
